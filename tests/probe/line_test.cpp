// The line to mate against the tables themselves: for every decisive position of KQvK and KRvK (and
// of their colour swaps) and a sample of KQvKR, the line has exactly the stored number of plies,
// ends in checkmate, the DTM drops by one each ply, and every loser move resists longest.
#include "probe/line.hpp"

#include <gtest/gtest.h>

#include <random>

#include "chess/movegen.hpp"
#include "probe/notation.hpp"
#include "support/probe_test_tables.hpp"

using namespace retro;
using retro::testing::kqkr_tables;
using retro::testing::three_man_tables;

namespace {

// Checks the line from pos; returns "" or what is wrong.
std::string check_line(const Tablebase& tables, const Position& pos) {
    const Dtm value = tables.probe(pos);
    const Line line = line_to_mate(tables, pos);
    const std::string where = pos.fen() + ": ";
    if (line.value != value)
        return where + "line value " + describe(line.value) + " != probe " + describe(value);
    if (line.moves.size() != value)
        return where + "line of " + std::to_string(line.moves.size()) + " plies for " + describe(value) +
               " (" + line.note + ")";
    if (line.end != Line::End::Checkmate || !line.note.empty())
        return where + "line does not end in mate: " + line.note;
    Position cur = pos;
    for (size_t ply = 0; ply < line.moves.size(); ++ply) {
        const Dtm now = tables.probe(cur);
        if (now != value - ply)
            return where + "ply " + std::to_string(ply) + " has " + describe(now) + ", expected " +
                   describe(Dtm(value - ply));
        const Move chosen = line.moves[ply];
        const Dtm after = tables.probe(make_move(cur, chosen));
        if (now != value_through(after))
            return where + "move " + to_uci(chosen) + " does not keep the distance";
        if (is_loss(now)) {
            // The loser: no legal move may leave the winner a longer mate.
            MoveList moves;
            generate_legal_moves(cur, moves);
            for (const Move& m : moves) {
                const Dtm v = tables.probe(make_move(cur, m));
                if (!is_win(v)) return where + "the lost side has the non-losing move " + to_uci(m);
                if (v > after)
                    return where + "ply " + std::to_string(ply) + ": " + to_uci(m) + " resists longer (" +
                           describe(v) + ") than " + to_uci(chosen) + " (" + describe(after) + ")";
            }
        } else if (!is_win(now)) {
            return where + "ply " + std::to_string(ply) + " is not decisive";
        }
        cur = make_move(cur, chosen);
    }
    if (has_legal_move(cur) || !cur.in_check(cur.side_to_move()))
        return where + "the final position is not mate";
    return "";
}

struct Sweep {
    uint64_t checked = 0, failures = 0;
    std::string first_failure;
    void record(const std::string& error) {
        ++checked;
        if (error.empty()) return;
        if (failures++ == 0) first_failure = error;
    }
};

// Every decisive position of material m, both sides to move, in both colour orientations.
Sweep sweep_all(const Tablebase& tables, const std::string& material) {
    const IndexScheme scheme(Material::parse(material));
    Sweep sweep;
    for (uint64_t idx = 0; idx < scheme.size(); ++idx)
        for (Color stm : {WHITE, BLACK}) {
            Position pos;
            pos.set_side_to_move(stm);
            if (!scheme.decode(idx, pos) || !pos.illegality().empty()) continue;
            if (is_draw(tables.probe(pos))) continue;
            sweep.record(check_line(tables, pos));
            sweep.record(check_line(tables, pos.color_flipped()));
        }
    return sweep;
}

}  // namespace

TEST(ProbeLine, EveryDecisiveKQvKPosition) {
    const Sweep s = sweep_all(three_man_tables(), "KQvK");
    EXPECT_EQ(s.failures, 0u) << s.first_failure;
    EXPECT_GT(s.checked, 40000u);
}

TEST(ProbeLine, EveryDecisiveKRvKPosition) {
    const Sweep s = sweep_all(three_man_tables(), "KRvK");
    EXPECT_EQ(s.failures, 0u) << s.first_failure;
    EXPECT_GT(s.checked, 40000u);
}

TEST(ProbeLine, LongestLinesOfThreeMen) {
    // The known maxima: KQvK mates in 19 plies at most, KRvK in 31.
    for (const auto& [material, longest] : {std::pair{"KQvK", 19}, std::pair{"KRvK", 31}}) {
        const IndexScheme scheme(Material::parse(material));
        size_t best = 0;
        for (uint64_t idx = 0; idx < scheme.size(); ++idx) {
            Position pos;
            if (!scheme.decode(idx, pos) || !pos.illegality().empty()) continue;
            if (is_win(three_man_tables().probe(pos)))
                best = std::max(best, line_to_mate(three_man_tables(), pos).moves.size());
        }
        EXPECT_EQ(best, size_t(longest)) << material;
    }
}

// Lines from 150 random positions of each kind: White wins, White loses, Black wins, Black loses.
void check_kqkr_sample(const Tablebase& tables) {
    const IndexScheme scheme(Material::parse("KQvKR"));
    std::mt19937_64 rng(2024);
    // Per (side to move, sign of the value): white wins, white loses, black wins, black loses.
    int count[2][2] = {};
    constexpr int PER_KIND = 150;
    Sweep sweep;
    size_t longest = 0;
    for (int tries = 0; tries < 2000000; ++tries) {
        Position pos;
        const Color stm = Color(rng() & 1);
        pos.set_side_to_move(stm);
        if (!scheme.decode(rng() % scheme.size(), pos) || !pos.illegality().empty()) continue;
        const Dtm v = tables.probe(pos);
        if (is_draw(v) || count[stm][is_win(v)] >= PER_KIND) continue;
        ++count[stm][is_win(v)];
        sweep.record(check_line(tables, pos));
        longest = std::max(longest, size_t(v));
        if (count[0][0] + count[0][1] + count[1][0] + count[1][1] == 4 * PER_KIND) break;
    }
    EXPECT_EQ(sweep.failures, 0u) << sweep.first_failure;
    for (int c = 0; c < 2; ++c)
        for (int w = 0; w < 2; ++w)
            EXPECT_EQ(count[c][w], PER_KIND) << "side " << c << (w ? " wins" : " loses");
}

// Solving KQvKR takes the longest: one test (one process under ctest) does all of its checks.
TEST(ProbeLine, KQvKR) {
    const Tablebase& tables = kqkr_tables();
    check_kqkr_sample(tables);
    // The deepest position for each side to move (White's win in 69 plies, Black's in 37 after
    // taking the queen): the whole line checks out.
    const IndexScheme scheme(Material::parse("KQvKR"));
    for (Color stm : {WHITE, BLACK}) {
        Position deepest;
        Dtm longest = 0;
        for (uint64_t idx = 0; idx < scheme.size(); ++idx) {
            Position pos;
            pos.set_side_to_move(stm);
            if (!scheme.decode(idx, pos) || !pos.illegality().empty()) continue;
            const Dtm v = tables.probe(pos);
            if (is_win(v) && v > longest) longest = v, deepest = pos;
        }
        EXPECT_EQ(longest, stm == WHITE ? 69 : 37);
        EXPECT_EQ(check_line(tables, deepest), "");
        EXPECT_EQ(check_line(tables, deepest.color_flipped()), "");
    }
    // A line that crosses into a missing sub-table stops with a note instead of throwing.
    Tablebase partial;
    partial.add(tables.find(Material::parse("KQvKR")));
    const Position pos = Position::from_fen("8/8/8/8/3k4/8/1r6/K1Q5 w - - 0 1");
    ASSERT_TRUE(is_win(partial.probe(pos)));
    const Line line = line_to_mate(partial, pos);
    EXPECT_EQ(line.end, Line::End::Stopped);
    EXPECT_LT(line.moves.size(), partial.probe(pos));
    EXPECT_NE(line.note.find("no table for KQvK"), std::string::npos) << line.note;
}

TEST(ProbeLine, DrawsStalematesAndMates) {
    const Tablebase& tables = three_man_tables();
    const Line draw = line_to_mate(tables, Position::from_fen("8/8/8/8/8/8/1q6/K6k w - - 0 1"));
    EXPECT_TRUE(draw.moves.empty());
    EXPECT_EQ(draw.end, Line::End::Draw);
    EXPECT_NE(draw.note.find("draw"), std::string::npos);
    const Line stalemate = line_to_mate(tables, Position::from_fen("k7/8/1QK5/8/8/8/8/8 b - - 0 1"));
    EXPECT_TRUE(stalemate.moves.empty());
    EXPECT_EQ(stalemate.end, Line::End::Stalemate);
    const Line mated = line_to_mate(tables, Position::from_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"));
    EXPECT_TRUE(mated.moves.empty());
    EXPECT_EQ(mated.value, 0);
    EXPECT_EQ(mated.end, Line::End::Checkmate);
    EXPECT_FALSE(best_move(tables, Position::from_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")));
    // Bare kings: a draw without any table.
    EXPECT_EQ(line_to_mate(Tablebase(), Position::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1")).end,
              Line::End::Draw);
}

TEST(ProbeLine, MissingTablesAndTooManyMen) {
    const Tablebase empty;
    EXPECT_THROW(line_to_mate(empty, Position::from_fen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1")),
                 MissingTableError);
    try {
        empty.probe(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"));
        ADD_FAILURE() << "32 men probed";
    } catch (const TooManyMenError& e) {
        EXPECT_NE(std::string(e.what()).find("32 men"), std::string::npos) << e.what();
    }
}

TEST(ProbeLine, BestMoveTiesAreBrokenByUciOrder) {
    const Tablebase& tables = three_man_tables();
    const Position pos = Position::from_fen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    const auto best = best_move(tables, pos);
    ASSERT_TRUE(best);
    std::string first;
    for (const auto& [m, v] : tables.rank_moves(pos))
        if (v == best->value && (first.empty() || to_uci(m) < first)) first = to_uci(m);
    EXPECT_EQ(to_uci(best->move), first);
    EXPECT_EQ(describe_long(best->value), "win in 13 plies (mate in 7)");
    // rank_moves orders the same way: best first, equal values in UCI order.
    const auto ranked = tables.rank_moves(pos);
    ASSERT_EQ(ranked.size(), 21u);
    EXPECT_EQ(ranked.front().first, best->move);
    for (size_t i = 1; i < ranked.size(); ++i) {
        const auto& [a, va] = ranked[i - 1];
        const auto& [b, vb] = ranked[i];
        EXPECT_TRUE(better(va, vb) || (va == vb && to_uci(a) < to_uci(b))) << to_uci(a) << " " << to_uci(b);
    }
    EXPECT_EQ(describe_long(18), "loss in 18 plies (mated in 9)");
    EXPECT_EQ(describe_long(0), "checkmated");
    EXPECT_EQ(describe_long(DTM_DRAW), "draw");
    EXPECT_EQ(describe_long(1), "win in 1 ply (mate in 1)");
}

TEST(ProbeLine, RankedMovesBestFirstTiesInUciOrder) {
    const Tablebase& tables = three_man_tables();
    // KQvK, white to move: wins, quickest first, then the draws of the queen moves that hang her.
    const Position pos = Position::from_fen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    const auto ranked = ranked_moves(tables, pos);
    ASSERT_EQ(ranked.size(), tables.rank_moves(pos).size());
    EXPECT_EQ(to_uci(ranked.front().move), "h1c6");
    EXPECT_EQ(ranked.front().value, 13);
    for (size_t i = 1; i < ranked.size(); ++i) {
        const int before = preference(ranked[i - 1].value), now = preference(ranked[i].value);
        EXPECT_GE(before, now) << i;
        if (before == now) {
            EXPECT_LT(to_uci(ranked[i - 1].move), to_uci(ranked[i].move)) << i;
        }
    }
    const Position krk = Position::from_fen("8/8/8/3k4/8/8/2r5/K7 w - - 0 1");
    const auto losing = ranked_moves(tables, krk);
    ASSERT_FALSE(losing.empty());
    for (const ScoredMove& m : losing) EXPECT_TRUE(is_loss(m.value)) << to_uci(m.move);
    EXPECT_EQ(best_move(tables, krk)->move, losing.front().move);
    EXPECT_TRUE(ranked_moves(tables, Position::from_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")).empty());
}
