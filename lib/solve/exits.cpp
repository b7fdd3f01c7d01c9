#include "solve/exits.hpp"

#include <map>

#include "index/dependencies.hpp"
#include "solve/solver.hpp"

namespace retro {

ExitProbe::ExitProbe(const IndexScheme& scheme, const TableSource& tables) : scheme_(scheme) {
    const Material& m = scheme.material();
    std::map<Material, SideSet> sides_reached;
    for (const auto& [sub, sides] : direct_subtable_sides(m)) sides_reached[sub] = sides;
    for (Color side : {WHITE, BLACK})
        for (int victim = QUEEN; victim <= NONE; ++victim)
            for (int promotion : {int(QUEEN), int(ROOK), int(BISHOP), int(KNIGHT), NONE}) {
                if (victim == NONE && promotion == NONE) continue;
                if (victim != NONE && !m.count(~side, PieceType(victim))) continue;
                if (promotion != NONE && (!m.count(side, PAWN) || victim == PAWN)) continue;
                Material sub = m;
                if (victim != NONE) sub = sub.without(~side, PieceType(victim));
                if (promotion != NONE) sub = sub.without(side, PAWN).with(side, PieceType(promotion));
                Route& route = routes_[size_t(key(side, victim, promotion))];
                if (sub.total() == 2) continue;  // bare kings: a draw, no table
                // Only the sides to move the table's exits reach (mostly one) are read.
                auto table = tables.find(sub, sides_reached.at(sub.canonical()));
                if (!table)
                    throw SolveError(m.name() + " needs the table " + sub.canonical().name() +
                                     ", which is missing");
                route.table = table.get();
                route.flip = !(table->material() == sub);
                route.first_slot.fill(-1);
                for (int s = table->scheme.men(); s-- > 0;) {
                    const Piece piece = table->scheme.piece_of_slot(s);
                    route.first_slot[size_t(piece.color * PIECE_TYPE_COUNT + piece.type)] = int8_t(s);
                }
                keep_.push_back(std::move(table));
            }
}

Dtm ExitProbe::value_after(const Placement& p, Color side, const Move& m) const {
    const Square victim_square = m.en_passant ? m.to - pawn_push(side) : (m.capture ? m.to : NO_SQUARE);
    int victim = NONE;
    for (int s = 0; s < scheme_.men(); ++s)
        if (p.square[s] == victim_square) victim = scheme_.piece_of_slot(s).type;
    const Route& route =
        routes_[size_t(key(side, victim, m.promotion == NO_PIECE_TYPE ? NONE : m.promotion))];
    if (!route.table) return DTM_DRAW;
    Placement sub;
    auto next = route.first_slot;  // the next free sub-table slot of each (colour, type)
    for (int s = 0; s < scheme_.men(); ++s) {
        Square sq = p.square[s];
        if (sq == victim_square) continue;
        Piece piece = scheme_.piece_of_slot(s);
        if (sq == m.from) {
            sq = m.to;
            if (m.promotion != NO_PIECE_TYPE) piece.type = m.promotion;
        }
        const Color color = route.flip ? ~piece.color : piece.color;
        sub.square[size_t(next[size_t(color * PIECE_TYPE_COUNT + piece.type)]++)] =
            route.flip ? flip_rank(sq) : sq;
    }
    const Color to_move = route.flip ? side : ~side;
    return route.table->value(to_move, route.table->scheme.encode(sub));
}

}  // namespace retro
