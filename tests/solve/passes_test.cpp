// The passes of one scheme's solve, each run on its own over a small table and checked against the
// independent figures of tests/data/oracle (counted over the whole board: each entry weighted by the
// positions it stands for): the mates the first pass finds, the wins in 1 that the sweep of the
// mates offers (its updates collected first, then applied, as a solve over several processes would),
// and the longest mates and whole histograms the sweeps reach with a narrow window of plies.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <array>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "chess/movegen.hpp"
#include "index/legal_entries.hpp"
#include "parallel/parallel_for.hpp"
#include "probe/tablebase.hpp"
#include "solve/entry_exits.hpp"
#include "solve/far_codes.hpp"
#include "solve/final_values.hpp"
#include "solve/first_pass.hpp"
#include "solve/layer_sweep.hpp"
#include "solve/statistics.hpp"
#include "support/oracle.hpp"

using namespace retro;
using retro::test::read_oracle;

namespace {

// A scheme's solve from the start, without checkpoints or progress lines.
struct PassesOf {
    explicit PassesOf(const std::string& material, int window = state::WIDEST_WINDOW)
        : scheme(Material::parse(material)), exits(scheme, subtables), options(narrowed(window)) {}

    static SolveOptions narrowed(int window) {
        SolveOptions o;
        o.window = window;
        return o;
    }

    // The positions over the whole board of the legal entries of `side` whose code `wanted` accepts.
    template <class Wanted>
    uint64_t positions(const SchemeContext& c, Color side, Wanted&& wanted) const {
        uint64_t count = 0;
        for_each_legal_entry(scheme, side, 0, scheme.size(),
                             [&](uint64_t i, const Placement&, const Position& pos) {
                                 if (wanted(c.state.codes[side][i])) count += uint64_t(scheme.weight(pos));
                             });
        return count;
    }

    Tablebase subtables;  // a 3-man table's captures reach bare kings only
    IndexScheme scheme;
    ExitProbe exits;
    SolveOptions options;
    SchemeSetup setup{
        scheme, exits, options, scheme.material().name(), PlyLines::Omit, std::chrono::steady_clock::now(),
        {},     {}};
};

// The oracle's figure `column` of a 3-man material and side to move ("wtm", "btm").
uint64_t three_man(const std::string& material, const std::string& side, const std::string& column) {
    for (const auto& row : read_oracle("three-man.tsv"))
        if (row.at("material") == material && row.at("side_to_move") == side)
            return std::stoull(row.at(column));
    ADD_FAILURE() << material << " " << side << " missing from three-man.tsv";
    return 0;
}

// The oracle's count of positions at distance `key` ("win1", "loss0") of a 3-man material.
uint64_t histogram(const std::string& material, const std::string& side, const std::string& key) {
    for (const auto& row : read_oracle("three-man.tsv")) {
        if (row.at("material") != material || row.at("side_to_move") != side) continue;
        const std::string text = " " + row.at("histogram") + " ", item = " " + key + ":";
        const auto at = text.find(item);
        return at == std::string::npos ? 0 : std::stoull(text.substr(at + item.size()));
    }
    ADD_FAILURE() << material << " " << side << " missing from three-man.tsv";
    return 0;
}

}  // namespace

TEST(SolverPasses, FirstPassFindsTheMatesAndCountsTheOthersMoves) {
    PassesOf t("KQvK");
    SchemeContext c(t.setup, std::nullopt);
    first_pass(c);
    const state::Code mated = c.window.code(0);
    EXPECT_EQ(t.positions(c, BLACK, [&](state::Code code) { return code == mated; }),
              three_man("KQvK", "btm", "checkmated"));
    // White never mates in 0 plies and never leaves the table, and counts late: no legal entry has
    // its moves counted yet. Black's have them counted.
    EXPECT_EQ(t.positions(c, WHITE, [&](state::Code code) { return code == mated; }), 0u);
    EXPECT_EQ(t.positions(c, WHITE, [](state::Code code) { return code == state::UNCOUNTED; }),
              three_man("KQvK", "wtm", "legal"));
    EXPECT_EQ(t.positions(c, BLACK, [](state::Code code) { return code == state::UNCOUNTED; }), 0u);
    EXPECT_EQ(c.max_value.load(), 0);
    EXPECT_TRUE(c.pending.any(BLACK, mated));
    EXPECT_FALSE(c.pending.any(WHITE, mated));
}

// The first pass marks the entries with a move that leaves the scheme, which the count-downs ask
// for: in KQvK black's king capturing the queen, and nothing of white's.
TEST(SolverPasses, FirstPassMarksTheEntriesWithExits) {
    PassesOf t("KQvK");
    SchemeContext c(t.setup, std::nullopt);
    first_pass(c);
    std::array<uint64_t, 2> marked{};
    for (Color side : {WHITE, BLACK})
        for_each_legal_entry(t.scheme, side, 0, t.scheme.size(),
                             [&](uint64_t i, const Placement&, const Position& pos) {
                                 EXPECT_EQ(c.has_exits(side, i), leaving_moves(pos).size > 0) << pos.fen();
                                 marked[side] += c.has_exits(side, i);
                             });
    EXPECT_EQ(marked[WHITE], 0u);
    EXPECT_GT(marked[BLACK], 0u);
}

TEST(SolverPasses, FirstPassTellsTheEntriesExaminedUpToBothSides) {
    PassesOf t("KRvK");
    std::vector<std::pair<uint64_t, uint64_t>> told;
    t.options.control.progress = [&](Control::Count count, uint64_t done, uint64_t total) {
        EXPECT_EQ(count, Control::Count::FirstPassEntries);
        told.emplace_back(done, total);
    };
    SchemeContext c(t.setup, std::nullopt);
    first_pass(c);
    ASSERT_GE(told.size(), 2u);
    for (size_t k = 0; k < told.size(); ++k) {
        EXPECT_EQ(told[k].second, 2 * t.scheme.size());
        if (k > 0) {
            EXPECT_LE(told[k - 1].first, told[k].first);
        }
    }
    EXPECT_EQ(told.back().first, 2 * t.scheme.size());
}

// The stronger side counts late, unless losing its most valuable man hands the other side a winning
// edge (a rook or so) or the other side has a pawn; even sides count every entry in the first pass.
TEST(SolverPasses, TheStrongerSideCountsLateUnlessABlunderHandsOverAWin) {
    const auto late = [](const char* m) { return side_counted_late(Material::parse(m)); };
    EXPECT_EQ(late("KQvK"), WHITE);
    EXPECT_EQ(late("KRBvKR"), WHITE);
    EXPECT_EQ(late("KRvKB"), WHITE);
    EXPECT_EQ(late("KRvKP"), std::nullopt);  // the pawn promotes
    EXPECT_EQ(late("KBvKQR"), BLACK);
    EXPECT_EQ(late("KQvKR"), std::nullopt);   // the queen taken: KvKR
    EXPECT_EQ(late("KQRvKQ"), std::nullopt);  // KRvKQ
    EXPECT_EQ(late("KRvKR"), std::nullopt);
    EXPECT_EQ(late("KPvKP"), std::nullopt);
}

// The entries left uncounted have no exit and no check, and a count-down that reaches one counts its
// moves as listing them one by one does, then counts down: KRvK's white side.
TEST(SolverPasses, AnEntryCountedLateHasItsListedMovesCounted) {
    PassesOf t("KRvK");
    SchemeContext c(t.setup, std::nullopt);
    first_pass(c);
    uint64_t waiting = 0, counted_down = 0;
    for_each_legal_entry(
        t.scheme, WHITE, 0, t.scheme.size(), [&](uint64_t i, const Placement&, const Position&) {
            if (c.code(WHITE, i) != state::UNCOUNTED) return;
            ++waiting;
            const Entry e = c.load_entry(WHITE, i);
            EXPECT_FALSE(e.pos.in_check(WHITE)) << e.pos.fen();
            EXPECT_EQ(leaving_moves(e.pos).size, 0) << e.pos.fen();
            MoveSummary listed;
            const int quiet =
                quiet_successors(t.scheme, e, BoardAttacks(e.pos), listed, SuccessorPath::Listed).count;
            EXPECT_EQ(count_late(t.scheme, e), quiet_counter(e.pos, quiet)) << e.pos.fen();
            if (quiet < 2 || waiting % 7) return;
            ++counted_down;
            CountDown{c, 1}(WHITE, i);
            EXPECT_EQ(c.code(WHITE, i), quiet - 1) << e.pos.fen();
        });
    EXPECT_GT(waiting, t.scheme.size() / 4);
    EXPECT_GT(counted_down, 1000u);  // of 28,644 entries
}

// Two threads counting down the same entries that wait to be counted: whichever counts first, each
// entry ends two below its count (a compare-and-swap stores the count once).
TEST(SolverPasses, TwoThreadsCountingLateAgree) {
    PassesOf t("KRvK");
    SchemeContext c(t.setup, std::nullopt);
    first_pass(c);
    std::vector<std::pair<uint64_t, int>> waiting;  // index, quiet moves
    for_each_legal_entry(
        t.scheme, WHITE, 0, t.scheme.size(), [&](uint64_t i, const Placement&, const Position&) {
            if (c.code(WHITE, i) != state::UNCOUNTED) return;
            const Entry e = c.load_entry(WHITE, i);
            MoveSummary moves;
            waiting.emplace_back(i, quiet_successors(t.scheme, e, BoardAttacks(e.pos), moves).count);
        });
    ASSERT_GT(waiting.size(), 10000u);
    tbb::task_arena arena(2);
    arena.execute([&] {
        const CountDown down{c, 1};
        ASSERT_EQ(down.updaters, Updaters::Several);
        // Two tasks, each over every entry in order: in step, they often meet on one.
        par::parallel_for(0, 2, [&](int) {
            for (const auto& entry : waiting) down(WHITE, entry.first);
        });
    });
    for (const auto& [i, quiet] : waiting) {
        if (quiet < 3) continue;
        ASSERT_EQ(c.code(WHITE, i), quiet - 2) << i;
    }
}

// Five queens have more quiet moves than a counter holds: against a bare king the position is never
// lost. Against more than a king it cannot happen up to 7 men, and is refused.
TEST(SolverPasses, QuietMovesPastTheCounterAgainstABareKingAreNeverLost) {
    const Position five_queens = Position::from_fen("k7/6Q1/4Q3/2Q5/5Q2/3Q4/1K6/8 w - - 0 1");
    MoveList moves;
    generate_legal_moves(five_queens, moves);
    ASSERT_GT(int(moves.size), int(state::COUNTER_MAX));  // no captures: every move is quiet
    EXPECT_EQ(quiet_counter(five_queens, int(moves.size)), state::NEVER_LOST);
    EXPECT_EQ(quiet_counter(five_queens, state::COUNTER_MAX), state::COUNTER_MAX);
    const Position with_a_pawn = Position::from_fen("k7/8/p7/8/1Q6/4Q3/3Q4/7K w - - 0 1");
    EXPECT_THROW(quiet_counter(with_a_pawn, state::COUNTER_MAX + 1), SolveError);
}

TEST(SolverPasses, SweepOfTheMatesOffersTheWinsInOne) {
    PassesOf t("KQvK");
    SchemeContext c(t.setup, std::nullopt);
    first_pass(c);
    LayerLog log("", 0, 0);
    // The updates of ply 0 found first and applied after, in another order.
    std::vector<std::pair<Color, uint64_t>> updates;
    const uint64_t mates =
        sweep_layer(c, log, BLACK, 0, [&](Color side, uint64_t i) { updates.emplace_back(side, i); });
    EXPECT_GT(mates, 0u);
    EXPECT_GE(updates.size(), mates);
    EXPECT_EQ(sweep_layer(c, log, WHITE, 0, [](Color, uint64_t) { ADD_FAILURE() << "white is never mated"; }),
              0u);
    const OfferWin offer{c, 0};
    for (auto it = updates.rbegin(); it != updates.rend(); ++it) offer(it->first, it->second);
    const state::Code won_in_one = c.window.code(1);
    EXPECT_EQ(t.positions(c, WHITE, [&](state::Code code) { return code == won_in_one; }),
              histogram("KQvK", "wtm", "win1"));
    EXPECT_EQ(t.positions(c, BLACK, [](state::Code code) { return code == state::DONE_LOSS; }),
              three_man("KQvK", "btm", "checkmated"));
    EXPECT_EQ(c.max_value.load(), 1);
}

// Every pass in order, as the solve runs them, with a window of 4 plies: most distances are found
// beyond it, kept as far codes and derived again by the far-code scans.
TEST(SolverPasses, SweepsWithANarrowWindowReachTheOraclesValues) {
    for (const std::string material : {"KQvK", "KRvK"}) {
        PassesOf t(material, 4);
        SchemeContext c(t.setup, std::nullopt);
        LayerLog log("", 0, 0);
        first_pass(c);
        uint64_t entries = 0;
        for (int n = 0; n <= c.max_value.load(); ++n) {
            if (n % c.window.refresh() == 0) refresh_far(c, n);
            entries += sweep_ply(c, log, n);
        }
        EXPECT_EQ(c.max_value.load(), material == "KQvK" ? 20 : 32) << material;
        SolvedScheme values = final_values(c, log);
        const Table table(Material::parse(material), std::move(values.bytes), std::move(values.long_values));
        const TableStatistics s = compute_statistics(table);
        for (Color side : {WHITE, BLACK}) {
            const std::string stm = side == WHITE ? "wtm" : "btm";
            EXPECT_EQ(s.side[side].wins, three_man(material, stm, "win")) << material << " " << stm;
            EXPECT_EQ(s.side[side].losses, three_man(material, stm, "loss")) << material << " " << stm;
            EXPECT_EQ(s.side[side].draws, three_man(material, stm, "draw")) << material << " " << stm;
        }
        EXPECT_EQ(s.side[WHITE].longest_win(), material == "KQvK" ? 19 : 31);
        EXPECT_EQ(s.side[BLACK].longest_loss(), material == "KQvK" ? 20 : 32);
        EXPECT_GT(entries, 0u);
    }
}
