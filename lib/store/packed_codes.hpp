// Codes packed at 0, 1, 2, 4, 8 or 16 bits each, entry i in bits [i b, (i + 1) b) least significant
// first (16-bit codes low byte first), as a file's unpacked blocks hold them (docs/format.md, Blocks).
#pragma once

#include <cstddef>
#include <cstdint>

namespace retro {

inline size_t packed_bytes(uint64_t n, unsigned bits) { return size_t((n * bits + 7) / 8); }

inline unsigned code_at(const uint8_t* codes, unsigned bits, uint64_t i) {
    switch (bits) {
        case 0:
            return 0;
        case 8:
            return codes[i];
        case 16:
            return unsigned(codes[2 * i]) | unsigned(codes[2 * i + 1]) << 8;
        default: {
            const uint64_t bit = i * bits;
            return (codes[bit >> 3] >> (bit & 7)) & ((1u << bits) - 1);
        }
    }
}

// Sets code i in zeroed bytes (the narrow widths OR their bits in).
inline void put_code(uint8_t* codes, unsigned bits, uint64_t i, unsigned code) {
    const uint64_t bit = i * bits;
    codes[bit >> 3] |= uint8_t(code << (bit & 7));
    if (bits == 16) codes[(bit >> 3) + 1] = uint8_t(code >> 8);
}

}  // namespace retro
