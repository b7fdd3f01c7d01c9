#include "solve/exits.hpp"

#include <cassert>
#include <cstdlib>
#include <map>

#include "chess/movegen.hpp"
#include "index/dependencies.hpp"
#include "solve/solver.hpp"

namespace retro {

ExitProbe::ExitProbe(const IndexScheme& scheme, const SubtableSource& tables, PushTargets pushes,
                     PromotionTargets promotions, SideSet movers)
    : scheme_(scheme), movers_(movers), pushes_(std::move(pushes)), promotions_(std::move(promotions)) {
    const Material& m = scheme.material();
    std::map<Material, SideSet> sides_reached;
    for (const auto& [sub, sides] : direct_subtable_sides(m, movers)) sides_reached[sub] = sides;
    for (Color side : {WHITE, BLACK}) {
        if (!(movers & side_bit(side))) continue;
        for (int victim = QUEEN; victim <= NONE; ++victim)
            for (int promotion : {int(QUEEN), int(ROOK), int(BISHOP), int(KNIGHT), NONE}) {
                Route& route = routes_[size_t(key(side, victim, promotion))];
                if (victim == NONE && promotion == NONE) continue;  // a push: pushed_value()
                if (victim != NONE && !m.count(~side, PieceType(victim))) continue;
                if (promotion != NONE && (!m.count(side, PAWN) || victim == PAWN)) continue;
                if (promotion != NONE && victim == NONE && promotions_.in_part) {
                    route.in_part = true;
                    continue;
                }
                Material sub = m;
                if (victim != NONE) sub = sub.without(~side, PieceType(victim));
                if (promotion != NONE) sub = sub.without(side, PAWN).with(side, PieceType(promotion));
                if (sub.total() == 2) continue;  // bare kings: a draw, no table
                // Only the sides to move the table's exits reach (mostly one) are read.
                auto table = tables.find(sub, sides_reached.at(sub.canonical()));
                if (!table)
                    throw SolveError(m.name() + " needs the table " + sub.canonical().name() +
                                     ", which is missing");
                route.table = table.get();
                route.flip = !(table->material() == sub);
                set_slots(route, table->scheme);
                keep_.push_back(std::move(table));
            }
    }
    set_push_routes();
}

void ExitProbe::set_slots(Route& route, const IndexScheme& scheme) {
    route.first_slot.fill(-1);
    for (int s = scheme.men(); s-- > 0;) {
        const Piece piece = scheme.piece_of_slot(s);
        route.first_slot[size_t(piece.color * PIECE_TYPE_COUNT + piece.type)] = int8_t(s);
    }
}

Dtm ExitProbe::value_after(const Position& pos, const Placement& p, const Move& m, uint64_t index) const {
    const Color side = pos.side_to_move();
    const Dtm reached = entry_value_after(p, side, m, index);
    if (captures_or_promotes(m) || pos.type_on(m.from) != PAWN || !is_double_push(m)) return reached;
    if (!pos.pieces(~side, PAWN)) return reached;  // no pawn to take en passant
    const Position next = make_move(pos, m);
    if (next.ep_square() == NO_SQUARE) return reached;
    // The entry reached is the position without the en passant right: the opponent's best other
    // move, if there is one (else its mate or stalemate is not theirs: they must capture).
    MoveList replies;
    generate_legal_moves(next, replies);
    const Placement after = scheme_.to_placement(next);
    Dtm best = 0;  // worse than any capture
    bool other_moves = false;
    for (const Move& r : replies) {
        if (!r.en_passant) {
            other_moves = true;
            continue;
        }
        const Dtm v = value_through(entry_value_after(after, ~side, r, NO_INDEX));
        if (better(v, best)) best = v;
    }
    return other_moves && better(reached, best) ? reached : best;
}

const ExitProbe::Route* ExitProbe::route_of(const Placement& p, Color side, const Move& m,
                                            Square& victim_square) const {
    assert(movers_ & side_bit(side));  // no route was set for the other side
    victim_square = m.en_passant ? m.to - pawn_push(side) : (m.capture ? m.to : NO_SQUARE);
    if (victim_square == NO_SQUARE && m.promotion == NO_PIECE_TYPE) return nullptr;  // a push
    int victim = NONE;
    for (int s = 0; s < scheme_.men(); ++s)
        if (p.square[s] == victim_square) victim = scheme_.piece_of_slot(s).type;
    assert(victim != NONE || m.promotion != NO_PIECE_TYPE);  // a capture takes a man
    return &routes_[size_t(key(side, victim, m.promotion == NO_PIECE_TYPE ? NONE : m.promotion))];
}

Placement ExitProbe::placement_reached(const Route& route, const Placement& p, const Move& m,
                                       Square victim_square, int track, int& tracked) const {
    Placement sub;
    auto next = route.first_slot;  // the next free slot of each (colour, type) in the table reached
    for (int s = 0; s < scheme_.men(); ++s) {
        Square sq = p.square[s];
        if (sq == victim_square) continue;
        Piece piece = scheme_.piece_of_slot(s);
        if (sq == m.from) {
            sq = m.to;
            if (m.promotion != NO_PIECE_TYPE) piece.type = m.promotion;
        }
        const Color color = route.flip ? ~piece.color : piece.color;
        const int slot = next[size_t(color * PIECE_TYPE_COUNT + piece.type)]++;
        if (s == track) tracked = slot;
        sub.square[size_t(slot)] = route.flip ? flip_rank(sq) : sq;
    }
    return sub;
}

std::pair<Color, uint64_t> ExitProbe::entry_reached(const Route& route, const Placement& p, Color side,
                                                    const Move& m, Square victim_square) const {
    int unused = -1;
    const Placement sub = placement_reached(route, p, m, victim_square, -1, unused);
    return {route.flip ? side : ~side, route.table->scheme.encode(sub)};
}

ExitProbe::RunExit ExitProbe::run_exit(const Placement& p, Color side, const Move& m, int slot) const {
    assert(captures_or_promotes(m) && !m.en_passant);
    Square victim_square;
    const Route* route = route_of(p, side, m, victim_square);
    assert(route);
    if (route->in_part) return {RunExit::Kind::Entry};
    if (!route->table) return {RunExit::Kind::Fixed};  // bare kings
    const Square moving = p.square[size_t(slot)];
    if (m.from == moving) {  // he captures: the same entry from any of his squares
        const auto [to_move, reached] = entry_reached(*route, p, side, m, victim_square);
        return {RunExit::Kind::Fixed, route->table->value(to_move, reached)};
    }
    // His square in the entry reached is his own, or the capturer's when he is taken.
    int tracked = -1;
    const int track = m.to == moving ? p.slot_of(m.from, scheme_.men()) : slot;
    const Placement sub = placement_reached(*route, p, m, victim_square, track, tracked);
    const auto linear = route->table->scheme.linear_in(sub, tracked);
    if (!linear) return {RunExit::Kind::Entry};
    return {RunExit::Kind::Linear, DTM_DRAW, route->table, route->flip ? side : ~side, route->flip, *linear};
}

Dtm ExitProbe::entry_value_after(const Placement& p, Color side, const Move& m, uint64_t index) const {
    Square victim_square;
    const Route* route = route_of(p, side, m, victim_square);
    if (!route) return pushed_value(side, m, index);
    if (route->in_part) return promoted_value(side, m, index);
    if (!route->table) return DTM_DRAW;  // bare kings
    const auto [to_move, reached] = entry_reached(*route, p, side, m, victim_square);
    return route->table->value(to_move, reached);
}

ExitProbe::Asked ExitProbe::ask(Color side, const Placement& p, const Move& m) const {
    Square victim_square;
    const Route* route = route_of(p, side, m, victim_square);
    if (!route || route->in_part || !route->table) return {nullptr, WHITE, 0};
    const auto [to_move, reached] = entry_reached(*route, p, side, m, victim_square);
    route->table->prefetch(to_move, reached);
    return {route->table, to_move, reached};
}

Dtm ExitProbe::promoted_value(Color side, const Move& m, uint64_t index) const {
    assert(index != NO_INDEX);
    // The arrays are by the pawn's square in the slice's first image.
    const Square from = scheme_.image_of_entry(index) == 0 ? m.from : apply_symmetry(MIRROR_FILE, m.from);
    const PromotedValues* values = promotions_.find(side, from, m.promotion);
    assert(values && "a promotion not read");
    if (!values) std::abort();
    return values->values->value(side, index);
}

std::pair<const Table*, uint64_t> ExitProbe::pushed_entry(const Move& m, uint64_t index) const {
    assert(index != NO_INDEX && scheme_.is_slice());
    const PushRoute& route = push_routes_[push_key(scheme_.image_of_entry(index), m.from, m.to)];
    assert(route.slice && "a push into a slice not read");
    if (!route.slice) std::abort();
    return {route.slice, route.slice->scheme.with_image(index, route.image)};
}

Dtm ExitProbe::pushed_value(Color side, const Move& m, uint64_t index) const {
    const auto [slice, reached] = pushed_entry(m, index);
    return slice->value(~side, reached);
}

ExitProbe::RunExit ExitProbe::run_push(const Position& pos, const Move& m, uint64_t index) const {
    assert(!captures_or_promotes(m) && pos.type_on(m.from) == PAWN);
    const Color side = pos.side_to_move();
    if (is_double_push(m) && pos.pieces(~side, PAWN)) return {RunExit::Kind::Entry};
    // Along the run the king pair and the image stand, so the entry reached moves with the pushing one.
    const auto [slice, reached] = pushed_entry(m, index);
    RunExit exit{RunExit::Kind::Step};
    exit.table = slice;
    exit.to_move = ~side;
    exit.step = reached - index;
    return exit;
}

void ExitProbe::set_push_routes() {
    if (!scheme_.is_slice()) return;
    const PawnConfig images[] = {scheme_.slice_config(), mirrored(scheme_.slice_config())};
    for (int image = 0; image < 2; ++image)
        for (Color c : {WHITE, BLACK})
            for (Bitboard b = images[image].pawns[c]; b;) {
                const Square from = pop_lsb(b);
                const int steps_allowed = relative_rank(c, from) == 1 ? 2 : 1;  // a double push from home
                for (int steps = 1; steps <= steps_allowed; ++steps) {
                    const int to = int(from) + steps * int(pawn_push(c));
                    PawnConfig pushed = images[image];
                    pushed.pawns[c] ^= square_bb(from) | square_bb(Square(to));
                    const PawnConfig name = canonical_mirror(pushed);
                    for (const auto& slice : pushes_)
                        if (slice->scheme.slice_config() == name)
                            push_routes_[push_key(image, from, Square(to))] = {slice.get(),
                                                                               pushed == name ? 0 : 1};
                }
            }
}

}  // namespace retro
