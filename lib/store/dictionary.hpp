// A file's dictionaries (docs/format.md): each side's values by falling frequency, so that a value's
// code is its place in the list and the most common values take the smallest codes. The writer
// counts the values (or takes the counts of a survey), then builds them.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "index/legal_entries.hpp"
#include "store/dtm.hpp"
#include "store/format.hpp"
#include "store/table_values.hpp"

namespace retro {

// [side][value]: how many entries of each side to move hold each value (a Dtm, DTM_DRAW included).
using ValueCounts = std::array<std::vector<uint64_t>, 2>;

// Whether the entry at `at` of `side` to move, holding `value`, is a hole: an entry of no legal
// position for its side to move, which the reader never asks for. The solver leaves holes drawn, so
// only drawn entries need their placement decoded.
inline bool is_hole(const IndexScheme& scheme, Color side, Dtm value, const IndexCursor& at) {
    return value == DTM_DRAW &&
           (!at.valid() || !is_legal_entry(entry_position(scheme, at.placement(), side)));
}

// How many entries of each side hold each value, holes aside when `skip_holes`: pass 1 of a write
// without a survey, over chunks in the order the values read fastest.
ValueCounts count_values(const TableValues& values, bool skip_holes);

// Sets each side's dictionary and code width in `h` from `counts` (by Dtm; a WDL header's counts are
// summed by win/draw/loss first), codes at least `min_bits` wide (1, 2, 4, 8 or 16 bits, none for a
// single value), and the version 16-bit values need. An empty side keeps a single draw.
void set_dictionaries(format::Header& h, ValueCounts counts, int min_bits);

}  // namespace retro
