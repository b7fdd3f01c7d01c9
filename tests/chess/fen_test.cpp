#include <gtest/gtest.h>

#include <string>

#include "chess/position.hpp"

using namespace retro;

namespace {

// The message of the PositionError that from_fen throws, or "" when it accepts the FEN.
std::string fen_error(const std::string& fen) {
    try {
        Position::from_fen(fen);
    } catch (const PositionError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Fen, RoundTrip) {
    for (const char* fen : {
             "8/8/8/8/8/8/8/K1k5 w - - 0 1",
             "8/8/8/8/8/8/8/K1k5 b - - 0 1",
             "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
             "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
             "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
             "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
             "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
             "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
         }) {
        const Position pos = Position::from_fen(fen);
        const Position again = Position::from_fen(pos.fen());
        EXPECT_EQ(again, pos) << fen;
        EXPECT_EQ(again.fen(), pos.fen()) << fen;
        // fen() writes the move counters as "0 1"; everything before them must be kept verbatim.
        const std::string prefix(fen, std::string(fen).rfind(' ', std::string(fen).rfind(' ') - 1));
        EXPECT_EQ(pos.fen().substr(0, prefix.size()), prefix) << fen;
    }
}

TEST(Fen, ReadsPiecesSideAndEnPassant) {
    const Position pos = Position::from_fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    EXPECT_EQ(pos.side_to_move(), BLACK);
    EXPECT_EQ(pos.ep_square(), parse_square("d3"));
    EXPECT_EQ(pos.type_on(parse_square("d4")), PAWN);
    EXPECT_EQ(pos.color_on(parse_square("d4")), WHITE);
    EXPECT_EQ(pos.color_on(parse_square("e4")), BLACK);
    EXPECT_EQ(pos.king(WHITE), parse_square("e1"));
    EXPECT_EQ(pos.king(BLACK), parse_square("c5"));
    EXPECT_EQ(popcount(pos.occupied()), 4);
}

TEST(Fen, FourFieldsAreEnough) {
    EXPECT_EQ(Position::from_fen("8/8/8/8/8/8/8/K1k5 w - -"),
              Position::from_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1"));
}

struct BadFen {
    const char* fen;
    const char* message;  // a substring of the error message
};

// Each bad FEN is rejected with a PositionError whose message says what is wrong.
TEST(Fen, BadFenRejectedWithClearMessage) {
    const BadFen cases[] = {
        // field count
        {"", "this one has 0"},
        {"8/8/8/8/8/8/8/K1k5 w -", "a FEN has 4 or 6 fields, this one has 3"},
        {"8/8/8/8/8/8/8/K1k5 w - - 0", "this one has 5"},
        {"8/8/8/8/8/8/8/K1k5 w - - 0 1 x", "this one has 7"},
        // piece letters
        {"8/8/8/8/8/8/8/K1k4X w - - 0 1", "bad piece letter 'X'"},
        {"8/8/8/8/8/8/8/K1k3x1 w - - 0 1", "bad piece letter 'x'"},
        {"8/8/8/8/8/8/8/K1k5_ w - - 0 1", "bad piece letter '_'"},
        // kings
        {"8/8/8/8/8/8/8/K7 w - - 0 1", "the black king is missing"},
        {"8/8/8/8/8/8/8/k7 b - - 0 1", "the white king is missing"},
        {"8/8/8/8/8/8/8/8 w - - 0 1", "king is missing"},
        {"8/8/8/8/8/8/8/K1k1K3 w - - 0 1", "white has 2 kings"},
        {"k7/8/8/8/8/8/8/K1k5 w - - 0 1", "black has 2 kings"},
        // pawns on the back ranks
        {"8/8/8/8/8/8/8/K1k2P2 w - - 0 1", "a pawn stands on the first or last rank"},
        {"8/8/8/8/8/8/8/K1k2p2 w - - 0 1", "a pawn stands on the first or last rank"},
        {"5P2/8/8/8/8/8/8/K1k5 w - - 0 1", "a pawn stands on the first or last rank"},
        {"5p2/8/8/8/8/8/8/K1k5 b - - 0 1", "a pawn stands on the first or last rank"},
        // the side not to move in check
        {"k6R/8/8/8/8/8/8/K7 w - - 0 1", "the side not to move (black) is in check"},
        {"K6r/8/8/8/8/8/8/k7 b - - 0 1", "the side not to move (white) is in check"},
        {"8/8/8/8/8/8/1k6/K7 w - - 0 1", "the side not to move (black) is in check"},  // kings touch
        // impossible en passant squares: wrong rank
        {"4k3/8/8/3pP3/8/8/8/4K3 w - d5 0 1", "en passant square d5 is on the wrong rank"},
        {"4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", "en passant square d3 is on the wrong rank"},
        {"4k3/8/8/8/3Pp3/8/8/4K3 b - d6 0 1", "en passant square d6 is on the wrong rank"},
        // no pawn that could have made the double push
        {"4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", "needs a black pawn on d5"},
        {"4k3/8/8/3PP3/8/8/8/4K3 w - d6 0 1", "needs a black pawn on d5"},  // a white pawn there
        {"4k3/8/8/3nP3/8/8/8/4K3 w - d6 0 1", "needs a black pawn on d5"},  // a knight there
        {"4k3/8/8/8/4p3/8/8/4K3 b - d3 0 1", "needs a white pawn on d4"},
        // the squares the pawn passed must be empty
        {"4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 1", "d6 must be empty"},
        {"4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1", "d7 must be empty"},
        {"4k3/8/8/8/3Pp3/3N4/8/4K3 b - d3 0 1", "d3 must be empty"},
        {"4k3/8/8/8/3Pp3/8/3N4/4K3 b - d3 0 1", "d2 must be empty"},
        // the double push could not have been played: white was in check before it
        {"4k3/8/8/r2p3K/8/8/8/8 w - d6 0 1", "white would already have been in check"},
        // castling rights
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling rights ('KQkq')"},
        {"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "castling rights ('K')"},
        // ranks of the wrong length, or the wrong number of ranks
        {"8/8/8/8/8/8/8/K1k4 w - - 0 1", "rank 1 does not have 8 squares"},
        {"8/8/8/7/8/8/8/K1k5 w - - 0 1", "rank 5 does not have 8 squares"},
        {"8/8/8/8/8/8/8/K1k6 w - - 0 1", "rank 1 has more than 8 squares"},
        {"8/8/8/8/ppppppppp/8/8/K1k5 w - - 0 1", "rank 4 has more than 8 squares"},
        {"8/8/8/8/8/8/K1k5 w - - 0 1", "7 ranks, not 8"},
        {"8/8/8/8/8/8/8/8/K1k5 w - - 0 1", "more than 8 ranks"},
        // other fields
        {"bad FEN/8/8/8/8/8/8/K1k5 w - - 0 1", "fields"},
        {"4k3/8/8/3pP3/8/8/8/4K3 w - z9 0 1", "bad en passant square 'z9'"},
        {"8/8/8/8/8/8/8/K1k5 x - - 0 1", "side to move must be 'w' or 'b'"},
        {"8/8/8/8/8/8/8/K1k5 w - - a 1", "move counters must be numbers"}};
    for (const BadFen& bad : cases) {
        const std::string message = fen_error(bad.fen);
        EXPECT_FALSE(message.empty()) << "accepted: " << bad.fen;
        EXPECT_NE(message.find(bad.message), std::string::npos)
            << "FEN: " << bad.fen << "\nmessage: " << message << "\nexpected to contain: " << bad.message;
    }
}

TEST(Position, ShiftsOneManToAnEmptySquare) {
    Position pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 b - -");
    pos.shift({WHITE, ROOK}, make_square(0, 0), make_square(0, 6));
    EXPECT_EQ(pos, Position::from_fen("4k3/R7/8/8/8/8/8/4K3 b - -"));
}
