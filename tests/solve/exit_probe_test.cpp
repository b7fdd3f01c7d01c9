// ExitProbe::value_after, which maps the solver's placement straight onto a sub-table's slots, and
// ExitProbe::ask, which finds the entry to read ahead, against Tablebase::probe of the position
// after the move, for every capture, en passant capture, promotion and push of random positions;
// and RunExits, which finds a capture once along a run of entries, against value_after.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "index/board_walk.hpp"
#include "index/dependencies.hpp"
#include "index/index_cursor.hpp"
#include "index/pawn_slices.hpp"
#include "solve/exits.hpp"
#include "solve/run_exits.hpp"
#include "support/random_positions.hpp"
#include "support/solved_tables.hpp"

using namespace retro;
using namespace retro::test;

namespace {

struct Coverage {
    int exits = 0, en_passant = 0, promotions = 0, capture_promotions = 0;
};

// Compares value_after with probe for every move that leaves m's table, over `count` positions.
Coverage compare_exits(const Material& m, const Tablebase& tables, int count) {
    const IndexScheme scheme(m);
    const ExitProbe exits(scheme, tables);
    Coverage c;
    for (const Position& pos : sample_positions(m, count, EnPassant::Included)) {
        const Placement p = scheme.to_placement(pos);
        MoveList moves;
        generate_legal_moves(pos, moves);
        for (const Move& mv : moves) {
            const bool promotion = mv.promotion != NO_PIECE_TYPE;
            if (!mv.capture && !mv.en_passant && !promotion) continue;
            const Dtm expected = tables.probe(make_move(pos, mv));
            EXPECT_EQ(int(exits.value_after(pos, p, mv)), int(expected)) << pos.fen() << " " << to_uci(mv);
            // The entry asked for ahead, where the value is one, reads the same.
            const ExitProbe::Asked asked = exits.ask(pos.side_to_move(), p, mv);
            if (asked.table) {
                EXPECT_EQ(int(ExitProbe::read_asked(asked)), int(expected)) << pos.fen() << " " << to_uci(mv);
            }
            ++c.exits;
            c.en_passant += mv.en_passant;
            c.promotions += promotion;
            c.capture_promotions += promotion && mv.capture;
        }
        if (testing::Test::HasFailure()) break;
    }
    return c;
}

// Every kind of exit m can have was compared.
void expect_covered(const Material& m, const Coverage& c) {
    if (testing::Test::HasFailure()) return;  // the comparison stopped at its first failure
    EXPECT_GT(c.exits, 200);
    const bool white_pawns = m.count(WHITE, PAWN), black_pawns = m.count(BLACK, PAWN);
    if (white_pawns || black_pawns) {
        EXPECT_GT(c.promotions, 100);
    }
    if (white_pawns && black_pawns) {
        EXPECT_GT(c.en_passant, 100);
    }
    if ((white_pawns && m.count(BLACK) > 1 + black_pawns) ||
        (black_pawns && m.count(WHITE) > 1 + white_pawns)) {
        EXPECT_GT(c.capture_promotions, 0);
    }
}

// The tables one capture or promotion away from m, filled with random values instead of solved:
// any wrong entry, side to move or table then shows, and no table has to be solved (a 4-man table
// with pawns takes seconds).
std::shared_ptr<Table> scrambled(const Material& m) {
    auto rng = seeded_rng(m.name());
    auto table = std::make_shared<Table>(m);
    // Random bytes; 254 (a long distance) stands for one of up to a thousand plies more.
    for (Color side : {WHITE, BLACK})
        for (uint64_t i = 0; i < table->size(); ++i) {
            const uint8_t b = uint8_t(rng());
            table->set(side, i, b == 255 ? DTM_DRAW : b == 254 ? Dtm(254 + rng() % 1000) : Dtm(b));
        }
    return table;
}

std::unique_ptr<Tablebase> scrambled_subtables(const Material& m) {
    auto tables = std::make_unique<Tablebase>();
    for (const Material& sub : direct_subtables(m)) tables->add(scrambled(sub));
    return tables;
}

}  // namespace

class ExitProbeSolvedTest : public testing::TestWithParam<const char*> {};

// Into solved 3-man tables, with colours swapped or not.
TEST_P(ExitProbeSolvedTest, MatchesProbeAfterTheMove) {
    const Material m = Material::parse(GetParam());
    std::vector<std::string> subtables;
    for (const Material& sub : direct_subtables(m)) subtables.push_back(sub.name());
    const Coverage c = compare_exits(m, solved_tables(subtables), 3000);
    expect_covered(m, c);
}

INSTANTIATE_TEST_SUITE_P(FastPath, ExitProbeSolvedTest,
                         testing::Values("KQvKR", "KRvKQ", "KBNvK", "KPvK", "KvKP"));

class ExitProbeScrambledTest : public testing::TestWithParam<const char*> {};

// Materials whose sub-tables would take too long to solve: en passant (KPvKP), capturing
// promotions (KPvKN), five men (KQRvKR).
TEST_P(ExitProbeScrambledTest, MatchesProbeAfterTheMove) {
    const Material m = Material::parse(GetParam());
    const Coverage c = compare_exits(m, *scrambled_subtables(m), 3000);
    expect_covered(m, c);
}

INSTANTIATE_TEST_SUITE_P(FastPath, ExitProbeScrambledTest, testing::Values("KPvKP", "KPvKN", "KQRvKR"));

namespace {

// Every slice of a whole pawn table, each a Table over its own index (as the solver reads them
// back from its slice store).
std::vector<std::shared_ptr<const Table>> slices_of(const Table& whole) {
    std::vector<std::shared_ptr<const Table>> slices;
    for (const PawnConfig& c : pawn_configs(whole.material())) {
        const IndexScheme scheme(whole.material(), c);
        Table::Bytes bytes;
        Table::LongValues long_values;
        for (Color side : {WHITE, BLACK}) {
            bytes[side].resize(scheme.size());
            for (uint64_t i = 0; i < scheme.size(); ++i) {
                const uint64_t t = scheme.table_index(i);
                bytes[side][i] = whole.bytes(side)[t];
                if (bytes[side][i] == Table::LONG_BYTE)
                    long_values[side].push_back({i, whole.value(side, t)});
            }
        }
        slices.push_back(std::make_shared<Table>(scheme, std::move(bytes), std::move(long_values)));
    }
    return slices;
}

}  // namespace

// Pushes read the slices of the table being solved (`own`, here scrambled as well) by a step from
// the pushing entry's index in its slice: a double push that allows en passant is worth the
// opponent's best reply, as Tablebase::probe of the position with the en passant right says, also
// when the capture is their only move.
TEST(ExitProbePushes, MatchProbeAfterTheMove) {
    const Material m = Material::parse("KPvKP");
    auto tables = scrambled_subtables(m);
    const auto own = scrambled(m);
    tables->add(own);
    const PushTargets slices = slices_of(*own);
    struct Slice {
        std::unique_ptr<IndexScheme> scheme;
        std::unique_ptr<ExitProbe> exits;
    };
    std::map<PawnConfig, Slice> probes;  // one per slice sampled
    int pushes = 0, en_passant = 0;
    for (const Position& sampled : sample_positions(m, 20000, EnPassant::Excluded)) {
        const PawnConfig name =
            canonical_mirror({{sampled.pieces(WHITE, PAWN), sampled.pieces(BLACK, PAWN)}});
        Slice& slice = probes[name];
        if (!slice.scheme) {
            slice.scheme = std::make_unique<IndexScheme>(m, name);
            slice.exits = std::make_unique<ExitProbe>(*slice.scheme, *tables, slices);
        }
        // The sampled position's entry in its slice, in the slice's orientation.
        const uint64_t index = slice.scheme->encode(sampled);
        Placement p;
        ASSERT_TRUE(slice.scheme->decode(index, p));
        Position pos = slice.scheme->to_position(p);
        pos.set_side_to_move(sampled.side_to_move());
        MoveList moves;
        generate_legal_moves(pos, moves);
        for (const Move& mv : moves) {
            if (mv.capture || mv.promotion != NO_PIECE_TYPE || pos.type_on(mv.from) != PAWN) continue;
            const Position next = make_move(pos, mv);
            ASSERT_EQ(int(slice.exits->value_after(pos, p, mv, index)), int(tables->probe(next)))
                << pos.fen() << " " << to_uci(mv);
            ++pushes;
            en_passant += next.ep_square() != NO_SQUARE;
        }
    }
    EXPECT_GT(pushes, 10000);
    EXPECT_GT(en_passant, 100);
}

namespace {

struct RunCoverage {
    int runs = 0, promotions = 0, flipped = 0;  // flipped: linear into a table of colours swapped
    std::map<ExitProbe::RunExit::Kind, int> kinds;
};

// Walks `count` entries of `scheme` from `first` as the first pass does, and compares the value of
// every capture, promotion and push through RunExits with value_after's.
void compare_run_exits(const IndexScheme& scheme, const ExitProbe& exits, uint64_t first, int count,
                       RunCoverage& c) {
    BoardWalk walk(scheme);
    RunExits run(exits, walk.stepping_slot());
    for (IndexCursor cursor(scheme, first); cursor.index() < first + uint64_t(count); cursor.next()) {
        if (!cursor.valid()) continue;
        const Placement& p = cursor.placement();
        if (walk.place(cursor) == BoardWalk::Placed::NewRun) {
            run.new_run();
            ++c.runs;
        }
        const uint64_t index = cursor.index();
        Position pos = walk.board();
        for (Color side : {WHITE, BLACK}) {
            if (walk.attacks().in_check(~side)) continue;
            pos.set_side_to_move(side);
            MoveList moves;
            generate_legal_moves(pos, moves);
            for (const Move& m : moves) {
                if (!captures_or_moves_pawn(pos, m) || m.en_passant) continue;
                EXPECT_EQ(int(run.value(index, p, pos, m)), int(exits.value_after(pos, p, m, index)))
                    << pos.fen() << " " << to_uci(m);
                const ExitProbe::RunExit exit = captures_or_promotes(m)
                                                    ? exits.run_exit(p, side, m, walk.stepping_slot())
                                                    : exits.run_push(pos, m, index);
                ++c.kinds[exit.kind];
                c.flipped += exit.kind == ExitProbe::RunExit::Kind::Linear && exit.flip;
                c.promotions += m.promotion != NO_PIECE_TYPE;
            }
        }
        if (testing::Test::HasFailure()) return;
    }
}

using Kind = ExitProbe::RunExit::Kind;

void expect_kinds(const RunCoverage& c, std::initializer_list<Kind> kinds) {
    if (testing::Test::HasFailure()) return;  // the comparison stopped at its first failure
    EXPECT_GT(c.runs, 1000);
    for (Kind kind : kinds) EXPECT_GT(c.kinds.count(kind) ? c.kinds.at(kind) : 0, 10) << "kind " << int(kind);
}

}  // namespace

// A pawnless table, into sub-tables with colours swapped or not, from entries off the diagonal and
// on it.
TEST(RunExitsTest, MatchValueAfterAlongRuns) {
    const Material m = Material::parse("KRvKQN");
    const auto tables = scrambled_subtables(m);
    const IndexScheme scheme(m);
    const ExitProbe exits(scheme, *tables);
    RunCoverage c;
    for (uint64_t first : {uint64_t(0), scheme.size() / 3, scheme.size() - 40000})
        compare_run_exits(scheme, exits, first, 40000, c);
    expect_kinds(c, {Kind::Fixed, Kind::Linear, Kind::Entry});
    EXPECT_GT(c.flipped, 10);
}

// The slices of a pawn table, where a pawn captures too (its square in the entry reached is not
// the moving man's), into pawnless tables and tables with pawns, and pushes into the table's other
// slices (here scrambled).
TEST(RunExitsTest, MatchValueAfterAlongRunsOfSlices) {
    const Material m = Material::parse("KRvKP");
    const auto tables = scrambled_subtables(m);
    const PushTargets pushes = slices_of(*scrambled(m));
    RunCoverage c;
    const std::vector<PawnConfig> configs = pawn_configs(m);
    for (size_t k = 0; k < configs.size(); ++k) {  // each slice from another king pair
        const IndexScheme slice(m, configs[k]);
        const ExitProbe exits(slice, *tables, pushes);
        compare_run_exits(slice, exits, slice.size() * k / configs.size(), 10000, c);
    }
    expect_kinds(c, {Kind::Fixed, Kind::Linear, Kind::Step, Kind::Entry});
    EXPECT_GT(c.promotions, 100);
}
