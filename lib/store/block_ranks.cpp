#include "store/block_ranks.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <string>

#include "store/codec.hpp"
#include "store/packed_codes.hpp"

namespace retro {

namespace {

// The narrowest width that holds k distinct ranks.
unsigned width_for(size_t k) {
    unsigned w = 0;
    while ((size_t(1) << w) < k) w = w ? 2 * w : 1;
    return w;
}

unsigned code_bytes(unsigned bits) { return bits == 16 ? 2 : 1; }

// Byte codes from ranks of W bits, without a branch per entry (a cold probe decodes 2^17 of them);
// false when a rank is past the block's codes.
template <unsigned W>
bool expanded_to_bytes(const uint8_t* ranks, uint32_t n, const std::vector<unsigned>& codes, uint8_t* out) {
    constexpr unsigned PER_BYTE = 8 / W, MASK = (1u << W) - 1;
    std::array<uint8_t, 1u << W> code{};
    for (size_t r = 0; r < codes.size(); ++r) code[r] = uint8_t(codes[r]);
    bool past = false;
    for (uint32_t i = 0; i < n; ++i) {
        const unsigned r = (ranks[i / PER_BYTE] >> (i % PER_BYTE * W)) & MASK;
        past |= r >= codes.size();
        out[i] = code[r];
    }
    return !past;
}

bool expanded_to_bytes(const uint8_t* ranks, uint32_t n, unsigned w, const std::vector<unsigned>& code,
                       uint8_t* out) {
    switch (w) {
        case 0:
            std::memset(out, int(code[0]), n);
            return true;
        case 1:
            return expanded_to_bytes<1>(ranks, n, code, out);
        case 2:
            return expanded_to_bytes<2>(ranks, n, code, out);
        case 4:
            return expanded_to_bytes<4>(ranks, n, code, out);
    }
    return false;
}

// Any codes from ranks of any width, one at a time; throws at a rank past the block's codes.
void expand(const uint8_t* ranks, uint32_t n, unsigned w, unsigned bits, const std::vector<unsigned>& code,
            uint8_t* out) {
    const size_t k = code.size();
    for (uint32_t i = 0; i < n; ++i) {
        const unsigned r = code_at(ranks, w, i);
        if (r >= k)
            throw CodecError("ranked block: rank " + std::to_string(r) + " past the block's " +
                             std::to_string(k) + " codes");
        put_code(out, bits, i, code[r]);
    }
}

}  // namespace

size_t ranked_block_capacity(uint32_t n, unsigned bits) {
    // The plain form, or a ranked one: at most 256 codes (ranks narrower than 16 bits) and ranks of
    // at most half the width.
    return std::max(1 + packed_bytes(n, bits),
                    bits ? 2 + 256 * code_bytes(bits) + packed_bytes(n, bits / 2) : 0);
}

std::vector<uint8_t> ranked_block(std::span<const uint8_t> packed, uint32_t n, unsigned bits) {
    std::vector<uint32_t> count(size_t(1) << bits);
    for (uint32_t i = 0; i < n; ++i) ++count[code_at(packed.data(), bits, i)];
    const size_t k = size_t(std::count_if(count.begin(), count.end(), [](uint32_t c) { return c > 0; }));
    const unsigned w = width_for(k);
    if (w >= bits) {
        std::vector<uint8_t> out(1 + packed_bytes(n, bits));
        out[0] = uint8_t(bits);
        std::copy_n(packed.data(), out.size() - 1, out.data() + 1);
        return out;
    }
    std::vector<uint8_t> out{uint8_t(w)};
    std::vector<uint32_t> by_count(count.size());
    std::iota(by_count.begin(), by_count.end(), 0u);
    // Most common first, ties to the smaller code: LZMA's literal coder adapts fastest when the
    // common ranks share their top bits.
    std::stable_sort(by_count.begin(), by_count.end(),
                     [&](uint32_t a, uint32_t b) { return count[a] > count[b]; });
    std::vector<uint32_t> rank(count.size());
    out.push_back(uint8_t(std::max<size_t>(k, 1) - 1));
    for (size_t r = 0; r < std::max<size_t>(k, 1); ++r) {
        rank[by_count[r]] = uint32_t(r);
        for (unsigned byte = 0; byte < code_bytes(bits); ++byte)
            out.push_back(uint8_t(by_count[r] >> (8 * byte)));
    }
    const size_t head = out.size();
    out.resize(head + packed_bytes(n, w), 0);
    if (w > 0)
        for (uint32_t i = 0; i < n; ++i)
            put_code(out.data() + head, w, i, rank[code_at(packed.data(), bits, i)]);
    return out;
}

void unranked_block(std::span<const uint8_t> stored, uint32_t n, unsigned bits, uint8_t* out) {
    const auto fail = [](const std::string& what) { throw CodecError("ranked block: " + what); };
    if (stored.empty()) fail("empty");
    const unsigned w = stored[0];
    const size_t codes_bytes = packed_bytes(n, bits);
    if (w == bits) {
        if (stored.size() != 1 + codes_bytes)
            fail(std::to_string(stored.size()) + " bytes where " + std::to_string(1 + codes_bytes) +
                 " were due");
        if (codes_bytes) std::memcpy(out, stored.data() + 1, codes_bytes);  // out is null for 0 bits
        return;
    }
    if (w > bits || w != width_for(size_t(1) << w)) fail("bad rank width " + std::to_string(w));
    if (stored.size() < 2) fail("no dictionary");
    const size_t k = size_t(stored[1]) + 1, head = 2 + k * code_bytes(bits);
    if (k > (size_t(1) << w)) fail(std::to_string(k) + " codes for ranks of " + std::to_string(w) + " bits");
    if (stored.size() != head + packed_bytes(n, w))
        fail(std::to_string(stored.size()) + " bytes where " + std::to_string(head + packed_bytes(n, w)) +
             " were due");
    std::vector<unsigned> code(k);
    for (size_t r = 0; r < k; ++r)
        if ((code[r] = code_at(stored.data() + 2, 8 * code_bytes(bits), r)) >> bits)
            fail("code " + std::to_string(code[r]) + " wider than " + std::to_string(bits) + " bits");
    const uint8_t* ranks = stored.data() + head;
    if (!(bits == 8 && expanded_to_bytes(ranks, n, w, code, out))) {  // else the slow way, which says why
        std::memset(out, 0, codes_bytes);
        expand(ranks, n, w, bits, code, out);
    }
    const uint64_t used_bits = uint64_t(n) * w;
    if (used_bits % 8 && (ranks[used_bits / 8] >> (used_bits % 8))) fail("nonzero padding bits");
}

}  // namespace retro
