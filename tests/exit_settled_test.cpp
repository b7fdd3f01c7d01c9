// The search for the entries whose value an exit (a capture or a promotion) achieves: what it reports
// while it runs.
#include "solve/exit_settled.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "index/legal_entries.hpp"
#include "solved_tables.hpp"

namespace retro {

TEST(ExitSettled, ReportsItsProgressInOrderUpToEveryEntryOfBothSides) {
    const Tablebase& tables = test::solved_tables({"KQvKR"});
    const auto table = tables.find(Material::parse("KQvKR"));
    std::vector<uint64_t> done;
    uint64_t total = 0;
    const WriteSurvey reported =
        exit_settled(*table, tables, {.progress = [&](Control::Count, uint64_t d, uint64_t entries) {
            done.push_back(d);
            total = entries;
        }});
    EXPECT_EQ(total, 2 * table->size());
    ASSERT_GE(done.size(), 3u);  // some ranges on the way, then the end
    EXPECT_TRUE(std::is_sorted(done.begin(), done.end()));
    EXPECT_LT(done.front(), total);
    EXPECT_EQ(done.back(), total);
    const WriteSurvey quiet = exit_settled(*table, tables);  // reporting changes nothing
    EXPECT_EQ(reported.settled.words, quiet.settled.words);
    EXPECT_EQ(reported.legal.words, quiet.legal.words);
    EXPECT_EQ(reported.counts, quiet.counts);
}

TEST(ExitSettled, SurveysTheLegalEntriesAndCountsTheirValues) {
    // What the writer takes from the survey instead of testing entries itself: every legal entry, by
    // a decode of each index, and the values they hold; a settled entry is a legal one.
    const Tablebase& tables = test::solved_tables({"KRvKP"});
    const auto table = tables.find(Material::parse("KRvKP"));
    const WriteSurvey survey = exit_settled(*table, tables);
    for (Color side : {WHITE, BLACK}) {
        std::vector<uint64_t> counts(survey.counts[side].size());
        uint64_t legal = 0, settled = 0;
        Position pos;
        for (uint64_t i = 0; i < table->size(); ++i) {
            const bool is_legal = decode_legal(table->scheme, i, side, pos);
            ASSERT_EQ(survey.legal.test(side, i), is_legal) << "entry " << i;
            ASSERT_TRUE(is_legal || !survey.settled.test(side, i)) << "entry " << i;
            if (!is_legal) continue;
            ++legal, ++counts[table->value(side, i)];
            settled += survey.settled.test(side, i);
        }
        EXPECT_EQ(survey.counts[side], counts);
        EXPECT_GT(legal, table->size() / 2);
        EXPECT_GT(settled, 0u);  // KRvKP: rook takes pawn, pawn takes rook, promotions
        EXPECT_LT(settled, legal);
    }
}

}  // namespace retro
