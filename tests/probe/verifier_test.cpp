// verify_table re-derives every stored value by forward moves: it passes on the solver's tables
// (every 3-man table, KQvKR, KBNvK and KRvKP) and reports a corrupted value with the FEN of a
// position that disagrees.
#include "probe/verifier.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "chess/movegen.hpp"
#include "support/solved_tables.hpp"

using namespace retro;

namespace {

// Legal entries of a table, both sides to move.
uint64_t legal_entries(const Table& t) {
    uint64_t n = 0;
    for (Color side : {WHITE, BLACK})
        for (uint64_t i = 0; i < t.scheme.size(); ++i) {
            Position pos;
            if (!t.scheme.decode(i, pos)) continue;
            pos.set_side_to_move(side);
            n += pos.illegality().empty();
        }
    return n;
}

void expect_verified(const std::string& material) {
    const Tablebase& tables = retro::test::solved_tables({material});
    const auto table = tables.find(Material::parse(material));
    ASSERT_TRUE(table);
    std::vector<uint64_t> done;
    const VerifyResult r = verify_table(*table, tables, nullptr, [&](uint64_t d, uint64_t entries) {
        EXPECT_EQ(entries, 2 * table->scheme.size());
        done.push_back(d);
    });
    EXPECT_FALSE(r.mismatch) << material << ": " << r.mismatch.value_or("");
    EXPECT_EQ(r.checked, legal_entries(*table)) << material;
    // The progress reported goes up to every entry of both sides, never down.
    ASSERT_FALSE(done.empty()) << material;
    EXPECT_TRUE(std::is_sorted(done.begin(), done.end())) << material;
    EXPECT_EQ(done.back(), 2 * table->scheme.size()) << material;
}

// The entry (index, side) that pos stands for in t.
std::pair<uint64_t, Color> entry_of(const Table& t, const Position& pos) {
    return {t.scheme.encode(pos), pos.side_to_move()};
}

// The first legal entry of `side` with a value for which `pick` holds.
template <class Pick>
uint64_t find_entry(const Table& t, Color side, uint64_t from, Pick pick) {
    for (uint64_t i = from; i < t.scheme.size(); ++i) {
        Position pos;
        if (!t.scheme.decode(i, pos)) continue;
        pos.set_side_to_move(side);
        if (pos.illegality().empty() && pick(t.value(side, i))) return i;
    }
    ADD_FAILURE() << "no such entry in " << t.material().name();
    return 0;
}

// The position named at the start of a mismatch message ("FEN: stored ..., moves give ...").
Position reported_position(const std::string& mismatch) {
    return Position::from_fen(mismatch.substr(0, mismatch.find(':')));
}

}  // namespace

TEST(Verifier, EveryThreeManTable) {
    for (const char* m : {"KQvK", "KRvK", "KBvK", "KNvK", "KPvK"}) expect_verified(m);
}

// Captures both ways: Black wins some positions after taking the queen.
TEST(Verifier, KQvKR) { expect_verified("KQvKR"); }

// The longest 4-man pawnless mate (65 plies); the loser's captures lead to drawn 3-man tables.
TEST(Verifier, KBNvK) { expect_verified("KBNvK"); }

// A pawn: promotions to all four pieces, captures that promote, underpromotions that alone win. (KPvKP,
// the one 4-man table with en passant, costs twice as much for its sub-tables; its en passant
// values are checked in tests/solve/pawn_positions_test.cpp and its statistics in
// tests/solve/oracle_test.cpp.)
TEST(Verifier, KRvKP) { expect_verified("KRvKP"); }

// The verifier reports the disagreement of the lowest index (white before black at one index): when
// that is the corrupted entry itself, the message names its FEN and both values.
TEST(Verifier, ReportsTheCorruptedEntry) {
    const auto good = retro::test::solved_table("KQvK");
    auto bad = std::make_shared<Table>(*good);
    const auto any = [](Dtm) { return true; };
    const uint64_t white = find_entry(*bad, WHITE, 0, any), black = find_entry(*bad, BLACK, 0, any);
    const Color side = white <= black ? WHITE : BLACK;
    const uint64_t i = std::min(white, black);
    Position corrupted;
    ASSERT_TRUE(bad->scheme.decode(i, corrupted));
    corrupted.set_side_to_move(side);
    const Dtm was = bad->value(side, i);
    bad->set(side, i, is_draw(was) ? Dtm(1) : DTM_DRAW);

    Tablebase tables;
    tables.add(bad);
    const VerifyResult r = verify_table(*bad, tables);
    ASSERT_TRUE(r.mismatch) << "a corrupted value went unnoticed";
    EXPECT_EQ(r.mismatch->substr(0, corrupted.fen().size()), corrupted.fen()) << *r.mismatch;
    EXPECT_NE(r.mismatch->find("stored " + describe(bad->value(side, i))), std::string::npos) << *r.mismatch;
    EXPECT_NE(r.mismatch->find("moves give " + describe(was)), std::string::npos) << *r.mismatch;
}

// A win in the middle of the table turned into a draw: the position reported is the corrupted one or
// one that moves into it (whose value was derived from it).
TEST(Verifier, ReportsAMismatchNextToACorruptedValue) {
    const auto good = retro::test::solved_table("KRvK");
    auto bad = std::make_shared<Table>(*good);
    const uint64_t i =
        find_entry(*bad, BLACK, bad->scheme.size() / 2, [](Dtm v) { return is_loss(v) && v > 10; });
    bad->set(BLACK, i, DTM_DRAW);

    Tablebase tables;
    tables.add(bad);
    const VerifyResult r = verify_table(*bad, tables);
    ASSERT_TRUE(r.mismatch) << "a corrupted value went unnoticed";
    const Position reported = reported_position(*r.mismatch);
    ASSERT_TRUE(reported.illegality().empty()) << *r.mismatch;
    const std::pair<uint64_t, Color> corrupted{i, BLACK};
    bool related = entry_of(*bad, reported) == corrupted;
    MoveList moves;
    generate_legal_moves(reported, moves);
    for (const Move& m : moves) {
        const Position next = make_move(reported, m);
        if (Material::of(next) == bad->material() && entry_of(*bad, next) == corrupted) related = true;
    }
    EXPECT_TRUE(related) << *r.mismatch;
}
