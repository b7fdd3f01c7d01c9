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

namespace {

// Entries `from` and from + 1..80: step_fastest_man places what decode reads when the two differ in
// the last digit that varies alone, and declines (the placement untouched) otherwise. Returns the
// steps taken.
int compare_steps(const IndexScheme& scheme, int samples) {
    uint64_t last_radix = 1;  // of the last digit that varies (a slice's pawns are fixed: radix 1)
    for (uint64_t r : scheme.digit_radices())
        if (r > 1) last_radix = r;
    std::mt19937_64 rng(7);
    int stepped = 0;
    for (int k = 0; k < samples; ++k) {
        const uint64_t from = rng() % scheme.size(), to = from + 1 + rng() % 80;
        Placement p, expected;
        if (to >= scheme.size() || !scheme.decode(from, p) || !scheme.decode(to, expected)) continue;
        const Placement before = p;
        const int slot = scheme.step_fastest_man(from, to, p);
        if (from / last_radix == to / last_radix) {
            EXPECT_GE(slot, 2) << from << " to " << to;
            if (slot >= 2) {
                EXPECT_NE(before.square[size_t(slot)], expected.square[size_t(slot)]);
            }
            EXPECT_EQ(p.square, expected.square) << from << " to " << to;
            ++stepped;
        } else {
            EXPECT_EQ(slot, -1) << from << " to " << to;
            EXPECT_EQ(p.square, before.square) << from << " to " << to;
        }
    }
    return stepped;
}

}  // namespace

TEST(IndexScheme, StepsTheFastestLoneManAsDecodeReads) {
    EXPECT_GT(compare_steps(IndexScheme(Material::parse("KRBvKR")), 4000), 1000);
    EXPECT_GT(compare_steps(IndexScheme(Material::parse("KRPvKR")), 4000), 1000);
    // A slice fixes its pawns: the black rook's digit is still the fastest.
    const PawnConfig slice{{square_bb(make_square(1, 1)), 0}};
    EXPECT_GT(compare_steps(IndexScheme(Material::parse("KRPvKR"), slice), 4000), 1000);
}

TEST(IndexScheme, StepsNoGroupOfSeveralMen) {
    const IndexScheme scheme(Material::parse("KRvKNN"));  // the knights' pair changes fastest
    Placement p;
    ASSERT_TRUE(scheme.decode(123456, p));
    const Placement before = p;
    EXPECT_EQ(scheme.step_fastest_man(123456, 123457, p), -1);
    EXPECT_EQ(p.square, before.square);
}

namespace {

struct Declined {
    int entries = 0, men = 0;
};

// linear_in against encode, for each lone piece of random entries on every square left free; how
// many entries it saw and for how many men of them it declined.
Declined compare_linear(const IndexScheme& scheme, int samples) {
    std::mt19937_64 rng(7);
    Declined declined;
    for (int n = 0; n < samples; ++n) {
        Placement p;
        if (!scheme.decode(rng() % scheme.size(), p)) continue;
        ++declined.entries;
        for (int slot = 0; slot < scheme.men(); ++slot) {
            const auto linear = scheme.linear_in(p, slot);
            if (!linear) {
                ++declined.men;
                continue;
            }
            Bitboard others = 0;
            for (int s = 0; s < scheme.men(); ++s)
                if (s != slot) others |= square_bb(p.square[s]);
            for (Bitboard free = ~others; free;) {
                Placement moved = p;
                moved.square[slot] = pop_lsb(free);
                EXPECT_EQ(linear->at(moved.square[slot]), scheme.encode(moved)) << slot;
            }
        }
    }
    return declined;
}

}  // namespace

TEST(IndexScheme, IndexIsLinearInALonePieceOffTheDiagonal) {
    // The kings and the like rooks are declined, and the bishop and the knight with the kings on
    // the diagonal (a few entries in a hundred).
    const Declined pawnless = compare_linear(IndexScheme(Material::parse("KRRvKBN")), 300);
    EXPECT_GT(pawnless.entries, 250);
    EXPECT_GE(pawnless.men, 4 * pawnless.entries);
    EXPECT_LT(pawnless.men, 4 * pawnless.entries + 2 * pawnless.entries / 10);
    // The kings and the pawn are declined; the mirror orients the rooks.
    const Declined pawns = compare_linear(IndexScheme(Material::parse("KRPvKR")), 300);
    EXPECT_EQ(pawns.men, 3 * pawns.entries);
    // Every man of a slice is declined: its pawns' image follows the kings.
    const IndexScheme slice(Material::parse("KRPvKR"), PawnConfig{{square_bb(make_square(1, 1)), 0}});
    const Declined sliced = compare_linear(slice, 50);
    EXPECT_EQ(sliced.men, 5 * sliced.entries);
}
