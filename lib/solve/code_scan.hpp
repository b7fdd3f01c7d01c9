// Scans of the state codes for the few entries that hold one or two codes: the layer sweeps look for
// a layer's pending code, the far-code scans for the far codes. Most entries hold other codes, so
// they are tested 64 at a time.
#pragma once

#include <cstdint>
#include <cstring>

#include "solve/entry_state.hpp"
#include "store/entry_bytes.hpp"

namespace retro {

// Whether one of the eight bytes at p equals a or b (the classic zero-byte test on p ^ a...a and
// p ^ b...b).
inline bool has_byte(const state::Code* p, state::Code a, state::Code b) {
    constexpr uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t w;
    std::memcpy(&w, p, 8);
    const uint64_t wa = w ^ (ones * a), wb = w ^ (ones * b);
    return (((wa - ones) & ~wa) | ((wb - ones) & ~wb)) & highs;
}

// Calls f(i), in order, for every i in [begin, end) whose code is a or b. Blocks of 64 codes are
// tested eight bytes at a time without a branch, and only a block that holds one is walked.
template <class F>
void for_each_code(const EntryBytes& codes, uint64_t begin, uint64_t end, state::Code a, state::Code b,
                   F&& f) {
    constexpr uint64_t BLOCK = 64;
    const state::Code* data = codes.data();
    uint64_t i = begin;
    for (; i + BLOCK <= end; i += BLOCK) {
        bool found = false;
        for (uint64_t w = 0; w < BLOCK; w += 8) found |= has_byte(data + i + w, a, b);
        if (!found) continue;
        for (uint64_t j = i; j < i + BLOCK; ++j)
            if (data[j] == a || data[j] == b) f(j);
    }
    for (; i < end; ++i)
        if (data[i] == a || data[i] == b) f(i);
}

}  // namespace retro
