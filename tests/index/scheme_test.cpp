#include <gtest/gtest.h>

#include <random>

#include "index/index_scheme.hpp"
#include "support/oracle.hpp"

using namespace retro;

TEST(KingPairs, Counts) {
    EXPECT_EQ(pawnless_king_pairs().count, 462);
    EXPECT_EQ(pawn_king_pairs().count, 1806);
}

TEST(IndexScheme, Sizes) {
    EXPECT_EQ(IndexScheme(Material::parse("KQvK")).size(), 462u * 62);
    EXPECT_EQ(IndexScheme(Material::parse("KRRvK")).size(), 462u * 1891);
    EXPECT_EQ(IndexScheme(Material::parse("KPvK")).size(), 1806u * 48);
    EXPECT_EQ(IndexScheme(Material::parse("KRPvKR")).size(), 1806ull * 48 * 62 * 62);
}

namespace {

// Legal positions per side to move, each entry weighted by the board positions it stands for.
std::array<uint64_t, 2> count_legal(const Material& m) {
    const IndexScheme scheme(m);
    std::array<uint64_t, 2> counts{};
    Position pos;
    for (uint64_t i = 0; i < scheme.size(); ++i) {
        if (!scheme.decode(i, pos)) continue;
        EXPECT_EQ(scheme.encode(pos), i) << pos.fen();
        const int weight = scheme.weight(pos);
        for (Color c : {WHITE, BLACK}) {
            pos.set_side_to_move(c);
            if (pos.illegality().empty()) counts[c] += weight;
        }
    }
    return counts;
}

}  // namespace

TEST(IndexScheme, LegalCountsMatchOracle) {
    const auto rows = test::read_oracle("legal-counts.tsv");
    ASSERT_EQ(rows.size(), 35u);
    for (const auto& row : rows) {
        const auto counts = count_legal(Material::parse(row.at("material")));
        EXPECT_EQ(counts[WHITE], std::stoull(row.at("white_to_move"))) << row.at("material");
        EXPECT_EQ(counts[BLACK], std::stoull(row.at("black_to_move"))) << row.at("material");
    }
}
