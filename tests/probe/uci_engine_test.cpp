#include "probe/uci_engine.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "support/probe_test_tables.hpp"
#include "support/store_test_util.hpp"

using namespace retro;

namespace {

// The engine's whole output for a script of commands.
std::string session(const std::string& script, const Tablebase& tables = retro::testing::three_man_tables()) {
    std::istringstream in(script);
    std::ostringstream out;
    UciEngine(tables, out).run(in);
    return out.str();
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST(ProbeUci, Handshake) {
    const std::string out = session("uci\nisready\nquit\n");
    EXPECT_TRUE(contains(out, "id name retrograde")) << out;
    EXPECT_TRUE(contains(out, "uciok\n")) << out;
    EXPECT_TRUE(contains(out, "readyok\n")) << out;
    EXPECT_LT(out.find("uciok"), out.find("readyok"));
}

TEST(ProbeUci, BestMoveFromTheTables) {
    const std::string out = session(
        "uci\nucinewgame\nposition fen 8/8/8/4k3/8/8/8/4K2Q w - - 0 1\ngo wtime 1000 btime 1000\n"
        "position fen 8/8/8/4k3/8/8/8/4K2Q w - - 0 1 moves h1c6\ngo depth 3\nquit\n");
    EXPECT_TRUE(contains(out, "info string tablebase: win in 13 plies (mate in 7)\nbestmove h1c6\n")) << out;
    EXPECT_TRUE(contains(out, "score mate 7 ")) << out;
    EXPECT_TRUE(contains(out, "info string tablebase: loss in 12 plies (mated in 6)\nbestmove e5d4\n"))
        << out;
    EXPECT_TRUE(contains(out, "score mate -6 ")) << out;
}

TEST(ProbeUci, ColourSwappedAndDraws) {
    const std::string out = session(
        "position fen 4k3/8/8/8/8/8/r7/4K3 b - - 0 1\ngo\nposition fen 8/8/8/8/8/8/1q6/K6k w - - 0 1\ngo\n");
    EXPECT_TRUE(contains(out, "info string tablebase: win in ")) << out;
    EXPECT_TRUE(contains(out, "info string tablebase: draw\nbestmove a1b2\n")) << out;
    EXPECT_TRUE(contains(out, "score cp 0")) << out;
}

TEST(ProbeUci, NotInTablesSaysSoAndStillMoves) {
    const std::string out = session(
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1\ngo\n"
        "position fen 8/8/8/4k3/8/8/8/4KB1Q w - - 0 1\ngo\n"
        "position fen r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1\ngo\n");
    EXPECT_TRUE(contains(out, "info string position not in tables: the position has 32 men")) << out;
    EXPECT_TRUE(contains(out, "info string position not in tables: no table for KQBvK")) << out;
    EXPECT_TRUE(contains(out, "not from the tables: playing the first legal move")) << out;
    EXPECT_EQ(out.find("bestmove 0000"), std::string::npos) << out;
    // Rights that cannot be used (no king or rook on its square) are ignored.
    const std::string ignored = session(
        "position fen 8/8/8/4k3/8/8/8/4K2Q w KQkq - 0 1\ngo\n"
        "position fen r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1\ngo\n");
    EXPECT_TRUE(contains(ignored, "info string tablebase: win in 13 plies (mate in 7)\nbestmove h1c6\n"))
        << ignored;
    EXPECT_TRUE(contains(ignored, "info string position not in tables: castling rights (Kq)")) << ignored;
}

TEST(ProbeUci, OddInputNeverCrashes) {
    const std::string out = session(
        "\n   \nfoo bar\nposition\nposition fen\nposition fen xx\ngo\nposition banana\ngo\n"
        "position fen 8/8/8/4k3/8/8/8/4K2Q w - - 0 1 moves h1h9\ngo\n"
        "position fen 8/8/8/4k3/8/8/8/4K2Q w - - 0 1 junk\ngo\nposition startpos junk\ngo\n"
        "position fen k7/1Q6/1K6/8/8/8/8/8 b - - 0 1\ngo\n"
        "position fen k7/8/1QK5/8/8/8/8/8 b - - 0 1\ngo\n"
        "position startpos moves\nposition startpos moves e2e5\ngo\nsetoption name Hash value 1\n"
        "go infinite\nisready\r\nstop\nd\nquit\nisready\n");
    EXPECT_TRUE(contains(out, "info string unknown command: foo")) << out;
    EXPECT_TRUE(contains(out, "bad FEN 'xx'")) << out;
    EXPECT_TRUE(contains(out, "illegal move 'h1h9'")) << out;
    EXPECT_TRUE(contains(out, "this one has 7")) << out;
    EXPECT_TRUE(contains(out, "unexpected 'junk'")) << out;
    EXPECT_TRUE(contains(out, "info string checkmated: no legal move\nbestmove 0000")) << out;
    EXPECT_TRUE(contains(out, "info string stalemate: no legal move\nbestmove 0000")) << out;
    EXPECT_TRUE(contains(out, "illegal move 'e2e5'")) << out;
    // "go infinite" answers only after "stop"; nothing after "quit".
    EXPECT_LT(out.rfind("readyok"), out.rfind("bestmove")) << out;
    EXPECT_EQ(out.find("readyok", out.rfind("bestmove")), std::string::npos) << out;
}

TEST(ProbeUci, EndOfInputWithoutQuit) {
    const std::string out = session("position fen 8/8/8/4k3/8/8/8/4K2Q w - - 0 1\ngo infinite\n");
    EXPECT_TRUE(contains(out, "bestmove h1c6\n")) << out;
}

TEST(ProbeUci, TablebaseOptions) {
    const std::string listed = session("uci\n", Tablebase());
    EXPECT_TRUE(contains(listed, "option name TablebasePath type string default <empty>\n")) << listed;
    EXPECT_TRUE(contains(listed, "option name TablebaseCache type spin default 64 min 1 max 65536\n"))
        << listed;
    EXPECT_LT(listed.find("option name"), listed.find("uciok"));

    // KQvK in a directory whose name has a space, as GUIs send any path.
    store_test::ScratchDir scratch("uci-options");
    const auto dir = scratch.path / "my tables";
    std::filesystem::create_directories(dir);
    const Material kqk = Material::parse("KQvK");
    write_table(*retro::testing::three_man_tables().find(kqk), table_path(dir, kqk));
    const std::string go = "position fen 8/8/8/4k3/8/8/8/4K2Q w - - 0 1\ngo\n";
    const std::string out = session(
        go + "setoption name TablebasePath value " + dir.string() + "\n" + go +
            "setoption name tablebasepath value " + (dir / "missing").string() + "\n" + go +
            "setoption name TablebaseCache value 0\n" + "setoption name TablebaseCache value 8\n" + go +
            "setoption name TablebasePath value <empty>\n" + go + "setoption name Hash value 16\nsetoption\n",
        Tablebase());
    // Missing before, found after; a bad directory or cache size keeps the tables, and says why.
    const size_t opened =
        out.find("info string tables: 1 table files in " + dir.string() + ", 64 MiB cache\n");
    ASSERT_NE(opened, std::string::npos) << out;
    EXPECT_LT(out.find("info string position not in tables: no table for KQvK\n"), opened) << out;
    const std::string found = "info string tablebase: win in 13 plies (mate in 7)\nbestmove h1c6\n";
    const size_t bad_dir =
        out.find("info string tables not changed: no such directory: " + (dir / "missing").string());
    ASSERT_NE(bad_dir, std::string::npos) << out;
    EXPECT_LT(out.find(found, opened), bad_dir) << out;
    const size_t bad_cache = out.find("info string TablebaseCache takes MiB from 1 to 65536, not '0'\n");
    ASSERT_NE(bad_cache, std::string::npos) << out;
    EXPECT_LT(out.find(found, bad_dir), bad_cache) << out;
    const size_t cache = out.find("info string tables: 1 table files in " + dir.string() + ", 8 MiB cache\n");
    ASSERT_NE(cache, std::string::npos) << out;
    EXPECT_NE(out.find(found, cache), std::string::npos) << out;
    // <empty>: no tables at all.
    const size_t none = out.find("info string tables: 0 table files in <empty>, 8 MiB cache\n");
    ASSERT_NE(none, std::string::npos) << out;
    EXPECT_NE(out.find("info string position not in tables: no table for KQvK\n", none), std::string::npos)
        << out;
    EXPECT_TRUE(contains(out, "info string unknown option: Hash\n")) << out;
    EXPECT_TRUE(contains(out, "info string 'setoption' needs 'name <id> [value <x>]'\n")) << out;
}
