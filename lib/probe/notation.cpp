#include "probe/notation.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <string_view>

#include "chess/movegen.hpp"
#include "probe/text.hpp"

namespace retro {

namespace {

const char* piece_name(PieceType t) {
    static const char* const NAMES[] = {"king", "queen", "rook", "bishop", "knight", "pawn"};
    return t < NO_PIECE_TYPE ? NAMES[t] : "piece";
}

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

MoveList legal_moves(const Position& pos) {
    MoveList list;
    generate_legal_moves(pos, list);
    return list;
}

// Could the piece on `from` go to `to` if its own king's safety did not matter? (Used only to explain
// why a move is illegal.)
bool reaches_ignoring_check(const Position& pos, Square from, Square to) {
    const Color us = pos.side_to_move();
    const Bitboard occupied = pos.occupied();
    if (pos.pieces(us) & square_bb(to)) return false;
    const PieceType t = pos.type_on(from);
    if (t != PAWN) return (piece_attacks(t, from, occupied) & square_bb(to)) != 0;
    const int push = pawn_push(us);
    if (to == from + push) return !(occupied & square_bb(to));
    if (to == from + 2 * push)
        return relative_rank(us, from) == 1 && !(occupied & square_bb(from + push)) &&
               !(occupied & square_bb(to));
    if (pawn_attacks(us, from) & square_bb(to))
        return (pos.pieces(~us) & square_bb(to)) || to == pos.ep_square();
    return false;
}

// Why the piece on `from` cannot go to `to` (no legal move joins them).
std::string why_not(const Position& pos, Square from, Square to) {
    const Color us = pos.side_to_move();
    const PieceType t = pos.type_on(from);
    const std::string what =
        std::string("the ") + color_name(us) + " " + piece_name(t) + " on " + square_name(from);
    if (reaches_ignoring_check(pos, from, to)) {
        if (t == KING) return what + " cannot go to " + square_name(to) + ": it would be in check there";
        return what + " cannot go to " + square_name(to) + ": that would leave the " + color_name(us) +
               " king in check";
    }
    if (pos.pieces(us) & square_bb(to))
        return what + " cannot go to " + square_name(to) + ": a " + color_name(us) + " " +
               piece_name(pos.type_on(to)) + " stands there";
    return what + " cannot move to " + square_name(to);
}

std::string no_moves_reason(const Position& pos) {
    const Color us = pos.side_to_move();
    return std::string("no legal moves: ") + color_name(us) +
           (pos.in_check(us) ? " is checkmated" : " is stalemated");
}

enum class Notation { San, Uci };

// "e8=Q, e8=R, e8=B or e8=N" for the prefix "e8" in SAN, "e7e8q, ..." for "e7e8" in UCI.
std::string promotion_hint(const std::string& prefix, Notation notation) {
    const bool uci = notation == Notation::Uci;
    std::string out;
    const char* letters = uci ? "qrbn" : "QRBN";
    for (int i = 0; i < 4; ++i) {
        if (i) out += i == 3 ? " or " : ", ";
        out += prefix + (uci ? "" : "=") + letters[i];
    }
    return out;
}

ParsedMove failure(std::string why) { return {std::nullopt, std::move(why)}; }

ParsedMove parse_uci(const Position& pos, const std::string& s) {
    const Square from = parse_square(s.substr(0, 2)), to = parse_square(s.substr(2, 2));
    PieceType promo = NO_PIECE_TYPE;
    if (s.size() == 5) promo = piece_type_from_letter(s[4]);
    const Color us = pos.side_to_move();
    if (!(pos.occupied() & square_bb(from)))
        return failure(s + ": there is no piece on " + square_name(from));
    if (pos.color_on(from) != us)
        return failure(s + ": the " + piece_name(pos.type_on(from)) + " on " + square_name(from) + " is " +
                       color_name(~us) + "'s and it is " + color_name(us) + "'s turn");
    const MoveList moves = legal_moves(pos);
    bool any = false;
    for (const Move& m : moves) {
        if (m.from != from || m.to != to) continue;
        any = true;
        if (m.promotion == promo) return {m, ""};
    }
    if (!any) return failure(s + ": " + why_not(pos, from, to));
    if (promo == NO_PIECE_TYPE)
        return failure(s + ": a pawn reaching the last rank must promote; say " +
                       promotion_hint(s, Notation::Uci));
    return failure(s + ": only a pawn reaching the last rank promotes");
}

ParsedMove parse_san(const Position& pos, const std::string& original) {
    const std::string bad = "'" + original + "' is neither SAN (Nf3, exd5, Rad1, e8=Q) nor UCI (g1f3, e7e8q)";
    std::string s;
    for (char c : original)
        if (!std::isspace(static_cast<unsigned char>(c))) s += c;
    const auto strip_marks = [&s] {
        while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' || s.back() == '?'))
            s.pop_back();
    };
    strip_marks();
    for (std::string_view suffix : {"e.p.", "ep"})
        if (s.size() > suffix.size() && s.ends_with(suffix) && is_rank(s[s.size() - suffix.size() - 1])) {
            s.erase(s.size() - suffix.size());
            strip_marks();
        }
    constexpr std::string_view CASTLINGS[] = {"O-O", "O-O-O", "0-0", "0-0-0", "o-o", "o-o-o"};
    if (std::ranges::find(CASTLINGS, std::string_view(s)) != std::end(CASTLINGS))
        return failure("castling never occurs in tablebase positions");
    if (s.empty()) return failure(bad);

    PieceType promo = NO_PIECE_TYPE;
    if (const auto eq = s.find('='); eq != std::string::npos) {
        if (eq + 2 != s.size()) return failure(bad);
        promo = piece_type_from_letter(s.back());
        if (promo == NO_PIECE_TYPE || promo == KING || promo == PAWN)
            return failure(original + ": a pawn promotes to Q, R, B or N, not '" + s.back() + "'");
        s.erase(eq);
    } else if (s.size() >= 3 && is_rank(s[s.size() - 2]) &&
               std::string_view("QRBNqrbn").find(s.back()) != std::string_view::npos) {
        promo = piece_type_from_letter(s.back());
        s.pop_back();
    }
    if (s.size() < 2) return failure(bad);
    const Square to = parse_square(s.substr(s.size() - 2));
    if (to == NO_SQUARE) return failure(bad);
    std::string rest = s.substr(0, s.size() - 2);

    PieceType type = PAWN;
    if (!rest.empty() && (std::string_view("KQRBNP").find(rest[0]) != std::string_view::npos ||
                          std::string_view("kqrn").find(rest[0]) != std::string_view::npos)) {
        type = piece_type_from_letter(rest[0]);
        rest.erase(0, 1);
    }
    bool capture = false;
    if (!rest.empty() && (rest.back() == 'x' || rest.back() == ':')) {
        capture = true;
        rest.pop_back();
    } else if (!rest.empty() && rest.back() == '-') {
        rest.pop_back();
    }
    int file = -1, rank = -1;
    if (!rest.empty() && is_file(rest[0])) {
        file = rest[0] - 'a';
        rest.erase(0, 1);
    }
    if (!rest.empty() && is_rank(rest[0])) {
        rank = rest[0] - '1';
        rest.erase(0, 1);
    }
    if (!rest.empty()) return failure(bad);
    if (type == PAWN && file < 0) file = file_of(to);  // "e4" is a push of the e-pawn

    const Color us = pos.side_to_move();
    const MoveList moves = legal_moves(pos);
    if (moves.size == 0) return failure(no_moves_reason(pos));
    std::vector<Move> matches;
    bool promotion_only = false;  // the square matches, the promotion piece does not
    for (const Move& m : moves) {
        if (m.to != to || pos.type_on(m.from) != type) continue;
        if (file >= 0 && file_of(m.from) != file) continue;
        if (rank >= 0 && rank_of(m.from) != rank) continue;
        if (m.promotion != promo) {
            promotion_only = true;
            continue;
        }
        matches.push_back(m);
    }
    if (matches.size() == 1) {
        const Move m = matches.front();
        if (capture && !m.capture && !m.en_passant)
            return failure(original + ": there is nothing to capture on " + square_name(to));
        return {m, ""};
    }
    if (matches.size() > 1) {
        std::string why = "ambiguous: " + original + " could be ";
        for (size_t i = 0; i < matches.size(); ++i) {
            if (i) why += i + 1 == matches.size() ? " or " : ", ";
            why += to_san(pos, matches[i]);
        }
        return failure(why);
    }
    if (promotion_only) {
        if (promo == NO_PIECE_TYPE)
            return failure(original + ": a pawn reaching the last rank must promote; say " +
                           promotion_hint(s, Notation::San));
        return failure(original + ": only a pawn reaching the last rank promotes");
    }
    // Nothing matches: find the pieces the user may have meant and say why they cannot go.
    std::string candidates_desc = std::string(color_name(us)) + " " + piece_name(type);
    if (file >= 0 || rank >= 0) {
        candidates_desc += " on ";
        if (file >= 0 && rank >= 0)
            candidates_desc += square_name(make_square(file, rank));
        else if (file >= 0)
            candidates_desc += std::string("the ") + char('a' + file) + "-file";
        else
            candidates_desc += std::string("rank ") + char('1' + rank);
    }
    std::vector<Square> pieces;
    for (Bitboard b = pos.pieces(us, type); b;) {
        const Square from = pop_lsb(b);
        if ((file < 0 || file_of(from) == file) && (rank < 0 || rank_of(from) == rank))
            pieces.push_back(from);
    }
    if (pieces.empty()) return failure(original + ": there is no " + candidates_desc);
    for (Square from : pieces)
        if (reaches_ignoring_check(pos, from, to)) return failure(original + ": " + why_not(pos, from, to));
    if (pieces.size() == 1) return failure(original + ": " + why_not(pos, pieces.front(), to));
    return failure(original + ": no " + candidates_desc + " can move to " + square_name(to));
}

}  // namespace

std::string to_san(const Position& pos, const Move& m) {
    const PieceType type = pos.type_on(m.from);
    std::string out;
    if (type == PAWN) {
        if (m.capture || m.en_passant) out += std::string(1, char('a' + file_of(m.from))) + 'x';
        out += square_name(m.to);
        if (m.promotion != NO_PIECE_TYPE) out += std::string("=") + piece_letter(m.promotion);
    } else {
        out += piece_letter(type);
        bool other = false, same_file = false, same_rank = false;
        MoveList moves;
        generate_legal_moves(pos, moves);
        for (const Move& o : moves) {
            if (o.to != m.to || o.from == m.from || pos.type_on(o.from) != type) continue;
            other = true;
            same_file |= file_of(o.from) == file_of(m.from);
            same_rank |= rank_of(o.from) == rank_of(m.from);
        }
        if (other) {
            if (!same_file)
                out += char('a' + file_of(m.from));
            else if (!same_rank)
                out += char('1' + rank_of(m.from));
            else
                out += square_name(m.from);
        }
        if (m.capture) out += 'x';
        out += square_name(m.to);
    }
    const Position next = make_move(pos, m);
    if (next.in_check(next.side_to_move())) out += has_legal_move(next) ? '+' : '#';
    return out;
}

std::string san_line(const Position& pos, const std::vector<Move>& moves) {
    std::string out;
    Position cur = pos;
    int number = 1;
    for (size_t i = 0; i < moves.size(); ++i) {
        if (i) out += ' ';
        if (cur.side_to_move() == WHITE)
            out += std::to_string(number) + ". ";
        else if (i == 0)
            out += std::to_string(number) + "... ";
        out += to_san(cur, moves[i]);
        if (cur.side_to_move() == BLACK) ++number;
        cur = make_move(cur, moves[i]);
    }
    return out;
}

std::string uci_line(const std::vector<Move>& moves) {
    std::string out;
    for (const Move& m : moves) {
        if (!out.empty()) out += ' ';
        out += to_uci(m);
    }
    return out;
}

ParsedMove parse_move(const Position& pos, std::string_view text) {
    const std::string s = trim(text);
    if (s.empty()) return failure("no move given");
    if (s == "0000" || s == "--") return failure("a null move is not a legal move");
    const bool uci = (s.size() == 4 || s.size() == 5) && is_file(s[0]) && is_rank(s[1]) && is_file(s[2]) &&
                     is_rank(s[3]) &&
                     (s.size() == 4 || std::string_view("qrbnQRBN").find(s[4]) != std::string_view::npos);
    if (uci) {
        if (!has_legal_move(pos)) return failure(no_moves_reason(pos));
        return parse_uci(pos, s);
    }
    return parse_san(pos, s);
}

}  // namespace retro
