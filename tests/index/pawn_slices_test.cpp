// Pawn slices: the configurations of a table's pawns, the size of a slice, and the slices one move
// away (pushes, en passant, captures, promotions) in their canonical orientation.
#include "index/pawn_slices.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "index/index_scheme.hpp"

using namespace retro;

namespace {

Bitboard squares(std::initializer_list<const char*> names) {
    Bitboard b = 0;
    for (const char* n : names) b |= square_bb(parse_square(n));
    return b;
}

PawnConfig config(std::initializer_list<const char*> white, std::initializer_list<const char*> black) {
    return PawnConfig{{squares(white), squares(black)}};
}

// "KPvKP w:a3 b:h5 to move b": the material, the squares of each colour's pawns and the sides to
// move entered; sorted, for comparison.
std::vector<std::string> names(const std::vector<SliceReached>& reached) {
    std::vector<std::string> out;
    for (const auto& r : reached) {
        std::string s = r.material.name();
        for (Color side : {WHITE, BLACK}) {
            s += side == WHITE ? " w:" : " b:";
            for (Bitboard b = r.config.pawns[side]; b;) s += square_name(pop_lsb(b));
        }
        s += std::string(" to move ") + (r.sides & side_bit(WHITE) ? "w" : "") +
             (r.sides & side_bit(BLACK) ? "b" : "");
        out.push_back(s);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST(PawnSlices, ConfigurationsAreMirrorPairsAndTheSlicesCoverTheIndex) {
    const Material kpk = Material::parse("KPvK");
    EXPECT_EQ(pawn_configs(kpk).size(), 24u);  // 48 squares, no pawn on its own mirror image
    EXPECT_EQ(slice_entries(kpk) * 24, IndexScheme(kpk).size());
    // Two pawns: pairs of distinct squares, the self-mirrored ones (a3 h3 ...) once.
    const Material kppk = Material::parse("KPPvK");
    EXPECT_EQ(pawn_configs(kppk).size(), (1128u + 24u) / 2);
    const Material kpkp = Material::parse("KPvKP");
    EXPECT_EQ(pawn_configs(kpkp).size(), 48u * 47 / 2);
    EXPECT_EQ(slice_entries(Material::parse("KQvKR")), IndexScheme(Material::parse("KQvKR")).size());
}

TEST(PawnSlices, APawnOnTheSeventhReachesTheFourPromotions) {
    EXPECT_EQ(names(slices_reached(Material::parse("KPvK"), config({"a7"}, {}))),
              (std::vector<std::string>{"KBvK w: b: to move b", "KNvK w: b: to move b",
                                        "KQvK w: b: to move b", "KRvK w: b: to move b"}));
}

TEST(PawnSlices, APawnOnItsFirstRankPushesOneOrTwo) {
    // h2 is the mirror image of a2: the slices reached are named by their smaller image.
    EXPECT_EQ(names(slices_reached(Material::parse("KPvK"), config({"h2"}, {}))),
              (std::vector<std::string>{"KPvK w:a3 b: to move b", "KPvK w:a4 b: to move b"}));
}

TEST(PawnSlices, EnPassantAndCapturesReachTheColourSwappedSubTable) {
    // White b2, Black a4 (on its fifth rank): b2-b4 allows a4xb3 en passant.
    std::vector<std::string> expected = {
        "KPvKP w:b3 b:a4 to move b",  // b2-b3
        "KPvKP w:b4 b:a4 to move b",  // b2-b4
        "KPvKP w:b2 b:a3 to move w",  // a4-a3
        "KPvK w:b2 b: to move b",     // White's king takes a4
        // Black's king takes b2: KvKP with White to move is KPvK upside down, Black to move.
        "KPvK w:a5 b: to move b",
        "KPvK w:b6 b: to move b",  // a4xb3 en passant: KvKP again, its pawn on b3
    };
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(names(slices_reached(Material::parse("KPvKP"), config({"b2"}, {"a4"}))), expected);
}

TEST(PawnSlices, TheLargestSliceOfKnnnvkpIsAPromotionOne) {
    const SlicePeak peak = slice_peak(Material::parse("KNNNvKP"));
    EXPECT_EQ(relative_rank(BLACK, lsb(peak.config.pawns[BLACK])), 6);  // about to promote
    EXPECT_EQ(peak.own_bytes, 2 * slice_entries(Material::parse("KNNNvKP")));
    // The four 6-man promotions are whole pawnless tables, one side each, and the larger part.
    uint64_t promotions = 0;
    for (const char* t : {"KNNNvKQ", "KNNNvKR", "KNNNvKB", "KNNNvKN"})
        promotions += IndexScheme(Material::parse(t).canonical()).size();
    EXPECT_GT(peak.pawnless_bytes, promotions);
    EXPECT_GT(peak.pawnless_bytes, peak.own_bytes + peak.pawn_slices_bytes);
}

TEST(PawnSlices, EveryPushReachesASliceListedEarlier) {
    for (const char* name : {"KPvK", "KPvKP", "KPPvK", "KPPvKP"}) {
        const Material m = Material::parse(name);
        const std::vector<PawnConfig> order = pawn_configs(m);
        std::map<PawnConfig, size_t> position;
        for (size_t k = 0; k < order.size(); ++k) position[order[k]] = k;
        EXPECT_EQ(relative_rank(WHITE, lsb(order.front().pawns[WHITE])), 6) << name;  // a pawn on the 7th
        int pushes = 0;
        for (size_t k = 0; k < order.size(); ++k)
            for (const SliceReached& r : slices_reached(m, order[k])) {
                if (r.material != m) continue;
                ASSERT_TRUE(position.count(r.config)) << name;
                EXPECT_LT(position[r.config], k) << name;
                ++pushes;
            }
        EXPECT_GT(pushes, int(order.size()) / 2) << name;
    }
}

// A wave (the slices of equal advance) goes in batches of at most WAVE_BATCH_PER_THREAD slices per
// thread, which together cover it in order and never reach into the next wave.
TEST(PawnSlices, WaveBatchesCoverEachWaveAndStayWithinIt) {
    const std::vector<PawnConfig> configs = pawn_configs(Material::parse("KPPvKP"));
    for (int threads : {1, 2, 8}) {
        const int most = WAVE_BATCH_PER_THREAD * threads;
        int largest_wave = 0, wave = 0;
        for (int k = 0; k < int(configs.size());) {
            const int end = wave_batch_end(configs, k, threads);
            ASSERT_GT(end, k);
            ASSERT_LE(end - k, most);
            for (int j = k; j < end; ++j)
                EXPECT_EQ(pawn_advance(configs[size_t(j)]), pawn_advance(configs[size_t(k)]));
            const bool wave_goes_on = end < int(configs.size()) &&
                                      pawn_advance(configs[size_t(end)]) == pawn_advance(configs[size_t(k)]);
            EXPECT_TRUE(!wave_goes_on || end - k == most) << "a batch ends early only where its wave does";
            wave += end - k;
            if (!wave_goes_on) largest_wave = std::max(largest_wave, std::exchange(wave, 0));
            k = end;
        }
        EXPECT_GT(largest_wave, most) << "KPPvKP's largest wave is split at " << threads << " threads";
    }
}

// At 2 threads no wave of a 5-man table with a piece beside two pawns (slices of 224 K entries) is
// split: a batch ends in a join (pawn_slices.hpp).
TEST(PawnSlices, NoWaveOfAPieceAndTwoPawnsIsSplitAtTwoThreads) {
    for (const char* name : {"KRPvKP", "KPPvKB", "KNPPvK"}) {
        const std::vector<PawnConfig> configs = pawn_configs(Material::parse(name));
        for (int k = 0; k < int(configs.size());) {
            const int end = wave_batch_end(configs, k, 2);
            EXPECT_TRUE(end == int(configs.size()) ||
                        pawn_advance(configs[size_t(end)]) != pawn_advance(configs[size_t(k)]))
                << name << ": the wave of slice " << k << " is split";
            k = end;
        }
    }
}
