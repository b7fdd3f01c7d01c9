// A UCI engine over the tables, for chess GUIs (cutechess-cli, Arena): it plays perfectly when the
// position is in the tables and says clearly, in an "info string", when it is not.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "probe/tablebase.hpp"

namespace retro {

// Options, as "uci" lists them: TablebasePath (a directory of table files) and TablebaseCache (the
// block cache in MiB). Setting either opens the directory anew; a bad one leaves the tables as they
// were and says why in an "info string".
class UciEngine {
public:
    // Probes `tables` until a TablebasePath option opens another directory.
    UciEngine(const Tablebase& tables, std::ostream& out);
    ~UciEngine();

    // Reads commands until "quit" or the end of input.
    void run(std::istream& in);
    // Handles one command line; false after "quit". Never throws: odd input gets an "info string".
    bool handle(std::string_view line);

private:
    void set_position(std::string_view args);
    void go(std::string_view args);
    void send_bestmove();
    void set_option(std::string_view args);
    // Probes dir (no tables when empty) with a cache of cache_mib from now on, or says why not.
    void open_tables(const std::string& dir, size_t cache_mib);

    const Tablebase* tables_;
    std::unique_ptr<const Tablebase> opened_;  // the tables of the last TablebasePath, when set
    size_t cache_mib_;
    std::ostream& out_;
    // The position set by the last "position" command, when it is a legal position at all (it may
    // still be missing from the tables), and why it is not in the tables when known beforehand.
    std::optional<Position> position_;
    std::string not_in_tables_ = "no position given yet";
    // After "go infinite" or "go ponder" the answer waits for "stop" or "ponderhit".
    std::optional<std::string> pending_bestmove_;
};

}  // namespace retro
