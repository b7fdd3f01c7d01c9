// tbprobe end to end: tables written by tbgen, then the binary run in batch and single-FEN mode.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/app_run.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path BIN = RETRO_BIN_DIR;

using Outcome = retro::test::AppOutcome;

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

class TbprobeCli : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("retro_probe_cli_" + std::to_string(getpid()));
        fs::create_directories(dir_);
        const std::string cmd = (BIN / "tbgen").string() + " KQvK KRvK -q -o " + (dir_ / "tables").string() +
                                " > " + (dir_ / "tbgen.log").string() + " 2>&1";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(dir_ / "tbgen.log");
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    // Runs tbprobe with the given arguments and stdin text.
    static Outcome tbprobe(const std::string& args, const std::string& input = "") {
        return retro::test::run_app("tbprobe", args, dir_, input);
    }
    static std::string tables() { return "--tables " + (dir_ / "tables").string(); }

    static inline fs::path dir_;
};

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

}  // namespace

TEST_F(TbprobeCli, BatchWithErrors) {
    const std::vector<std::string> fens = {
        "8/8/8/4k3/8/8/8/4K2Q w - - 0 1",                         // KQvK, white to move
        "8/8/8/3k4/8/8/8/Q2K4 w - - 0 1",                         // its mirror image
        "4k3/8/8/8/8/8/r7/4K3 w - - 0 1",                         // KvKR: probed in KRvK
        "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",                         // checkmated
        "k7/8/1QK5/8/8/8/8/8 b - - 0 1",                          // stalemate
        "8/8/8/4k3/8/8/8/4K3 w - -",                              // bare kings, 4 fields
        "garbage",                                                // not a FEN
        "8/8/8/4k3/8/8/8/4KB1Q w - - 0 1",                        // no table
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",  // too many men
        "8/8/8/4k3/8/8/8/4K2Q w KQ - 0 1",                        // castling rights
        "8/8/8/4k3/8/8/8/4K2Q b - - 0 1",                         // KQvK, black to move
    };
    std::string input;
    for (const auto& f : fens) input += f + "\n\n";  // blank lines are skipped
    const Outcome r = tbprobe(tables() + " --batch", input);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto out = lines(r.out);
    ASSERT_EQ(out.size(), fens.size()) << r.out;
    for (size_t i = 0; i < fens.size(); ++i) EXPECT_EQ(out[i].rfind(fens[i] + "\t", 0), 0u) << out[i];
    EXPECT_EQ(out[0], fens[0] + "\twin 13\th1c6");
    EXPECT_EQ(out[1].substr(0, out[1].rfind('\t')), fens[1] + "\twin 13");
    EXPECT_EQ(out[2].rfind(fens[2] + "\tloss ", 0), 0u) << out[2];
    EXPECT_EQ(out[3], fens[3] + "\tloss 0\t-");
    EXPECT_EQ(out[4], fens[4] + "\tdraw\t-");
    EXPECT_EQ(out[5], fens[5] + "\tdraw\te1d1");
    EXPECT_EQ(out[6], fens[6] + "\terror: bad FEN: a FEN has 4 or 6 fields, this one has 1");
    EXPECT_EQ(out[7].rfind(fens[7] + "\terror: no table for KQBvK", 0), 0u) << out[7];
    EXPECT_EQ(out[8].rfind(fens[8] + "\terror: the position has 32 men", 0), 0u) << out[8];
    EXPECT_EQ(out[9].rfind(fens[9] + "\terror: bad FEN: castling rights", 0), 0u) << out[9];
    EXPECT_EQ(out[10], fens[10] + "\tloss 18\te5d6");
}

TEST_F(TbprobeCli, SingleFen) {
    const Outcome r = tbprobe(tables() + " 8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("value:    win 13 (White mates in 7)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("best:     h1c6 (Qc6)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("line:     13 plies, ends in checkmate"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  SAN:    1. Qc6 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  UCI:    h1c6 "), std::string::npos) << r.out;
    const Outcome quiet = tbprobe(tables() + " --no-line '8/8/8/4k3/8/8/8/4K2Q w - - 0 1'");
    EXPECT_EQ(quiet.status, 0);
    EXPECT_EQ(quiet.out.find("line:"), std::string::npos) << quiet.out;
}

TEST_F(TbprobeCli, ErrorsAndUsage) {
    const Outcome bad = tbprobe(tables() + " 'garbage'");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("4 or 6 fields"), std::string::npos) << bad.err;
    const Outcome missing = tbprobe(tables() + " '8/8/8/4k3/8/8/8/4KB1Q w - - 0 1'");
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("no table for KQBvK"), std::string::npos) << missing.err;
    EXPECT_EQ(tbprobe("").status, 2);
    EXPECT_EQ(tbprobe("--bogus").status, 2);
    EXPECT_EQ(tbprobe("--batch --uci").status, 2);
    const Outcome help = tbprobe("--help");
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("--batch"), std::string::npos);
}

TEST_F(TbprobeCli, UciAndPlay) {
    const Outcome uci =
        tbprobe(tables() + " --uci", "uci\nposition fen 8/8/8/4k3/8/8/8/4K2Q w - - 0 1\ngo\nquit\n");
    EXPECT_EQ(uci.status, 0);
    EXPECT_NE(uci.out.find("uciok"), std::string::npos) << uci.out;
    EXPECT_NE(uci.out.find("bestmove h1c6"), std::string::npos) << uci.out;
    // The directory given by --tables is the option's default.
    EXPECT_NE(
        uci.out.find("option name TablebasePath type string default " + (dir_ / "tables").string() + "\n"),
        std::string::npos)
        << uci.out;
    const Outcome play =
        tbprobe(tables() + " --play white 8/8/8/4k3/8/8/8/4K2Q w - - 0 1", "Qh9\nQc6\nquit\n");
    EXPECT_EQ(play.status, 0);
    EXPECT_NE(play.out.find("Illegal move"), std::string::npos) << play.out;
    EXPECT_NE(play.out.find("I play 1... Kd4"), std::string::npos) << play.out;
}
