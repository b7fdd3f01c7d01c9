// Scans of the state codes for the few entries that hold one or two codes: the layer sweeps look for
// a layer's pending code, the far-code scans for the far codes. Most entries hold other codes, so
// they are tested 64 at a time.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "solve/entry_state.hpp"
#include "store/entry_bytes.hpp"

namespace retro {

// Whether one of the eight bytes at p equals a or b (the classic zero-byte test on p ^ a...a and
// p ^ b...b: exact for the word, though not for which byte).
inline bool has_byte(const state::Code* p, state::Code a, state::Code b) {
    constexpr uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t w;
    std::memcpy(&w, p, 8);
    const uint64_t wa = w ^ (ones * a), wb = w ^ (ones * b);
    return (((wa - ones) & ~wa) | ((wb - ones) & ~wb)) & highs;
}

// The bytes among the eight at p that equal a or b, as bits 0-7. A byte's high bit is set exactly
// when it is zero (no borrow crosses bytes in this test), and the multiply gathers the eight high
// bits into the top byte without carries (bit 8k lands alone on bit 56 + k).
inline unsigned byte_matches(const state::Code* p, state::Code a, state::Code b) {
    constexpr uint64_t ones = 0x0101010101010101ULL, low7 = 0x7f7f7f7f7f7f7f7fULL;
    uint64_t w;
    std::memcpy(&w, p, 8);
    const auto zero_bytes = [](uint64_t x) { return ~(((x & low7) + low7) | x | low7); };
    const uint64_t high_bits = zero_bytes(w ^ (ones * a)) | zero_bytes(w ^ (ones * b));
    return unsigned(((high_bits >> 7) * 0x0102040810204080ULL) >> 56);
}

// Calls f(i), in order, for every i in [begin, end) whose code is a or b. Blocks of 64 codes are
// tested eight bytes at a time without a branch, by has_byte, cheaper than byte_matches: most blocks
// hold neither code. Only a block that holds one is walked, by the bits of its matching bytes.
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
        uint64_t matches = 0;
        for (uint64_t w = 0; w < BLOCK; w += 8) matches |= uint64_t(byte_matches(data + i + w, a, b)) << w;
        for (; matches; matches &= matches - 1) f(i + uint64_t(std::countr_zero(matches)));
    }
    for (; i < end; ++i)
        if (data[i] == a || data[i] == b) f(i);
}

}  // namespace retro
