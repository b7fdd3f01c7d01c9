// MenOnSquares, which tells from two digits whether a group of like men may stand on given squares,
// against the men that IndexScheme::decode places, on random entries of lone men, groups of 2 to 4,
// pawn tables' king pairs and a group too large to tell (always "may").
#include "index/men_on_squares.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using namespace retro;

namespace {

// The promotion squares of the a and b files and their images under the 8 symmetries.
constexpr Bitboard SQUARES = 0x4281000000008142ull;

// Checks `entries` random entries of `material`'s index for the group of the man in `slot`.
void expect_told_apart(const std::string& material, int slot, int entries = 20000) {
    const IndexScheme scheme(Material::parse(material));
    const MenOnSquares on(scheme, slot, SQUARES);
    const Piece piece = scheme.piece_of_slot(slot);
    const bool told = scheme.material().count(piece.color, piece.type) <= MenOnSquares::MAX_TOLD;
    const std::vector<uint64_t> radices = scheme.digit_radices();
    uint64_t stride = 1;  // of the group's digit
    for (size_t d = radices.size(); --d > on.digit();) stride *= radices[d];
    std::mt19937_64 random(17);
    int on_squares = 0, elsewhere = 0;
    for (int i = 0; i < entries; ++i) {
        const uint64_t idx = random() % scheme.size();
        Placement p;
        if (!scheme.decode(idx, p)) continue;
        bool stands = false;
        for (int s = 2; s < scheme.men(); ++s)
            stands |= scheme.piece_of_slot(s) == piece && (SQUARES & square_bb(p.square[s]));
        const uint64_t pair = idx / (scheme.size() / radices[0]), rank = idx / stride % radices[on.digit()];
        ++(stands ? on_squares : elsewhere);
        ASSERT_EQ(on.may_stand(pair, rank), stands || !told) << material << " entry " << idx;
    }
    EXPECT_GT(on_squares, entries / 50) << material;
    EXPECT_GT(elsewhere, entries / 50) << material;
}

}  // namespace

TEST(MenOnSquares, ALoneManIsToldByItsSquareAroundTheKings) {
    expect_told_apart("KQvKR", 2);
    expect_told_apart("KQvKR", 3);
    expect_told_apart("KQPvKR", 2);  // the 1806 king pairs of a pawn table
}

TEST(MenOnSquares, GroupsOfTwoToFourAreToldByTheirCombination) {
    expect_told_apart("KRRvKB", 2);
    expect_told_apart("KNNNvKB", 3);
    expect_told_apart("KNNNNvKB", 4);
}

TEST(MenOnSquares, LargerGroupsMayAlwaysStandThere) { expect_told_apart("KNNNNNvK", 2); }
