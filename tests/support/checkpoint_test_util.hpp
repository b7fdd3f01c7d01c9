// Damaging checkpoint files on purpose, for the tests of how they are refused.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace retro::test {

// The bytes of a checkpoint whose header claims `count` entries per side for its state. The
// header's layout (lib/solve/checkpoint.cpp): magic 8, material 16, slice 4, begun 4, then the
// entries.
inline std::string with_state_entries(std::string checkpoint, uint64_t count) {
    constexpr size_t ENTRIES_OFFSET = 8 + 16 + 4 + 4;
    std::memcpy(checkpoint.data() + ENTRIES_OFFSET, &count, sizeof count);
    return checkpoint;
}

}  // namespace retro::test
