// Damaging checkpoint files on purpose, for the tests of how they are refused.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace retro::test {

// The bytes of a checkpoint whose header claims `edges` en passant edges for White. The header's
// layout (lib/solve/checkpoint.cpp): magic 8, material 16, entries 8, next ply 4, max value 4,
// window 4, zero 4, then the edge counts of both sides.
inline std::string with_white_edge_count(std::string checkpoint, uint64_t edges) {
    constexpr size_t EDGE_COUNTS_OFFSET = 8 + 16 + 8 + 4 + 4 + 4 + 4;
    std::memcpy(checkpoint.data() + EDGE_COUNTS_OFFSET, &edges, sizeof edges);
    return checkpoint;
}

}  // namespace retro::test
