#include "probe/notation.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "chess/movegen.hpp"

using namespace retro;

namespace {

Position fen(const std::string& f) { return Position::from_fen(f); }

// SAN of the legal move given in UCI.
std::string san(const std::string& f, const std::string& uci) {
    const Position pos = fen(f);
    MoveList moves;
    generate_legal_moves(pos, moves);
    for (const Move& m : moves)
        if (to_uci(m) == uci) return to_san(pos, m);
    ADD_FAILURE() << uci << " is not legal in " << f;
    return "";
}

// The UCI of the move parsed from text, or "error: ..." when it is refused.
std::string parsed(const std::string& f, const std::string& text) {
    const ParsedMove p = parse_move(fen(f), text);
    return p ? to_uci(*p.move) : "error: " + p.error;
}

// Every legal move survives SAN and UCI round trips, and SANs are distinct.
void check_round_trips(const Position& pos) {
    MoveList moves;
    generate_legal_moves(pos, moves);
    std::set<std::string> sans;
    for (const Move& m : moves) {
        const std::string s = to_san(pos, m);
        EXPECT_TRUE(sans.insert(s).second) << pos.fen() << ": two moves share the SAN " << s;
        const ParsedMove from_san = parse_move(pos, s);
        ASSERT_TRUE(from_san) << pos.fen() << " " << s << ": " << from_san.error;
        EXPECT_EQ(*from_san.move, m) << pos.fen() << " " << s;
        const ParsedMove from_uci = parse_move(pos, to_uci(m));
        ASSERT_TRUE(from_uci) << pos.fen() << " " << to_uci(m) << ": " << from_uci.error;
        EXPECT_EQ(*from_uci.move, m) << pos.fen() << " " << to_uci(m);
    }
}

constexpr const char* TWO_ROOKS = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
constexpr const char* ROOKS_ON_FILE = "4k3/8/8/R7/8/8/4K3/R7 w - - 0 1";
constexpr const char* THREE_QUEENS = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
constexpr const char* PROMOTION = "3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1";
constexpr const char* MATE_IN_ONE = "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1";
constexpr const char* EN_PASSANT = "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1";
constexpr const char* PINNED = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";

}  // namespace

TEST(ProbeNotation, SanDisambiguation) {
    EXPECT_EQ(san(TWO_ROOKS, "a1d1"), "Rad1");
    EXPECT_EQ(san(TWO_ROOKS, "h1d1"), "Rhd1");
    EXPECT_EQ(san(TWO_ROOKS, "a1a7"), "Ra7");
    EXPECT_EQ(san(ROOKS_ON_FILE, "a1a3"), "R1a3");
    EXPECT_EQ(san(ROOKS_ON_FILE, "a5a3"), "R5a3");
    EXPECT_EQ(san(THREE_QUEENS, "a1b2"), "Qa1b2");
    EXPECT_EQ(san(THREE_QUEENS, "c1b2"), "Qcb2");
    EXPECT_EQ(san(THREE_QUEENS, "a3b2"), "Q3b2");
    EXPECT_EQ(san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2"), "Nbd2");
    EXPECT_EQ(san("1Q1Q1Q2/8/1Q3Q2/8/1Q1Q1Q2/8/8/K6k w - - 0 1", "b8d6"), "Qb8d6");
    EXPECT_EQ(san("1Q1Q1Q2/8/1Q3Q2/8/1Q1Q1Q2/8/8/K6k w - - 0 1", "d8c7"), "Qdc7");
    // A pinned twin does not count: only one knight can legally go to d2.
    EXPECT_EQ(san("4k3/4r3/8/8/4N3/8/8/1N2K3 w - - 0 1", "b1d2"), "Nd2");
}

TEST(ProbeNotation, SanCapturesPromotionsChecksMates) {
    EXPECT_EQ(san(PROMOTION, "e7e8q"), "e8=Q+");
    EXPECT_EQ(san(PROMOTION, "e7e8n"), "e8=N");
    EXPECT_EQ(san(PROMOTION, "e7d8q"), "exd8=Q+");
    EXPECT_EQ(san(PROMOTION, "e7d8n"), "exd8=N");
    EXPECT_EQ(san(MATE_IN_ONE, "g1g8"), "Qg8#");
    EXPECT_EQ(san(MATE_IN_ONE, "g1a1"), "Qa1+");
    EXPECT_EQ(san(MATE_IN_ONE, "g1h2"), "Qh2");
    EXPECT_EQ(san(MATE_IN_ONE, "g1g2"), "Qg2+");
    EXPECT_EQ(san(EN_PASSANT, "e4d3"), "exd3");
    EXPECT_EQ(san("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1e2"), "Kxe2");
}

TEST(ProbeNotation, SanLineNumbersMoves) {
    const Position pos = fen(MATE_IN_ONE);
    EXPECT_EQ(san_line(pos, {Move(Square(6), Square(62))}), "1. Qg8#");
    const Position black = fen("8/8/8/4k3/8/8/8/4K2Q b - - 0 1");
    EXPECT_EQ(san_line(black, {Move(Square(36), Square(43)), Move(Square(7), Square(23))}),
              "1... Kd6 2. Qh3");
    EXPECT_EQ(uci_line({Move(Square(36), Square(43)), Move(Square(7), Square(23))}), "e5d6 h1h3");
}

TEST(ProbeNotation, ParsesSanVariantsAndUci) {
    EXPECT_EQ(parsed(TWO_ROOKS, "Rad1"), "a1d1");
    EXPECT_EQ(parsed(TWO_ROOKS, " Rhd1+ "), "h1d1");
    EXPECT_EQ(parsed(TWO_ROOKS, "Ra1-d1"), "a1d1");
    EXPECT_EQ(parsed(TWO_ROOKS, "a1d1"), "a1d1");
    EXPECT_EQ(parsed(THREE_QUEENS, "Qa1b2"), "a1b2");
    EXPECT_EQ(parsed(PROMOTION, "e8=Q"), "e7e8q");
    EXPECT_EQ(parsed(PROMOTION, "e8Q+"), "e7e8q");
    EXPECT_EQ(parsed(PROMOTION, "e8=n"), "e7e8n");
    EXPECT_EQ(parsed(PROMOTION, "exd8=R"), "e7d8r");
    EXPECT_EQ(parsed(PROMOTION, "e7d8b"), "e7d8b");
    EXPECT_EQ(parsed(PROMOTION, "e7e8Q"), "e7e8q");
    EXPECT_EQ(parsed(EN_PASSANT, "exd3"), "e4d3");
    EXPECT_EQ(parsed(EN_PASSANT, "exd3 e.p."), "e4d3");
    EXPECT_EQ(parsed(EN_PASSANT, "e4d3"), "e4d3");
    // Black is in check from the pawn that just moved: only taking it (or the king) helps.
    EXPECT_NE(parsed(EN_PASSANT, "e3").find("would leave the black king in check"), std::string::npos);
    EXPECT_EQ(parsed(MATE_IN_ONE, "Qg8#"), "g1g8");
    EXPECT_EQ(parsed(MATE_IN_ONE, "qg8"), "g1g8");
    EXPECT_EQ(parsed(MATE_IN_ONE, "Qg8!?"), "g1g8");
    EXPECT_EQ(parsed("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "Kxe2"), "e1e2");
    EXPECT_EQ(parsed("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "Ke2"), "e1e2");  // the 'x' may be left out
}

TEST(ProbeNotation, RefusesWithReasons) {
    const auto error = [](const std::string& f, const std::string& text) {
        const ParsedMove p = parse_move(fen(f), text);
        EXPECT_FALSE(p) << text << " was accepted as " << (p ? to_uci(*p.move) : "");
        EXPECT_FALSE(p.error.empty()) << text;
        return p.error;
    };
    EXPECT_NE(error(TWO_ROOKS, "Rd1").find("ambiguous: Rd1 could be Rad1 or Rhd1"), std::string::npos);
    EXPECT_NE(error(THREE_QUEENS, "Qb2").find("ambiguous"), std::string::npos);
    EXPECT_NE(error(THREE_QUEENS, "Qab2").find("Qa1b2 or Q3b2"), std::string::npos);
    EXPECT_NE(error(PROMOTION, "e8").find("must promote; say e8=Q, e8=R, e8=B or e8=N"), std::string::npos);
    EXPECT_NE(error(PROMOTION, "e7e8").find("must promote; say e7e8q"), std::string::npos);
    EXPECT_NE(error(PROMOTION, "e8=K").find("promotes to Q, R, B or N"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "a1a5q").find("only a pawn reaching the last rank promotes"),
              std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "Nf3").find("there is no white knight"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "Rb2").find("no white rook can move to b2"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "Ke9").find("neither SAN"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "hello").find("neither SAN"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "").find("no move given"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "O-O").find("castling"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "0-0-0+").find("castling"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "o-o").find("castling"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "0000").find("null move"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "e3e4").find("no piece on e3"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "e8e7").find("black's and it is white's turn"), std::string::npos);
    EXPECT_NE(error(TWO_ROOKS, "Rxa7").find("nothing to capture on a7"), std::string::npos);
    EXPECT_NE(error(PINNED, "Nc3").find("would leave the white king in check"), std::string::npos);
    EXPECT_NE(error(PINNED, "e2c3").find("would leave the white king in check"), std::string::npos);
    EXPECT_NE(error("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kd1").find("it would be in check there"),
              std::string::npos);
    EXPECT_NE(error(PINNED, "e1e2").find("a white knight stands there"), std::string::npos);
    EXPECT_NE(error("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "Kb8").find("black is checkmated"), std::string::npos);
    EXPECT_NE(error("k7/8/1QK5/8/8/8/8/8 b - - 0 1", "a8b8").find("black is stalemated"), std::string::npos);
}

TEST(ProbeNotation, RoundTripsOnTrickyPositions) {
    for (const char* f :
         {TWO_ROOKS, ROOKS_ON_FILE, THREE_QUEENS, PROMOTION, MATE_IN_ONE, EN_PASSANT, PINNED,
          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
          "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1", "1Q1Q1Q2/8/1Q3Q2/8/1Q1Q1Q2/8/8/K6k w - - 0 1",
          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
          "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w - - 0 1"})
        check_round_trips(fen(f));
}

TEST(ProbeNotation, RoundTripsOnRandomPositions) {
    std::mt19937_64 rng(7);
    const PieceType pieces[] = {QUEEN, QUEEN, ROOK, ROOK, BISHOP, BISHOP, KNIGHT, KNIGHT, PAWN, PAWN, PAWN};
    int checked = 0;
    while (checked < 2000) {
        Position pos;
        pos.set_side_to_move(Color(rng() & 1));
        bool ok = true;
        const int extra = 2 + int(rng() % 7);
        for (int i = 0; i < extra + 2 && ok; ++i) {
            const Square s = Square(rng() % 64);
            const Color c = i < 2 ? Color(i) : Color(rng() & 1);
            const PieceType t = i < 2 ? KING : pieces[rng() % std::size(pieces)];
            ok = !(pos.occupied() & square_bb(s)) && (t != PAWN || (square_bb(s) & PAWN_RANKS));
            pos.put({c, t}, s);
        }
        if (!ok || !pos.illegality().empty()) continue;
        check_round_trips(pos);
        ++checked;
    }
}

TEST(ProbeNotation, GarbageIsRefusedWithoutThrowing) {
    const Position pos = fen(PROMOTION);
    std::mt19937_64 rng(11);
    const std::string alphabet = "abcdefghKQRBNPqrbnkp12345678x=+#-:O0 .e?!";
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string text;
        for (int n = int(rng() % 8); n > 0; --n) text += alphabet[rng() % alphabet.size()];
        ParsedMove p;
        EXPECT_NO_THROW(p = parse_move(pos, text)) << text;
        if (p)
            ++accepted;
        else
            EXPECT_FALSE(p.error.empty()) << text;
    }
    EXPECT_GT(accepted, 0);
}
