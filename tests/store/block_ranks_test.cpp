// Blocks ranked again (format version 6, store/block_ranks.hpp): the stored form round-trips at every
// code width, takes the narrowest width its distinct codes fit, and any form ranked_block could not
// have written is refused with CodecError.
#include "store/block_ranks.hpp"

#include <gtest/gtest.h>

#include <random>

#include "store/codec.hpp"
#include "store/packed_codes.hpp"

using namespace retro;

namespace {

// n codes of `bits` bits taking `distinct` values spread over the width (each at least once when n
// allows), most entries the first.
std::vector<uint8_t> packed_codes(uint32_t n, unsigned bits, unsigned distinct, unsigned seed) {
    std::mt19937 rng(seed);
    const unsigned top = bits ? (1u << bits) - 1 : 0, step = std::max(1u, top / distinct);
    std::vector<uint8_t> out(packed_bytes(n, bits), 0);
    for (uint32_t i = 0; bits && i < n; ++i) {
        const unsigned pick = i < distinct ? i : rng() % 4 ? 0 : rng() % distinct;
        put_code(out.data(), bits, i, top - pick * step);
    }
    return out;
}

std::vector<uint8_t> unranked(const std::vector<uint8_t>& stored, uint32_t n, unsigned bits) {
    std::vector<uint8_t> out(packed_bytes(n, bits) + 1, 0xAB);
    unranked_block(stored, n, bits, out.data());
    EXPECT_EQ(out.back(), 0xAB) << "wrote past the codes";
    out.pop_back();
    return out;
}

}  // namespace

TEST(StoreBlockRanks, RoundTripAtEveryWidthInTheNarrowestRankWidth) {
    struct Case {
        unsigned bits, distinct, rank_width;
    };
    for (const Case c : {Case{0, 1, 0}, Case{1, 2, 1}, Case{2, 1, 0}, Case{2, 3, 2}, Case{4, 3, 2},
                         Case{4, 9, 4}, Case{8, 1, 0}, Case{8, 2, 1}, Case{8, 4, 2}, Case{8, 16, 4},
                         Case{8, 17, 8}, Case{16, 5, 4}, Case{16, 200, 8}, Case{16, 300, 16}})
        for (uint32_t n : {1u, 7u, 1000u, 4096u}) {
            const auto codes = packed_codes(n, c.bits, std::min<unsigned>(c.distinct, n), n + c.bits);
            const auto stored = ranked_block(codes, n, c.bits);
            ASSERT_LE(stored.size(), ranked_block_capacity(n, c.bits));
            if (n >= c.distinct) {
                EXPECT_EQ(stored[0], c.rank_width) << c.bits << " bits, " << c.distinct << " codes";
                if (c.rank_width < c.bits) {  // width, count, codes, ranks
                    EXPECT_EQ(stored.size(),
                              2 + c.distinct * (c.bits == 16 ? 2 : 1) + packed_bytes(n, c.rank_width));
                }
            }
            EXPECT_EQ(unranked(stored, n, c.bits), codes)
                << c.bits << " bits, " << c.distinct << " codes, n " << n;
        }
}

TEST(StoreBlockRanks, RanksTheMostCommonCodeFirst) {
    std::vector<uint8_t> codes(1000, 7);  // 8-bit codes: 7 everywhere but three entries
    codes[10] = 3, codes[20] = 3, codes[30] = 200;
    const auto stored = ranked_block(codes, 1000, 8);
    ASSERT_EQ(stored.size(), 2 + 3 + 250u);
    EXPECT_EQ(stored[0], 2);  // three codes: 2-bit ranks
    EXPECT_EQ(stored[1], 2);  // k - 1
    EXPECT_EQ(std::vector<uint8_t>(stored.begin() + 2, stored.begin() + 5),
              (std::vector<uint8_t>{7, 3, 200}));
    EXPECT_EQ(stored[5], 0);                // entries 0-3: rank 0
    EXPECT_EQ(stored[5 + 10 / 4], 1 << 4);  // entry 10: rank 1, third in its byte
    EXPECT_EQ(stored[5 + 30 / 4], 2 << 4);  // entry 30: rank 2
}

TEST(StoreBlockRanks, FormsRankedBlockCouldNotHaveWrittenAreRefused) {
    const uint32_t n = 1000;
    std::vector<uint8_t> codes(n, 7);
    codes[10] = 3, codes[30] = 200;
    const auto good = ranked_block(codes, n, 8);  // width 2, k = 3
    ASSERT_EQ(good[0], 2);
    auto refused = [&](std::vector<uint8_t> bad, const std::string& what) {
        std::vector<uint8_t> out(n);
        try {
            unranked_block(bad, n, 8, out.data());
        } catch (const CodecError& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
            return;
        }
        ADD_FAILURE() << "accepted; expected: " << what;
    };
    refused({}, "empty");
    auto bad = good;
    bad[0] = 3;
    refused(bad, "bad rank width 3");
    bad[0] = 16;  // wider than the file's codes
    refused(bad, "bad rank width 16");
    bad = good;
    bad[1] = 4;  // five codes for 2-bit ranks
    refused(bad, "5 codes for ranks of 2 bits");
    bad = good;
    bad.pop_back();
    refused(bad, "bytes where");
    bad = good;
    bad.push_back(0);
    refused(bad, "bytes where");
    bad = good;
    bad[5] = 3;  // entry 0: rank 3, past the three codes
    refused(bad, "rank 3 past the block's 3 codes");
    bad = ranked_block(codes, n - 1, 8);  // 999 entries of 2 bits: the last byte has 2 bits of padding
    bad.back() |= 0x80;
    {
        std::vector<uint8_t> out(n);
        EXPECT_THROW(unranked_block(bad, n - 1, 8, out.data()), CodecError);
    }
    std::vector<uint8_t> narrow(packed_bytes(n, 4), 0);  // 4-bit codes whose block names code 20
    narrow[0] = 1;
    auto wide_code = ranked_block(narrow, n, 4);
    ASSERT_EQ(wide_code[0], 1);
    wide_code[3] = 20;
    std::vector<uint8_t> out(packed_bytes(n, 4));
    EXPECT_THROW(unranked_block(wide_code, n, 4, out.data()), CodecError);
    // The plain form is the width and the codes, exactly.
    std::vector<uint8_t> many(n);
    for (uint32_t i = 0; i < n; ++i) many[i] = uint8_t(i % 40);
    auto plain = ranked_block(many, n, 8);
    ASSERT_EQ(plain.size(), 1 + n);
    EXPECT_EQ(plain[0], 8);
    plain.pop_back();
    std::vector<uint8_t> out8(n);
    EXPECT_THROW(unranked_block(plain, n, 8, out8.data()), CodecError);
}
