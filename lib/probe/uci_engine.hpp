// A UCI engine over the tables, for chess GUIs (cutechess-cli, Arena): it plays perfectly when the
// position is in the tables and says clearly, in an "info string", when it is not.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "probe/tablebase.hpp"

namespace retro {

class UciEngine {
public:
    UciEngine(const Tablebase& tables, std::ostream& out) : tables_(tables), out_(out) {}

    // Reads commands until "quit" or the end of input.
    void run(std::istream& in);
    // Handles one command line; false after "quit". Never throws: odd input gets an "info string".
    bool handle(std::string_view line);

private:
    void set_position(std::string_view args);
    void go(std::string_view args);
    void send_bestmove();

    const Tablebase& tables_;
    std::ostream& out_;
    // The position set by the last "position" command, when it is a legal position at all (it may
    // still be missing from the tables), and why it is not in the tables when known beforehand.
    std::optional<Position> position_;
    std::string not_in_tables_ = "no position given yet";
    // After "go infinite" or "go ponder" the answer waits for "stop" or "ponderhit".
    std::optional<std::string> pending_bestmove_;
};

}  // namespace retro
