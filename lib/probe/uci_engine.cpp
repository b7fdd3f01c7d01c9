#include "probe/uci_engine.hpp"

#include <algorithm>
#include <charconv>
#include <istream>
#include <ostream>
#include <vector>

#include "chess/movegen.hpp"
#include "probe/castling.hpp"
#include "probe/game.hpp"
#include "probe/line.hpp"
#include "probe/notation.hpp"
#include "probe/text.hpp"
#include "store/block_cache.hpp"
#include "store/table_file.hpp"

namespace retro {

namespace {

constexpr const char* START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
constexpr size_t MAX_CACHE_MIB = 65536;

}  // namespace

UciEngine::UciEngine(const Tablebase& tables, std::ostream& out)
    : tables_(&tables), cache_mib_(std::max<size_t>(1, tables.cache().capacity_bytes() >> 20)), out_(out) {}

UciEngine::~UciEngine() = default;

void UciEngine::run(std::istream& in) {
    std::string line;
    while (std::getline(in, line))
        if (!handle(line)) return;
    if (pending_bestmove_) send_bestmove();
}

bool UciEngine::handle(std::string_view line) {
    try {
        const auto tokens = split(line);
        if (tokens.empty()) return true;
        const std::string& cmd = tokens.front();
        const size_t at = line.find(cmd) + cmd.size();
        const std::string_view args = line.substr(at);
        if (cmd == "uci") {
            const std::string dir = tables_->directory().string();
            out_ << "id name retrograde tbprobe\n"
                 << "id author the retrograde authors\n"
                 << "option name TablebasePath type string default " << (dir.empty() ? "<empty>" : dir)
                 << "\n"
                 << "option name TablebaseCache type spin default " << cache_mib_ << " min 1 max "
                 << MAX_CACHE_MIB << "\n"
                 << "uciok\n";
        } else if (cmd == "isready") {
            out_ << "readyok\n";
        } else if (cmd == "ucinewgame") {
            position_.reset();
            not_in_tables_ = "no position given yet";
            pending_bestmove_.reset();
        } else if (cmd == "position") {
            set_position(args);
        } else if (cmd == "go") {
            go(args);
        } else if (cmd == "stop" || cmd == "ponderhit") {
            if (pending_bestmove_) send_bestmove();
        } else if (cmd == "quit") {
            if (pending_bestmove_) send_bestmove();
            out_.flush();
            return false;
        } else if (cmd == "setoption") {
            set_option(args);
        } else if (cmd == "debug" || cmd == "register") {
            // Nothing to debug or register.
        } else if (cmd == "d") {
            if (position_)
                out_ << board_diagram(*position_) << "Fen: " << position_->fen() << "\n";
            else
                out_ << "info string no position: " << not_in_tables_ << "\n";
        } else {
            out_ << "info string unknown command: " << cmd << "\n";
        }
    } catch (const std::exception& e) {
        out_ << "info string error: " << e.what() << "\n";
    }
    out_.flush();
    return true;
}

void UciEngine::set_position(std::string_view args) {
    const auto tokens = split(args);
    position_.reset();
    not_in_tables_.clear();
    size_t i = 0;
    Position pos;
    if (tokens.empty()) {
        not_in_tables_ = "'position' needs 'startpos' or 'fen <FEN>'";
        return;
    }
    if (tokens[0] == "startpos") {
        pos = Position::from_fen(START_FEN);
        i = 1;
    } else if (tokens[0] == "fen") {
        std::vector<std::string> fields;
        for (i = 1; i < tokens.size() && tokens[i] != "moves"; ++i) fields.push_back(tokens[i]);
        std::string fen;
        for (const auto& f : fields) fen += (fen.empty() ? "" : " ") + f;
        try {
            pos = Position::from_fen(fen);
        } catch (const PositionError& e) {
            not_in_tables_ = std::string("bad FEN '") + fen + "': " + e.what();
            if (fields.size() < 3 || fields[2] == "-") return;
            // Castling rights: not in the tables, but still a position to play a legal move in.
            const std::string castling = fields[2];
            fields[2] = "-";
            std::string plain;
            for (const auto& f : fields) plain += (plain.empty() ? "" : " ") + f;
            try {
                pos = Position::from_fen(plain);
                // Rights whose king or rook has left its square mean nothing (some GUIs send KQkq
                // for any position); real ones are not in the tables.
                if (!usable_castling(pos, castling).empty())
                    not_in_tables_ =
                        "castling rights (" + usable_castling(pos, castling) + ") are not in the tables";
                else
                    not_in_tables_.clear();
            } catch (const PositionError&) {
                return;
            }
        }
    } else {
        not_in_tables_ = "'position' needs 'startpos' or 'fen <FEN>', not '" + tokens[0] + "'";
        return;
    }
    if (i < tokens.size() && tokens[i] != "moves") {
        not_in_tables_ = "unexpected '" + tokens[i] + "' in the position command";
        return;
    }
    for (++i; i < tokens.size(); ++i) {
        const ParsedMove parsed = parse_move(pos, tokens[i]);
        if (parsed) {
            pos = make_move(pos, *parsed.move);
        } else if (auto next = castled(pos, tokens[i])) {
            pos = *next;
        } else {
            not_in_tables_ = "illegal move '" + tokens[i] + "' in the position command: " + parsed.error;
            return;
        }
    }
    position_ = pos;
}

void UciEngine::go(std::string_view args) {
    const auto tokens = split(args);
    bool wait = false;
    for (const auto& t : tokens) wait |= t == "infinite" || t == "ponder";
    std::string best = "0000";
    std::string reason = not_in_tables_;
    if (!position_) {
        out_ << "info string position not in tables: " << reason << "\n";
        out_ << "info string no legal position, so no move: bestmove 0000\n";
    } else {
        const Position& pos = *position_;
        MoveList moves;
        generate_legal_moves(pos, moves);
        bool from_tables = false;
        if (moves.size == 0) {
            out_ << "info string " << (pos.in_check(pos.side_to_move()) ? "checkmated" : "stalemate")
                 << ": no legal move\n";
            from_tables = true;
        } else if (reason.empty()) {
            try {
                const Dtm value = tables_->probe(pos);
                const auto chosen = best_move(*tables_, pos);
                std::vector<Move> pv{chosen->move};
                if (!is_draw(value)) {
                    const Line line = line_to_mate(*tables_, pos);
                    if (!line.moves.empty()) pv = line.moves;
                    out_ << "info depth " << pv.size() << " score mate " << mate_in_moves(value);
                } else {
                    out_ << "info depth 1 score cp 0";
                }
                out_ << " nodes " << pv.size() << " pv " << uci_line(pv) << "\n";
                out_ << "info string tablebase: " << describe_long(value) << "\n";
                best = to_uci(chosen->move);
                from_tables = true;
            } catch (const std::exception& e) {
                reason = e.what();
            }
        }
        if (!from_tables) {
            best = to_uci(moves.moves[0]);
            out_ << "info string position not in tables: " << reason << "\n";
            out_ << "info string not from the tables: playing the first legal move " << best << "\n";
        }
    }
    pending_bestmove_ = best;
    if (!wait) send_bestmove();
}

// "setoption name <id> [value <x>]": the name may have spaces and is not case sensitive; the value
// is the rest of the line (a path may have spaces too).
void UciEngine::set_option(std::string_view args) {
    const auto tokens = split(args);
    if (tokens.empty() || tokens[0] != "name") {
        out_ << "info string 'setoption' needs 'name <id> [value <x>]'\n";
        return;
    }
    std::string name;
    size_t i = 1;
    for (; i < tokens.size() && tokens[i] != "value"; ++i) name += (name.empty() ? "" : " ") + tokens[i];
    std::string value;
    if (i < tokens.size()) {
        const size_t at = args.find(" value") + 6;  // "value" as a word after the name
        value = trim(args.substr(at));
    }
    if (lower(name) == "tablebasepath") {
        open_tables(value == "<empty>" ? std::string() : value, cache_mib_);
    } else if (lower(name) == "tablebasecache") {
        size_t mib = 0;
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), mib);
        if (error != std::errc() || end != value.data() + value.size() || mib < 1 || mib > MAX_CACHE_MIB) {
            out_ << "info string TablebaseCache takes MiB from 1 to " << MAX_CACHE_MIB << ", not '" << value
                 << "'\n";
            return;
        }
        cache_mib_ = mib;
        // The cache belongs to the tables: open the same directory again with the new budget.
        if (!tables_->directory().empty()) open_tables(tables_->directory().string(), mib);
    } else {
        out_ << "info string unknown option: " << name << "\n";
    }
}

void UciEngine::open_tables(const std::string& dir, size_t cache_mib) {
    std::unique_ptr<const Tablebase> opened;
    size_t files = 0;
    try {
        opened =
            dir.empty() ? std::make_unique<Tablebase>() : Tablebase::open_directory(dir, cache_mib << 20);
        if (!dir.empty()) files = table_file_names(dir).size();
    } catch (const std::exception& e) {  // not a directory, or one that cannot be read
        out_ << "info string tables not changed: " << e.what() << "\n";
        return;
    }
    opened_ = std::move(opened);
    tables_ = opened_.get();
    out_ << "info string tables: " << files << " table files in " << (dir.empty() ? "<empty>" : dir) << ", "
         << cache_mib << " MiB cache\n";
}

void UciEngine::send_bestmove() {
    out_ << "bestmove " << *pending_bestmove_ << "\n";
    pending_bestmove_.reset();
}

}  // namespace retro
