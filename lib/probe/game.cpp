#include "probe/game.hpp"

#include <cctype>
#include <istream>
#include <ostream>

#include "chess/movegen.hpp"
#include "probe/line.hpp"
#include "probe/notation.hpp"
#include "probe/text.hpp"

namespace retro {

namespace {

Bitboard light_squares() {
    Bitboard b = 0;
    for (Square s = SQ_A1; s <= SQ_H8; ++s)
        if ((file_of(s) + rank_of(s)) & 1) b |= square_bb(s);
    return b;
}

// The same position without an en passant square that no capture can use, so that positions
// compare equal exactly when they are the same for the rules.
Position normalized(Position pos) {
    if (pos.ep_square() != NO_SQUARE && !has_legal_ep_capture(pos)) pos.set_ep_square(NO_SQUARE);
    return pos;
}

const char* HELP =
    "Enter a move in SAN (Qd5+, Rxa7, exd6, e8=Q) or UCI (d1d5, e7e8q), or a command:\n"
    "  board   show the board again        hint    show the best move\n"
    "  moves   list the legal moves        line    show the line to mate from here\n"
    "  fen     show the position's FEN     undo    take back your last move (and my answer)\n"
    "  help    this text                   quit    leave the game\n";

class Game {
public:
    Game(const Tablebase& tables, const Position& start, Color human, std::ostream& out)
        : tables_(tables), human_(human), out_(out) {
        positions_.push_back(normalized(start));
    }

    GameResult run(std::istream& in);

private:
    const Position& pos() const { return positions_.back(); }

    // "12." before a White move, "12..." before a Black one, for the move about to be played.
    std::string move_number() const {
        const Position& start = positions_.front();
        const size_t ply = moves_.size() + (start.side_to_move() == BLACK ? 1 : 0);
        return std::to_string(1 + ply / 2) + (pos().side_to_move() == WHITE ? "." : "...");
    }

    std::string value_text(const Position& p) const {
        try {
            return describe_long(tables_.probe(p));
        } catch (const std::exception& e) {
            return std::string("not in the tables (") + e.what() + ")";
        }
    }

    void show() const {
        out_ << "\n" << board_diagram(pos());
        const Color stm = pos().side_to_move();
        out_ << color_title(stm) << " to move (" << (stm == human_ ? "you" : "me")
             << "): " << value_text(pos()) << "\n";
    }

    enum class Player { Tables, User };

    void play(const Move& m, Player player) {
        out_ << (player == Player::Tables ? "I play " : "You play ") << move_number() << ' '
             << to_san(pos(), m) << " (" << to_uci(m) << ")\n";
        moves_.push_back(m);
        positions_.push_back(make_move(pos(), m));
        show();
    }

    GameEnd end() const {
        return game_end(pos(), std::vector<Position>(positions_.begin(), positions_.end() - 1));
    }

    GameResult finish(const GameEnd& end) const {
        out_ << "Game over: " << end.reason() << ".\n";
        return end.result();
    }

    bool command(const std::string& text);  // true when text was a command (other than quit)

    const Tablebase& tables_;
    Color human_;
    std::ostream& out_;
    std::vector<Position> positions_;  // positions_[i] is the position before moves_[i]
    std::vector<Move> moves_;
};

bool Game::command(const std::string& text) {
    const std::string cmd = lower(text);
    if (cmd == "help" || cmd == "?") {
        out_ << HELP;
    } else if (cmd == "board") {
        show();
    } else if (cmd == "fen") {
        out_ << pos().fen() << "\n";
    } else if (cmd == "moves") {
        MoveList moves;
        generate_legal_moves(pos(), moves);
        out_ << "Legal moves:";
        for (const Move& m : moves) out_ << ' ' << to_san(pos(), m);
        out_ << "\n";
    } else if (cmd == "hint") {
        try {
            if (const auto best = best_move(tables_, pos()))
                out_ << "Hint: " << to_san(pos(), best->move) << " (" << to_uci(best->move) << "), "
                     << describe_long(best->value) << "\n";
        } catch (const std::exception& e) {
            out_ << "No hint: " << e.what() << "\n";
        }
    } else if (cmd == "line") {
        try {
            const Line line = line_to_mate(tables_, pos());
            if (line.moves.empty())
                out_ << "No line: " << (line.note.empty() ? describe_long(line.value) : line.note) << "\n";
            else
                out_ << "Line to mate: " << san_line(pos(), line.moves) << "\n";
            if (!line.moves.empty() && !line.note.empty()) out_ << "(" << line.note << ")\n";
        } catch (const std::exception& e) {
            out_ << "No line: " << e.what() << "\n";
        }
    } else if (cmd == "undo" || cmd == "takeback") {
        // Back to the user's previous turn, taking back at least one of the user's moves.
        size_t n = moves_.size();
        while (n > 0 && positions_[n - 1].side_to_move() != human_) --n;
        if (n == 0) {
            out_ << "Nothing to undo: you have not moved yet.\n";
        } else {
            --n;  // positions_[n] is the position before the user's last move
            out_ << "Taking back " << (moves_.size() - n) << (moves_.size() - n == 1 ? " ply" : " plies")
                 << ".\n";
            moves_.resize(n);
            positions_.resize(n + 1);
            show();
        }
    } else {
        return false;
    }
    return true;
}

GameResult Game::run(std::istream& in) {
    out_ << "You play " << color_title(human_) << ", I play " << color_title(~human_)
         << " with the tables. Type 'help' for the commands.\n";
    try {
        tables_.probe(pos());
    } catch (const std::exception& e) {
        out_ << "This position is not in the tables: " << e.what() << "\n";
        return GameResult::Stopped;
    }
    show();
    for (;;) {
        if (const GameEnd e = end(); e.over()) return finish(e);
        if (pos().side_to_move() != human_) {
            try {
                play(best_move(tables_, pos())->move, Player::Tables);
            } catch (const std::exception& e) {
                out_ << "I cannot go on: " << e.what() << "\n";
                return GameResult::Stopped;
            }
            continue;
        }
        out_ << "Your move (" << color_title(human_) << "): " << std::flush;
        std::string line;
        if (!std::getline(in, line)) {
            out_ << "\nEnd of input: game abandoned.\n";
            return GameResult::Quit;
        }
        const std::string text = trim(line);
        if (text.empty()) continue;
        const std::string cmd = lower(text);
        if (cmd == "quit" || cmd == "exit" || cmd == "resign" || cmd == "q") {
            out_ << "Game abandoned.\n";
            return GameResult::Quit;
        }
        if (command(text)) continue;
        const ParsedMove parsed = parse_move(pos(), text);
        if (!parsed) {
            out_ << "Illegal move: " << parsed.error << ". Try again ('help' lists the commands).\n";
            continue;
        }
        play(*parsed.move, Player::User);
    }
}

}  // namespace

bool insufficient_material(const Position& pos) {
    if (pos.pieces(PAWN) | pos.pieces(QUEEN) | pos.pieces(ROOK)) return false;
    const Bitboard minors = pos.pieces(BISHOP) | pos.pieces(KNIGHT);
    if (popcount(minors) <= 1) return true;
    if (pos.pieces(KNIGHT)) return false;
    const Bitboard bishops = pos.pieces(BISHOP), light = light_squares();
    return (bishops & light) == 0 || (bishops & ~light) == 0;
}

std::string board_diagram(const Position& pos) {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        out += "  " + std::string(1, char('1' + rank)) + " ";
        for (int file = 0; file < 8; ++file) {
            const Square s = make_square(file, rank);
            const PieceType t = pos.type_on(s);
            char c = '.';
            if (t != NO_PIECE_TYPE) {
                c = piece_letter(t);
                if (pos.color_on(s) == BLACK) c = char(std::tolower(static_cast<unsigned char>(c)));
            }
            out += ' ';
            out += c;
        }
        out += '\n';
    }
    out += "     a b c d e f g h\n";
    return out;
}

GameResult GameEnd::result() const {
    if (kind != Kind::Checkmate) return GameResult::Draw;
    return mated == WHITE ? GameResult::BlackWins : GameResult::WhiteWins;
}

std::string GameEnd::reason() const {
    switch (kind) {
        case Kind::None:
            return "";
        case Kind::Checkmate:
            return std::string("checkmate, ") + color_title(~mated) + " wins";
        case Kind::Stalemate:
            return "stalemate, a draw";
        case Kind::InsufficientMaterial:
            return "a draw by insufficient material";
        case Kind::Repetition:
            return "a draw by threefold repetition";
    }
    return "";
}

GameEnd game_end(const Position& pos, const std::vector<Position>& history) {
    using Kind = GameEnd::Kind;
    const Color stm = pos.side_to_move();
    if (!has_legal_move(pos))
        return pos.in_check(stm) ? GameEnd{Kind::Checkmate, stm} : GameEnd{Kind::Stalemate};
    if (insufficient_material(pos)) return {Kind::InsufficientMaterial};
    const Position now = normalized(pos);
    int seen = 1;
    for (const Position& p : history)
        if (normalized(p) == now) ++seen;
    if (seen >= 3) return {Kind::Repetition};
    return {};
}

GameResult play_game(const Tablebase& tables, const Position& start, Color human, std::istream& in,
                     std::ostream& out) {
    return Game(tables, start, human, out).run(in);
}

}  // namespace retro
