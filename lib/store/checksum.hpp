// A fast 64-bit checksum for files the project writes (tables, checkpoints).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace retro {

// FNV-1a folded over 8-byte words; pass the previous result as `h` to continue a running sum.
inline uint64_t checksum64(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ULL) {
    const auto* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
    }
    for (; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

}  // namespace retro
