// A pawn table in slices: the entries whose pawns stand on the same squares, up to the left-right
// mirror (a king move may mirror the whole board, so both images form one slice). Kings and pieces
// move within a slice; a pawn's push reaches another slice of the same table, and captures and
// promotions reach one slice of a sub-table, or a whole pawnless one. Solved from the most advanced
// pawns backwards, a slice needs in memory its own state and the slices it reaches, not the whole
// table and all its sub-tables. This file counts what that takes (docs/algorithm.md, "Pawn slices").
#pragma once

#include <cstdint>
#include <vector>

#include "index/dependencies.hpp"
#include "index/pawn_config.hpp"

namespace retro {

// A slice one move away: of `material` (canonical) with its pawns on `config` (in that orientation,
// canonical under the mirror; empty for a pawnless material, which is reached whole), entered with
// `sides` to move.
struct SliceReached {
    Material material;
    PawnConfig config;
    SideSet sides;
};

// Every configuration of m's pawns, each the smaller of itself and its mirror image, the most
// advanced first: a push reaches a configuration listed earlier, the order a solver by slices needs.
std::vector<PawnConfig> pawn_configs(const Material& m);

// Index entries per side to move of one slice of m (both mirror images: an upper bound), or of the
// whole table when m has no pawns.
uint64_t slice_entries(const Material& m);

// The slices that the moves of either side from slice c of m reach, each once, with the sides to
// move they are entered with: pushes (and the en passant captures a double push allows), captures,
// promotions.
std::vector<SliceReached> slices_reached(const Material& m, const PawnConfig& c);

// The slice of m that needs the most memory to be solved: a state byte per entry and side of its
// own, and a byte per entry of each side reached of the slices it reaches, those of pawnless
// sub-tables (promotions, or the capture of the last pawn) counted apart: they are whole tables.
struct SlicePeak {
    PawnConfig config;
    uint64_t own_bytes = 0;
    uint64_t pawn_slices_bytes = 0;
    uint64_t pawnless_bytes = 0;
    uint64_t total() const { return own_bytes + pawn_slices_bytes + pawnless_bytes; }
};
SlicePeak slice_peak(const Material& m);

}  // namespace retro
