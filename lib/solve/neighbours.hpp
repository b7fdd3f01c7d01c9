// The entries one un-move back from an entry within its scheme, as indices: its predecessors, which
// the layer sweeps visit.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>

#include "chess/unmovegen.hpp"
#include "solve/scheme_context.hpp"

namespace retro {

// Distinct neighbour indices of one entry. Moves that keep the orientation reach distinct indices;
// only a re-oriented one (a king move that needs a symmetry, or any move with both kings on the
// diagonal) may meet another move's index, so only those are checked against the rest.
struct IndexList {
    std::array<uint64_t, 256> items;
    int size = 0;
    int reoriented = 0;  // items[0, reoriented) came from re-oriented moves that later ones may meet
    void add(uint64_t x, bool was_reoriented) {
        if (was_reoriented) {
            for (int i = 0; i < size; ++i)
                if (items[i] == x) return;
            items[size++] = items[reoriented];
            items[reoriented++] = x;
        } else {
            for (int i = 0; i < reoriented; ++i)
                if (items[i] == x) return;
            items[size++] = x;
        }
    }
};

// The entries one move back within the scheme, into `out` (emptied first): each king's and piece's
// un-moves as one set of origins, stepped to indices together. A pawn's step back leaves the slice
// (the slice it reaches takes this one's values as exits).
inline void predecessors(const IndexScheme& scheme, const Entry& e, IndexList& out) {
    assert(e.pos.ep_square() == NO_SQUARE);  // an entry holds no en passant right
    const UnmoveOrigins origins(e.pos);
    const Color mover = ~e.pos.side_to_move();
    out.size = out.reoriented = 0;
    for (int slot = 0; slot < scheme.men(); ++slot) {
        const Piece man = scheme.piece_of_slot(slot);
        if (man.color != mover || man.type == PAWN) continue;
        const Bitboard from = origins.of_piece(man.type, e.placement.square[slot]);
        if (slot >= 2 && !e.diagonal && out.reoriented == 0) {
            // Nothing to compare against: appended through a local end, which stays in a register.
            uint64_t* end = out.items.data() + out.size;
            scheme.for_each_moved(e.index, e.placement, slot, from, [&](uint64_t i, bool) { *end++ = i; });
            out.size = int(end - out.items.data());
            continue;
        }
        scheme.for_each_moved(e.index, e.placement, slot, from,
                              [&](uint64_t i, bool reoriented) { out.add(i, reoriented); });
        // The pieces' moves keep the king pair: they may meet a king's re-oriented move only if it
        // returned to that pair.
        if (slot < 2 && !e.diagonal &&
            std::none_of(out.items.begin(), out.items.begin() + out.reoriented,
                         [&](uint64_t i) { return scheme.same_king_pair(i, e.index); }))
            out.reoriented = 0;
    }
}

}  // namespace retro
