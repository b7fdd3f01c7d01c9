// The scans for one or two codes against a byte-by-byte search: the bytes that match, and the
// entries visited in order over unaligned ranges.
#include "solve/code_scan.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace retro;

namespace {

// Bytes that the word tricks could mistake for a match: a's and b's neighbours and bits flipped.
state::Code tricky_byte(std::mt19937_64& rng, state::Code a, state::Code b) {
    const state::Code near[] = {a,
                                b,
                                state::Code(a ^ 1),
                                state::Code(a + 1),
                                state::Code(a - 1),
                                state::Code(b ^ 0x80),
                                0,
                                0x80,
                                0xff,
                                0x7f,
                                state::Code(rng())};
    return near[rng() % std::size(near)];
}

}  // namespace

TEST(CodeScan, ByteMatchesMarksExactlyTheBytesEqualToEitherCode) {
    std::mt19937_64 rng(71);
    for (int trial = 0; trial < 200000; ++trial) {
        const state::Code a = state::Code(rng()), b = trial % 3 ? state::Code(rng()) : a;
        state::Code bytes[8];
        unsigned expected = 0;
        for (int k = 0; k < 8; ++k) {
            bytes[k] = tricky_byte(rng, a, b);
            expected |= unsigned(bytes[k] == a || bytes[k] == b) << k;
        }
        ASSERT_EQ(byte_matches(bytes, a, b), expected) << "trial " << trial;
        ASSERT_EQ(has_byte(bytes, a, b), expected != 0) << "trial " << trial;
    }
}

TEST(CodeScan, ForEachCodeVisitsEveryMatchInOrder) {
    std::mt19937_64 rng(2026);
    for (int trial = 0; trial < 300; ++trial) {
        const state::Code a = state::Code(rng()), b = state::Code(rng());
        EntryBytes codes(1 + rng() % 1000);
        const int density = 1 + int(rng() % 200);  // one byte in `density` drawn near the codes
        for (auto& c : codes) c = rng() % density ? state::Code(rng()) : tricky_byte(rng, a, b);
        const uint64_t begin = rng() % codes.size(), end = begin + rng() % (codes.size() - begin + 1);
        std::vector<uint64_t> expected, visited;
        for (uint64_t i = begin; i < end; ++i)
            if (codes[i] == a || codes[i] == b) expected.push_back(i);
        for_each_code(codes, begin, end, a, b, [&](uint64_t i) { visited.push_back(i); });
        ASSERT_EQ(visited, expected) << "trial " << trial << ", [" << begin << ", " << end << ")";
    }
}
