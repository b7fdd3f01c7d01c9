// Scans of the state codes for the few entries that hold one or two codes: the layer sweeps look for
// a layer's pending code, the far-code scans for the far codes. Most entries hold other codes, so
// eight are tested at a time.
#pragma once

#include <cstdint>
#include <cstring>

#include "solve/entry_state.hpp"
#include "store/entry_bytes.hpp"

namespace retro {

// Whether one of the eight bytes at p equals n (the classic zero-byte test on p ^ n...n).
inline bool has_byte(const state::Code* p, state::Code n) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    w ^= 0x0101010101010101ULL * n;
    return ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL) != 0;
}

// Calls f(i) for every i in [begin, end) whose code is a or b.
template <class F>
void for_each_code(const EntryBytes& codes, uint64_t begin, uint64_t end, state::Code a, state::Code b,
                   F&& f) {
    for (uint64_t i = begin; i < end; ++i) {
        if (i % 8 == 0 && i + 8 <= end && !has_byte(codes.data() + i, a) && !has_byte(codes.data() + i, b)) {
            i += 7;
            continue;
        }
        if (codes[i] == a || codes[i] == b) f(i);
    }
}

}  // namespace retro
