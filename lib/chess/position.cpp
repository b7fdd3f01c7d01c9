#include "chess/position.hpp"

#include <cctype>
#include <sstream>
#include <vector>

namespace retro {

namespace {

std::vector<std::string> split_fields(const std::string& fen) {
    std::istringstream in(fen);
    std::vector<std::string> fields;
    for (std::string f; in >> f;) fields.push_back(f);
    return fields;
}

bool is_number(const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

void parse_placement(const std::string& board, Position& pos) {
    int rank = 7, file = 0, rows = 1;
    for (char c : board) {
        if (c == '/') {
            if (file != 8)
                throw PositionError("rank " + std::to_string(rank + 1) + " does not have 8 squares");
            --rank;
            file = 0;
            ++rows;
            if (rank < 0) throw PositionError("more than 8 ranks in the piece placement");
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8)
                throw PositionError("rank " + std::to_string(rank + 1) + " has more than 8 squares");
        } else {
            const PieceType t = piece_type_from_letter(c);
            if (t == NO_PIECE_TYPE) throw PositionError(std::string("bad piece letter '") + c + "'");
            if (file >= 8)
                throw PositionError("rank " + std::to_string(rank + 1) + " has more than 8 squares");
            pos.put({std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK, t},
                    make_square(file, rank));
            ++file;
        }
    }
    if (file != 8) throw PositionError("rank " + std::to_string(rank + 1) + " does not have 8 squares");
    if (rows != 8) throw PositionError("the piece placement has " + std::to_string(rows) + " ranks, not 8");
}

// Why the en passant square of pos cannot follow a double push just played, or "" when it can.
std::string ep_fault(const Position& pos) {
    const Color us = pos.side_to_move();
    const Square ep = pos.ep_square();
    const std::string name = "en passant square " + square_name(ep);
    if (ep < 0 || ep >= 64 || relative_rank(us, ep) != 5)
        return name + " is on the wrong rank: with " + color_name(us) + " to move it must be on rank " +
               (us == WHITE ? "6" : "3");
    const Square pushed_pawn = ep - pawn_push(us);
    const Square origin = ep + pawn_push(us);
    if (!(pos.pieces(~us, PAWN) & square_bb(pushed_pawn)))
        return name + " needs a " + color_name(~us) + " pawn on " + square_name(pushed_pawn) +
               " that has just made a double push";
    for (Square s : {ep, origin})
        if (pos.occupied() & square_bb(s))
            return name + " is impossible: " + square_name(s) + " must be empty after the double push";
    Position before = pos;  // the pawn back on its origin, the opponent to move
    before.remove(pushed_pawn);
    before.put({~us, PAWN}, origin);
    if (before.pieces(us, KING) && before.attacked(before.king(us), ~us))
        return name + " is impossible: before " + square_name(origin) + "-" + square_name(pushed_pawn) +
               ", " + color_name(us) + " would already have been in check";
    return "";
}

}  // namespace

Position Position::from_fen(const std::string& fen) {
    const auto fields = split_fields(fen);
    if (fields.size() != 4 && fields.size() != 6)
        throw PositionError("a FEN has 4 or 6 fields, this one has " + std::to_string(fields.size()));
    Position pos;
    parse_placement(fields[0], pos);
    if (fields[1] != "w" && fields[1] != "b")
        throw PositionError("side to move must be 'w' or 'b', not '" + fields[1] + "'");
    pos.side_to_move_ = fields[1] == "w" ? WHITE : BLACK;
    if (fields[2] != "-")
        throw PositionError("castling rights ('" + fields[2] + "') never occur in a tablebase position");
    if (fields[3] != "-") {
        pos.ep_square_ = parse_square(fields[3]);
        if (pos.ep_square_ == NO_SQUARE) throw PositionError("bad en passant square '" + fields[3] + "'");
    }
    if (fields.size() == 6 && (!is_number(fields[4]) || !is_number(fields[5])))
        throw PositionError("move counters must be numbers");
    if (const std::string why = pos.illegality(); !why.empty()) throw PositionError(why);
    return pos;
}

std::string Position::fen() const {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Square s = make_square(file, rank);
            const PieceType t = type_on(s);
            if (t == NO_PIECE_TYPE) {
                ++empty;
                continue;
            }
            if (empty) out += char('0' + empty);
            empty = 0;
            const char letter = piece_letter(t);
            out += color_on(s) == WHITE ? letter : char(letter - 'A' + 'a');
        }
        if (empty) out += char('0' + empty);
        if (rank) out += '/';
    }
    out += side_to_move_ == WHITE ? " w - " : " b - ";
    out += ep_square_ == NO_SQUARE ? "-" : square_name(ep_square_);
    return out + " 0 1";
}

Bitboard Position::attackers(Square s, Color by, Bitboard occ) const {
    const Bitboard them = by_color_[by];
    return them & ((king_attacks(s) & by_type_[KING]) | (knight_attacks(s) & by_type_[KNIGHT]) |
                   (pawn_attacks(~by, s) & by_type_[PAWN]) |
                   (rook_attacks(s, occ) & (by_type_[ROOK] | by_type_[QUEEN])) |
                   (bishop_attacks(s, occ) & (by_type_[BISHOP] | by_type_[QUEEN])));
}

bool Position::ep_square_plausible() const { return ep_fault(*this).empty(); }

std::string Position::illegality() const {
    for (Color c : {WHITE, BLACK}) {
        const int kings = popcount(pieces(c, KING));
        const std::string side = color_name(c);
        if (kings == 0) return "the " + side + " king is missing";
        if (kings > 1) return side + " has " + std::to_string(kings) + " kings";
    }
    if (pieces(PAWN) & ~PAWN_RANKS) return "a pawn stands on the first or last rank";
    if (in_check(~side_to_move_))
        return std::string("the side not to move (") + color_name(~side_to_move_) + ") is in check";
    if (ep_square_ != NO_SQUARE) return ep_fault(*this);
    return "";
}

Position Position::color_flipped() const {
    Position out;
    for (Color c : {WHITE, BLACK})
        for (int t = 0; t < PIECE_TYPE_COUNT; ++t)
            for (Bitboard b = pieces(c, PieceType(t)); b;) out.put({~c, PieceType(t)}, flip_rank(pop_lsb(b)));
    out.side_to_move_ = ~side_to_move_;
    out.ep_square_ = ep_square_ == NO_SQUARE ? NO_SQUARE : flip_rank(ep_square_);
    return out;
}

}  // namespace retro
