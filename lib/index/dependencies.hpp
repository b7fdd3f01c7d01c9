// Which tables a table needs: every material one capture or promotion away, recursively.
#pragma once

#include <cstdint>
#include <vector>

#include "index/material.hpp"

namespace retro {

// Sides to move as a set: bit c for colour c.
using SideSet = uint8_t;
constexpr SideSet side_bit(Color c) { return SideSet(1u << c); }
constexpr SideSet BOTH_SIDES = 3;

struct SubtableSides {
    Material material;  // canonical
    SideSet sides;      // to move, in the canonical orientation
};

// The canonical materials reached from m by one capture, promotion or capturing promotion of a side
// in `movers` (bare kings excluded: they are a draw without a table), each with the sides to move
// those moves reach: a capture by White leaves Black to move, who is White in the sub-table's
// canonical orientation when its colours are swapped. Sorted by material.
std::vector<SubtableSides> direct_subtable_sides(const Material& m, SideSet movers = BOTH_SIDES);

// The materials of direct_subtable_sides(m).
std::vector<Material> direct_subtables(const Material& m);

// m and everything it needs, canonical, each once, every table after all the tables it needs.
std::vector<Material> build_order(const std::vector<Material>& targets);

}  // namespace retro
