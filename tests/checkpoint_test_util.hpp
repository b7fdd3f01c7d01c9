// Damaging checkpoint files on purpose, for the tests of how they are refused.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace retro::test {

// The bytes of a checkpoint whose header claims `count` long values for White. The header's layout
// (lib/solve/checkpoint.cpp): magic 8, material 16, slice 4, begun 4, entries 8, next ply 4, max
// value 4, window 4, zero 4, log length 8, log checksum 8, table entries 8, then the long value
// counts of both sides.
inline std::string with_white_long_count(std::string checkpoint, uint64_t count) {
    constexpr size_t LONG_COUNTS_OFFSET = 8 + 16 + 4 + 4 + 8 + 4 + 4 + 4 + 4 + 8 + 8 + 8;
    std::memcpy(checkpoint.data() + LONG_COUNTS_OFFSET, &count, sizeof count);
    return checkpoint;
}

}  // namespace retro::test
