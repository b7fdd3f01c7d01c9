#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "chess/movegen.hpp"
#include "chess/unmovegen.hpp"
#include "support/random_positions.hpp"

using namespace retro;
using retro::test::put_at_random;

namespace {

constexpr PieceType EXTRA_TYPES[] = {QUEEN, ROOK, BISHOP, KNIGHT, PAWN};

// A random legal position of `fewest` to `most` men: random material (pawns included), random side
// to move, no en passant square.
Position random_position(std::mt19937_64& rng, int fewest = 3, int most = 6) {
    for (;;) {
        Position pos;
        put_at_random(pos, {WHITE, KING}, ~Bitboard(0), rng);
        put_at_random(pos, {BLACK, KING}, ~Bitboard(0), rng);
        const int extra = std::uniform_int_distribution<int>(fewest - 2, most - 2)(rng);
        for (int i = 0; i < extra; ++i) {
            const Color c = Color(rng() & 1);
            const PieceType t = EXTRA_TYPES[rng() % 5];
            put_at_random(pos, {c, t}, t == PAWN ? PAWN_RANKS : ~Bitboard(0), rng);
        }
        pos.set_side_to_move(Color(rng() & 1));
        if (pos.illegality().empty()) return pos;
    }
}

// A random legal position in which the side to move can push a pawn two squares next to an enemy
// pawn: the push usually grants an en passant capture, sometimes one that is illegal (a pin).
Position random_double_push_position(std::mt19937_64& rng) {
    for (;;) {
        Position pos = random_position(rng);
        const Color us = pos.side_to_move();
        const int file = int(rng() % 8), side = (rng() & 1) ? 1 : -1;
        if (!on_board(file + side, 0)) continue;
        const Square from = make_square(file, us == WHITE ? 1 : 6);
        const Square enemy = make_square(file + side, us == WHITE ? 3 : 4);
        const Square between = from + pawn_push(us), to = between + pawn_push(us);
        if (pos.occupied() & (square_bb(from) | square_bb(enemy) | square_bb(between) | square_bb(to)))
            continue;
        pos.put({us, PAWN}, from);
        pos.put({~us, PAWN}, enemy);
        if (pos.illegality().empty()) return pos;
    }
}

Position without_ep(Position pos) {
    pos.set_ep_square(NO_SQUARE);
    return pos;
}

bool is_quiet(const Move& m) { return !m.capture && !m.en_passant && m.promotion == NO_PIECE_TYPE; }

struct Stats {
    long forward = 0, backward = 0, ep_positions = 0, double_push_unmoves = 0;
};

// Every un-move u of pos gives a legal predecessor Q without en passant square, u is a legal move in
// Q, and playing it in Q gives exactly pos.
void check_unmoves(const Position& pos, Stats& stats) {
    MoveList unmoves;
    generate_unmoves(pos, unmoves);
    if (pos.ep_square() != NO_SQUARE) {
        ++stats.ep_positions;
        EXPECT_EQ(unmoves.size, 1) << pos.fen();  // only the double push that made it
    }
    for (const Move& u : unmoves) {
        ++stats.backward;
        EXPECT_TRUE(is_quiet(u)) << pos.fen() << " " << to_uci(u);
        const Position prev = predecessor(pos, u);
        ASSERT_EQ(prev.illegality(), "") << pos.fen() << " un-move " << to_uci(u) << " gives " << prev.fen();
        EXPECT_EQ(prev.ep_square(), NO_SQUARE);
        EXPECT_EQ(prev.side_to_move(), ~pos.side_to_move());
        MoveList moves;
        generate_legal_moves(prev, moves);
        bool legal = false;
        for (const Move& m : moves) legal |= m == u;
        EXPECT_TRUE(legal) << to_uci(u) << " is not a legal move in " << prev.fen() << " (un-move of "
                           << pos.fen() << ")";
        EXPECT_EQ(make_move(prev, u), pos)
            << prev.fen() << " + " << to_uci(u) << " should give " << pos.fen();
        if (prev.type_on(u.from) == PAWN && (u.to - u.from == 16 || u.from - u.to == 16))
            ++stats.double_push_unmoves;
    }
}

// For every legal quiet move m of pos (no capture, no promotion), pos (without its en passant
// square) is among the predecessors of pos·m, reached by un-moving m. The children are checked
// backwards too.
void check_moves(const Position& pos, Stats& stats) {
    MoveList moves;
    generate_legal_moves(pos, moves);
    const Position target = without_ep(pos);
    for (const Move& m : moves) {
        const Position next = make_move(pos, m);
        check_unmoves(next, stats);
        if (!is_quiet(m)) continue;
        ++stats.forward;
        MoveList unmoves;
        generate_unmoves(next, unmoves);
        int found = 0;
        for (const Move& u : unmoves)
            if (predecessor(next, u) == target) {
                ++found;
                EXPECT_EQ(u.from, m.from);
                EXPECT_EQ(u.to, m.to);
            }
        EXPECT_EQ(found, 1) << pos.fen() << " + " << to_uci(m) << " = " << next.fen();
    }
}

}  // namespace

TEST(Unmoves, UndoLegalMovesOfRandomPositions) {
    std::mt19937_64 rng(20240601);
    Stats stats;
    for (int i = 0; i < 10000 && !HasFatalFailure(); ++i) {
        const Position pos = random_position(rng);
        check_unmoves(pos, stats);
        check_moves(pos, stats);
    }
    EXPECT_GT(stats.forward, 100000);
    EXPECT_GT(stats.backward, 2000000);
    EXPECT_GT(stats.double_push_unmoves, 3000);
}

// Seven men: five men besides the kings make longer lists of moves and un-moves, and more blockers.
TEST(Unmoves, UndoLegalMovesOfSevenMen) {
    std::mt19937_64 rng(20261202);
    Stats stats;
    for (int i = 0; i < 1000 && !HasFatalFailure(); ++i) {
        const Position pos = random_position(rng, 7, 7);
        ASSERT_EQ(popcount(pos.occupied()), 7) << pos.fen();
        check_unmoves(pos, stats);
        check_moves(pos, stats);
    }
    EXPECT_GT(stats.forward, 12000);
    EXPECT_GT(stats.backward, 300000);
    EXPECT_GT(stats.double_push_unmoves, 800);
}

TEST(Unmoves, DoublePushesNextToEnemyPawns) {
    std::mt19937_64 rng(7);
    Stats stats;
    for (int i = 0; i < 2000 && !HasFatalFailure(); ++i) check_moves(random_double_push_position(rng), stats);
    EXPECT_GE(stats.ep_positions, 1000);
    EXPECT_GE(stats.double_push_unmoves, 1000);
}

TEST(Unmoves, KnownPosition) {
    // White: Ke1, Pd4 just pushed from d2 (black pawn on e4 can take en passant): only d2-d4 leads here.
    const Position pos = Position::from_fen("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1");
    MoveList unmoves;
    generate_unmoves(pos, unmoves);
    ASSERT_EQ(unmoves.size, 1);
    EXPECT_EQ(to_uci(unmoves.moves[0]), "d2d4");
    EXPECT_EQ(predecessor(pos, unmoves.moves[0]), Position::from_fen("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1"));

    // Without the en passant right, d2-d4 cannot have been played (it would grant one): d3-d4 and the
    // king moves remain.
    const Position no_ep = Position::from_fen("4k3/8/8/8/3Pp3/8/8/4K3 b - - 0 1");
    unmoves.size = 0;
    generate_unmoves(no_ep, unmoves);
    std::vector<std::string> names;
    for (const Move& u : unmoves) names.push_back(to_uci(u));
    EXPECT_EQ(std::count(names.begin(), names.end(), "d2d4"), 0);
    EXPECT_EQ(std::count(names.begin(), names.end(), "d3d4"), 1);
    EXPECT_EQ(names.size(), 1u + 5u);  // d3-d4 and the king from d1, d2, e2, f2, f1

    // The kings' and pieces' alone, as a slice's solver asks: the king moves, and none with the
    // en passant square (only the double push leads there).
    unmoves.size = 0;
    generate_unmoves(no_ep, unmoves, Unmoves::PiecesOnly);
    EXPECT_EQ(unmoves.size, 5);
    for (const Move& u : unmoves) EXPECT_EQ(no_ep.type_on(u.to), KING) << to_uci(u);
    unmoves.size = 0;
    generate_unmoves(pos, unmoves, Unmoves::PiecesOnly);
    EXPECT_EQ(unmoves.size, 0);
}

TEST(Unmoves, DoublePushWhoseEnPassantCaptureIsIllegal) {
    // c7-c5 next to the white pawn on d5, but d5xc6 would be illegal: it exposes the white king to
    // the rook along the fifth rank, or leaves the bishop's diagonal. No en passant square is set, so
    // the un-moves of the position without one must include c7-c5.
    for (const char* fen : {"4k3/2p5/8/r2P3K/8/8/8/8 b - - 0 1", "4k1b1/2p5/8/3P4/8/8/K7/8 b - - 0 1"}) {
        const Position before = Position::from_fen(fen);
        const Move push{parse_square("c7"), parse_square("c5")};
        MoveList moves;
        generate_legal_moves(before, moves);
        ASSERT_NE(std::find(moves.begin(), moves.end(), push), moves.end()) << fen;
        const Position after = make_move(before, push);
        EXPECT_EQ(after.ep_square(), NO_SQUARE) << fen;
        MoveList unmoves;
        generate_unmoves(after, unmoves);
        int found = 0;
        for (const Move& u : unmoves) found += u == push && predecessor(after, u) == before;
        EXPECT_EQ(found, 1) << after.fen();
    }
}
