#include "chess/movegen.hpp"

namespace retro {

namespace {

constexpr PieceType PROMOTIONS[] = {QUEEN, ROOK, BISHOP, KNIGHT};

// The men of either side whose attacks a man in between cuts short.
Bitboard slider_men(const Position& pos) { return pos.pieces(ROOK) | pos.pieces(BISHOP) | pos.pieces(QUEEN); }

// Does the move leave the mover's own king safe?
bool keeps_king_safe(const Position& pos, const Move& m) {
    const Color us = pos.side_to_move();
    const Square king = pos.king(us) == m.from ? m.to : pos.king(us);
    Bitboard occupied = (pos.occupied() & ~square_bb(m.from)) | square_bb(m.to);
    Bitboard removed = m.capture ? square_bb(m.to) : 0;
    if (m.en_passant) {
        const Square victim = m.to - pawn_push(us);
        occupied &= ~square_bb(victim);
        removed = square_bb(victim);
    }
    return !(pos.attackers(king, ~us, occupied) & ~removed);
}

// A capture by a piece or a king, and an en passant capture, which Move does not count among the
// captures (it leaves no piece on `to` to take).
constexpr Move capture(Square from, Square to) { return {from, to, NO_PIECE_TYPE, true}; }
constexpr Move en_passant(Square from, Square to) { return {from, to, NO_PIECE_TYPE, false, true}; }

enum class PawnMove { Push, Capture };

// A pawn's push or capture onto `to`, as each of the four promotions when `to` is on the last rank.
void add_pawn_move(MoveList& list, Square from, Square to, PawnMove kind) {
    const bool takes = kind == PawnMove::Capture;
    if (rank_of(to) == 0 || rank_of(to) == 7) {
        for (PieceType p : PROMOTIONS) list.push({from, to, p, takes});
    } else {
        list.push({from, to, NO_PIECE_TYPE, takes});
    }
}

// Every move; the exits: captures (en passant aside) and promotions; or the captures and every
// pawn move.
enum class Moves { All, Exits, CapturesAndPawnMoves };

template <Moves kind>
void generate_pseudo_legal(const Position& pos, MoveList& list) {
    const Color us = pos.side_to_move();
    const Bitboard own = pos.pieces(us), enemy = pos.pieces(~us), occupied = pos.occupied();
    const Bitboard destinations = kind == Moves::All ? ~own : enemy;
    constexpr bool every_pawn_move = kind != Moves::Exits;
    for (int type = KING; type < PAWN; ++type)
        for (Bitboard b = pos.pieces(us, PieceType(type)); b;) {
            const Square from = pop_lsb(b);
            for (Bitboard t = piece_attacks(PieceType(type), from, occupied) & destinations; t;) {
                const Square to = pop_lsb(t);
                list.push({from, to, NO_PIECE_TYPE, (enemy & square_bb(to)) != 0});
            }
        }
    const int push = pawn_push(us);
    for (Bitboard b = pos.pieces(us, PAWN); b;) {
        const Square from = pop_lsb(b);
        const Square one = from + push;
        const bool promotes = relative_rank(us, from) == 6;
        if (!(occupied & square_bb(one)) && (every_pawn_move || promotes)) {
            add_pawn_move(list, from, one, PawnMove::Push);
            const Square two = one + push;
            if (every_pawn_move && relative_rank(us, from) == 1 && !(occupied & square_bb(two)))
                list.push({from, two});
        }
        for (Bitboard t = pawn_attacks(us, from) & enemy; t;)
            add_pawn_move(list, from, pop_lsb(t), PawnMove::Capture);
        const Square ep = pos.ep_square();
        if (every_pawn_move && ep != NO_SQUARE && (pawn_attacks(us, from) & square_bb(ep)))
            list.push(en_passant(from, ep));
    }
}

// Our pieces that stand alone between our king and an enemy slider.
Bitboard pinned_pieces(const Position& pos, Color us, Square king) {
    const Color them = ~us;
    Bitboard snipers = (rook_rays(king) & (pos.pieces(them, ROOK) | pos.pieces(them, QUEEN))) |
                       (bishop_rays(king) & (pos.pieces(them, BISHOP) | pos.pieces(them, QUEEN)));
    Bitboard pinned = 0;
    while (snipers) {
        const Bitboard blockers = between(king, pop_lsb(snipers)) & pos.occupied();
        if (popcount(blockers) == 1) pinned |= blockers & pos.pieces(us);
    }
    return pinned;
}

// Squares the enemy attacks with our king lifted off the board: where our king may not go.
Bitboard king_danger(const Position& pos, Color us) {
    const Color them = ~us;
    const Bitboard occupied = pos.occupied() ^ square_bb(pos.king(us));
    Bitboard danger = king_attacks(pos.king(them));
    for (Bitboard b = pos.pieces(them, PAWN); b;) danger |= pawn_attacks(them, pop_lsb(b));
    for (int t = QUEEN; t < PAWN; ++t)
        for (Bitboard b = pos.pieces(them, PieceType(t)); b;)
            danger |= piece_attacks(PieceType(t), pop_lsb(b), occupied);
    return danger;
}

// Drops the moves from list.moves[first] on that leave the mover's king attacked.
void keep_legal(const Position& pos, MoveList& list, int first) {
    if (list.size == first) return;  // most positions have no capture: no need to look for pins
    const Color us = pos.side_to_move();
    const Square king = pos.king(us);
    const Bitboard danger = king_danger(pos, us);
    const Bitboard checkers = pos.attackers(king, ~us, pos.occupied());
    // Other men must capture or block a single checker; double check leaves king moves only.
    const Bitboard targets = !checkers                ? ~Bitboard(0)
                             : popcount(checkers) > 1 ? Bitboard(0)
                                                      : checkers | between(king, lsb(checkers));
    const Bitboard pinned = pinned_pieces(pos, us, king);
    int kept = first;
    for (int i = first; i < list.size; ++i) {
        const Move& m = list.moves[i];
        bool legal;
        if (m.from == king)
            legal = !(danger & square_bb(m.to));
        else if (m.en_passant || (pinned & square_bb(m.from)))
            legal = keeps_king_safe(pos, m);  // rare: test the position itself
        else
            legal = targets & square_bb(m.to);
        if (legal) list.moves[kept++] = m;
    }
    list.size = kept;
}

}  // namespace

void generate_legal_moves(const Position& pos, MoveList& list) {
    const int first = list.size;
    generate_pseudo_legal<Moves::All>(pos, list);
    keep_legal(pos, list, first);
}

void generate_legal_exits(const Position& pos, MoveList& list) {
    const int first = list.size;
    generate_pseudo_legal<Moves::Exits>(pos, list);
    keep_legal(pos, list, first);
}

void generate_legal_captures_and_pawn_moves(const Position& pos, MoveList& list) {
    const int first = list.size;
    generate_pseudo_legal<Moves::CapturesAndPawnMoves>(pos, list);
    keep_legal(pos, list, first);
}

// One loop per kind of man, as many in every entry of a table, so its branches are predicted; each
// side's attacked squares and checkers are written once.
BoardAttacks::BoardAttacks(const Position& pos) : occupied_(pos.occupied()) {
    for (Color c : {WHITE, BLACK}) {
        const Bitboard own = pos.pieces(c), their_king = pos.pieces(~c, KING);
        Bitboard attacked = 0, checkers = 0;
        const auto add = [&](Bitboard men, auto attacks_from) {
            while (men) {
                const Square s = pop_lsb(men);
                const Bitboard attacks = attacks_from(s);
                attacks_[s] = attacks;
                attacked |= attacks;
                checkers |= attacks & their_king ? square_bb(s) : 0;
            }
        };
        const Bitboard occupied = occupied_;
        add(own & pos.pieces(KING), king_attacks);
        add(own & pos.pieces(KNIGHT), knight_attacks);
        add(own & pos.pieces(ROOK), [occupied](Square s) { return rook_attacks(s, occupied); });
        add(own & pos.pieces(BISHOP), [occupied](Square s) { return bishop_attacks(s, occupied); });
        add(own & pos.pieces(QUEEN), [occupied](Square s) { return queen_attacks(s, occupied); });
        add(own & pos.pieces(PAWN), [c](Square s) { return pawn_attacks(c, s); });
        attacked_[c] = attacked;
        checkers_[~c] = checkers;
    }
    for (Bitboard b = slider_men(pos); b;) slider_reach_ |= attacks_[pop_lsb(b)];
}

Bitboard attacks_by(const Position& pos, Color c) {
    const Bitboard occupied = pos.occupied();
    Bitboard attacked = 0;
    for (Bitboard b = pos.pieces(c); b;) {
        const Square s = pop_lsb(b);
        const PieceType t = pos.type_on(s);
        attacked |= t == PAWN ? pawn_attacks(c, s) : piece_attacks(t, s, occupied);
    }
    return attacked;
}

void BoardAttacks::place_added(const Position& pos, const BoardAttacks& without, Piece added, Square square) {
    assert(pos.occupied() == (without.occupied_ | square_bb(square)) &&
           !(without.occupied_ & square_bb(square)));
    for (Bitboard b = cut_; b;) {
        const Square s = pop_lsb(b);
        attacks_[s] = without.attacks_[s];
    }
    occupied_ = pos.occupied();
    // The sliders whose lines reach the square stop at the added man now.
    Bitboard cut = 0;
    if (without.slider_reach_ & square_bb(square))
        for (Bitboard b = without.occupied_ & slider_men(pos); b;) {
            const Square s = pop_lsb(b);
            cut |= without.attacks_[s] & square_bb(square) ? square_bb(s) : 0;
        }
    cut_ = cut;
    for (Bitboard b = cut; b;) {
        const Square s = pop_lsb(b);
        attacks_[s] = piece_attacks(pos.type_on(s), s, occupied_);
    }
    const Bitboard own =
        added.type == PAWN ? pawn_attacks(added.color, square) : piece_attacks(added.type, square, occupied_);
    attacks_[square] = own;
    if (cut_) {
        gather(pos);
        return;
    }
    attacked_ = without.attacked_;
    checkers_ = without.checkers_;
    attacked_[added.color] |= own;
    checkers_[~added.color] |= own & pos.pieces(~added.color, KING) ? square_bb(square) : 0;
}

void BoardAttacks::gather(const Position& pos) {
    for (Color c : {WHITE, BLACK}) {
        const Bitboard their_king = pos.pieces(~c, KING);
        Bitboard attacked = 0, checkers = 0;
        for (Bitboard b = pos.pieces(c); b;) {
            const Square s = pop_lsb(b);
            attacked |= attacks_[s];
            checkers |= attacks_[s] & their_king ? square_bb(s) : 0;
        }
        attacked_[c] = attacked;
        checkers_[~c] = checkers;
    }
}

Bitboard BoardAttacks::king_danger(const Position& pos, Color c) const {
    // A slider's attacks change with the king lifted only when they reach the king.
    const Bitboard sliders = checkers_[~c], lifted = occupied_ ^ pos.pieces(~c, KING);
    Bitboard danger = attacked_[c];
    for (Bitboard b = sliders & (pos.pieces(ROOK) | pos.pieces(QUEEN)); b;)
        danger |= rook_attacks(pop_lsb(b), lifted);
    for (Bitboard b = sliders & (pos.pieces(BISHOP) | pos.pieces(QUEEN)); b;)
        danger |= bishop_attacks(pop_lsb(b), lifted);
    return danger;
}

bool summarize_legal_moves(const Position& pos, const BoardAttacks& attacks, MoveSummary& s) {
    const Color us = pos.side_to_move(), them = ~us;
    const Square king = pos.king(us);
    const Bitboard occupied = pos.occupied(), own = pos.pieces(us), enemy = pos.pieces(them);
    if (pos.ep_square() != NO_SQUARE) return false;
    const Bitboard pinned = pinned_pieces(pos, us, king);
    if (pinned & pos.pieces(us, PAWN)) return false;
    // In check, the other men must take a lone checker or block it; a double check leaves the king
    // alone. A pinned man never can: its line and the checker's meet only on the king.
    const Bitboard checkers = attacks.checkers(us);
    const Bitboard evasions = !checkers                ? ~Bitboard(0)
                              : popcount(checkers) > 1 ? Bitboard(0)
                                                       : checkers | between(king, lsb(checkers));
    for (Bitboard b = own & ~pos.pieces(KING) & ~pos.pieces(PAWN); b;) {
        const Square from = pop_lsb(b);
        Bitboard targets = attacks.of(from) & ~own & evasions;
        if (pinned & square_bb(from)) targets &= line_through(king, from);  // stays on the pin line
        s.add_piece_targets(from, targets & ~enemy);
        for (Bitboard t = targets & enemy; t;) s.exits.push(capture(from, pop_lsb(t)));
    }
    const Bitboard king_targets = attacks.of(king) & ~own & ~attacks.king_danger(pos, them);
    s.king_targets = king_targets & ~enemy;
    for (Bitboard t = king_targets & enemy; t;) s.exits.push(capture(king, pop_lsb(t)));
    const int push = pawn_push(us);
    for (Bitboard b = pos.pieces(us, PAWN); b;) {
        const Square from = pop_lsb(b);
        const bool promotes = relative_rank(us, from) == 6;
        if (!(occupied & square_bb(from + push))) {
            if (evasions & square_bb(from + push)) {
                if (promotes)
                    add_pawn_move(s.exits, from, from + push, PawnMove::Push);
                else
                    s.exits.push({from, from + push});
            }
            if (relative_rank(us, from) == 1 && !(occupied & square_bb(from + 2 * push)) &&
                (evasions & square_bb(from + 2 * push)))
                s.exits.push({from, from + 2 * push});
        }
        for (Bitboard t = pawn_attacks(us, from) & enemy & evasions; t;)
            add_pawn_move(s.exits, from, pop_lsb(t), PawnMove::Capture);
    }
    return true;
}

void list_legal_moves(const Position& pos, MoveSummary& s) {
    MoveList all;
    generate_legal_moves(pos, all);
    const Color us = pos.side_to_move();
    const Square king = pos.king(us);
    Bitboard targets[64] = {};  // of each piece's quiet moves, by its square
    for (const Move& m : all) {
        if (captures_or_moves_pawn(pos, m))
            s.exits.push(m);
        else if (m.from == king)
            s.king_targets |= square_bb(m.to);
        else
            targets[m.from] |= square_bb(m.to);
    }
    for (Bitboard b = pos.pieces(us) & ~pos.pieces(KING) & ~pos.pieces(PAWN); b;) {
        const Square from = pop_lsb(b);
        s.add_piece_targets(from, targets[from]);
    }
}

bool has_legal_ep_capture(const Position& pos) {
    const Square ep = pos.ep_square();
    if (ep == NO_SQUARE) return false;
    const Color us = pos.side_to_move();
    for (Bitboard b = pawn_attacks(~us, ep) & pos.pieces(us, PAWN); b;)
        if (keeps_king_safe(pos, en_passant(pop_lsb(b), ep))) return true;
    return false;
}

bool has_legal_move(const Position& pos) {
    MoveList pseudo;
    generate_pseudo_legal<Moves::All>(pos, pseudo);
    for (const Move& m : pseudo)
        if (keeps_king_safe(pos, m)) return true;
    return false;
}

}  // namespace retro
