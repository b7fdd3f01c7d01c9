// The writer's survey found by the solver as it sweeps (SolveOptions::survey_exits): the legal entries
// and those a capture or promotion settles must be exactly what the search after the solve finds
// (solve/exit_settled.hpp), or a file would store a worse value where no exit restores it.
#include <gtest/gtest.h>

#include <atomic>

#include "jobs/log.hpp"
#include "solve/exit_settled.hpp"
#include "support/solved_tables.hpp"
#include "support/store_test_util.hpp"

namespace retro {

namespace {

using store_test::ScratchDir;

// The survey the solve found against the search's after it: the legal and settled entries, and the
// counts of their values.
void expect_the_searchs_survey(const SolvedTable& solved, const Tablebase& tables,
                               const std::string& material) {
    ASSERT_TRUE(solved.whole);
    ASSERT_TRUE(solved.survey);
    EXPECT_TRUE(*solved.whole == *tables.find(Material::parse(material)));
    const WriteSurvey searched = exit_settled(*solved.whole, tables);
    for (Color side : {WHITE, BLACK}) {
        EXPECT_EQ(solved.survey->legal.words[side], searched.legal.words[side]) << material << " legal";
        EXPECT_EQ(solved.survey->settled.words[side], searched.settled.words[side]) << material << " settled";
        EXPECT_EQ(solved.survey->counts[side], searched.counts[side]) << material << " counts";
    }
}

void expect_survey_of_the_search(const std::string& material, SolveOptions options = {}) {
    const Tablebase& tables = test::solved_tables({material});
    options.survey_exits = true;
    expect_the_searchs_survey(solve_table(Material::parse(material), tables, options), tables, material);
}

// `material` solved with a checkpoint in `dir` and its survey asked for, stopped at the first
// progress line that starts with `line`, and resumed.
SolvedTable resumed_after_a_stop(const std::string& material, const std::string& line,
                                 const std::filesystem::path& dir) {
    const Material m = Material::parse(material);
    const Tablebase& tables = test::solved_tables({material});
    std::atomic<bool> stop{false};
    bool stopped = false;
    LineStream progress([&](const std::string& said) {
        if (!stopped && said.starts_with(line)) stop = stopped = true;
    });
    SolveOptions options;
    options.control.lines = &progress;
    options.checkpoint = dir / (material + ".checkpoint");
    options.control.stop = &stop;
    options.survey_exits = true;
    EXPECT_THROW(solve_table(m, tables, options), Stopped);
    EXPECT_TRUE(stopped) << "no line " << line;
    stop = false;
    return solve_table(m, tables, options);
}

// A window of 3 plies (far codes, whose distances are derived again from the exits) as well as the
// widest one.
SolveOptions narrow_window() {
    SolveOptions narrow;
    narrow.window = 3;
    return narrow;
}

}  // namespace

// Captures into KQvK and KRvK: win bounds, losses through captures, quiet moves that win quicker.
TEST(SolverSurvey, PawnlessCaptures) {
    expect_survey_of_the_search("KQvKR");
    expect_survey_of_the_search("KQvKR", narrow_window());
}
TEST(SolverSurvey, PawnlessDrawsKeptByCaptures) { expect_survey_of_the_search("KRvKB"); }

// Pawn tables, slice by slice: pushes leave the slice but not the table, so they settle nothing;
// promotions do, also those that capture; en passant is no exit of a file.
TEST(SolverSurvey, KRvKP) { expect_survey_of_the_search("KRvKP"); }
TEST(SolverSurvey, KPvKP) {
    expect_survey_of_the_search("KPvKP");
    expect_survey_of_the_search("KPvKP", narrow_window());
}
TEST(SolverSurvey, KNvKP) { expect_survey_of_the_search("KNvKP"); }
TEST(SolverSurvey, KPPvK) { expect_survey_of_the_search("KPPvK"); }

// With a checkpoint the slices go through the store and the whole table is read back from it.
TEST(SolverSurvey, PawnTableThroughItsSliceStore) {
    ScratchDir dir("solver-survey-store");
    SolveOptions options;
    options.checkpoint = dir.path / "KRPvK.checkpoint";
    expect_survey_of_the_search("KRPvK", options);
}

// The slice store keeps the surveys of the slices solved: a pawn table resumed between two slices
// merges theirs with those of the slices after them, and has the whole table's.
TEST(SolverSurvey, PawnTableResumedBetweenSlices) {
    ScratchDir dir("solver-survey-resumed-slices");
    expect_the_searchs_survey(resumed_after_a_stop("KRPvK", "KRPvK slice 8 of ", dir.path),
                              test::solved_tables({"KRPvK"}), "KRPvK");
}

// A checkpoint keeps no survey: a resumed solve has none, and its writer searches the exits.
TEST(SolverSurvey, NoneAfterAResume) {
    ScratchDir dir("solver-survey-resume");
    const SolvedTable resumed = resumed_after_a_stop("KQvKR", "KQvKR: lost in 8:", dir.path);
    EXPECT_TRUE(*resumed.whole == *test::solved_tables({"KQvKR"}).find(Material::parse("KQvKR")));
    EXPECT_FALSE(resumed.survey);
}

}  // namespace retro
