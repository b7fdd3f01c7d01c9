// tbgen end to end: the built executable run on temporary directories.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "index/index_scheme.hpp"
#include "probe/tablebase.hpp"
#include "solve/checkpoint.hpp"
#include "solve/solver.hpp"
#include "store/table_file.hpp"
#include "store/table_reader.hpp"
#include "support/app_run.hpp"
#include "support/checkpoint_test_util.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

using Outcome = test::AppOutcome;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A fresh directory for one test, removed at its end.
class TbgenCli : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               ("retro_tbgen_cli_" + std::string(info->name()) + "_" + std::to_string(getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // Runs tbgen with the given arguments (shell syntax), capturing its exit status and output.
    Outcome tbgen(const std::string& args) const { return test::run_app("tbgen", args, dir_); }

    // The names of the files in d with this extension.
    static std::set<std::string> files(const fs::path& d, const std::string& ext) {
        std::set<std::string> out;
        for (const auto& e : fs::directory_iterator(d))
            if (e.path().extension() == ext) out.insert(e.path().filename().string());
        return out;
    }

    fs::path dir_;
};

}  // namespace

// KQvKR needs KQvK and KRvK (the rook side's table with colours swapped): both are built first; a
// second run finds the three files complete and solves nothing.
TEST_F(TbgenCli, BuildsSubTablesFirstThenSkipsThem) {
    const fs::path tables = dir_ / "tables";
    const Outcome first = tbgen("KQvKR -o " + tables.string() + " --json");
    ASSERT_EQ(first.status, 0) << first.err;

    const auto kqk = first.err.find("KQvK: solving"), krk = first.err.find("KRvK: solving"),
               kqkr = first.err.find("KQvKR: solving");
    ASSERT_NE(kqk, std::string::npos) << first.err;
    ASSERT_NE(krk, std::string::npos) << first.err;
    ASSERT_NE(kqkr, std::string::npos) << first.err;
    EXPECT_LT(kqk, kqkr) << first.err;
    EXPECT_LT(krk, kqkr) << first.err;
    EXPECT_EQ(files(tables, ".rtb"), (std::set<std::string>{"KQvK.rtb", "KRvK.rtb", "KQvKR.rtb"}));
    EXPECT_TRUE(files(tables, ".tmp").empty());
    for (const char* f : {"KQvK.rtb", "KRvK.rtb", "KQvKR.rtb"})
        EXPECT_TRUE(table_file_valid(tables / f)) << f;

    // --json: one line, the named table only, with its longest wins (69 plies for White, 37 for Black).
    EXPECT_EQ(std::count(first.out.begin(), first.out.end(), '\n'), 1) << first.out;
    EXPECT_EQ(first.out.rfind("{\"material\":\"KQvKR\"", 0), 0u) << first.out;
    const auto btm = first.out.find("\"btm\"");
    ASSERT_NE(btm, std::string::npos) << first.out;
    EXPECT_NE(first.out.substr(0, btm).find("\"longest_win\":69,"), std::string::npos) << first.out;
    EXPECT_NE(first.out.substr(btm).find("\"longest_win\":37,"), std::string::npos) << first.out;
    EXPECT_NE(first.out.find("\"legal\":8952608,"), std::string::npos) << first.out;

    const std::string bytes = slurp(tables / "KQvKR.rtb");
    const auto written = fs::last_write_time(tables / "KQvKR.rtb");
    const Outcome second = tbgen("KQvKR -o " + tables.string() + " --json");
    ASSERT_EQ(second.status, 0) << second.err;
    EXPECT_EQ(second.err.find("solving"), std::string::npos) << second.err;
    EXPECT_EQ(second.out, first.out);
    EXPECT_EQ(fs::last_write_time(tables / "KQvKR.rtb"), written);
    EXPECT_TRUE(slurp(tables / "KQvKR.rtb") == bytes);
}

TEST_F(TbgenCli, BadMaterialsAreRefused) {
    const struct {
        const char* material;
        const char* message;
    } cases[] = {
        {"KQvQ", "king"},        // Black has no king
        {"KQvK7", "'7'"},        // not a piece letter
        {"KQRBvKQRB", "8 men"},  // too many men
        {"KQvKR,", "','"},       // stray character
        {"KQKR", "'v'"},         // no separator between the sides
    };
    for (const auto& c : cases) {
        const fs::path out = dir_ / "tables";
        const Outcome r = tbgen(std::string(c.material) + " -q -o " + out.string());
        EXPECT_NE(r.status, 0) << c.material;
        EXPECT_NE(r.err.find("error"), std::string::npos) << c.material << ": " << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.material << ": " << r.err;
        EXPECT_TRUE(!fs::exists(out) || files(out, ".rtb").empty()) << c.material << ": a table was written";
    }
}

// --verify re-derives a good file; a truncated or corrupted file, or one whose values are wrong
// under a valid checksum, fails with a message that names the file.
TEST_F(TbgenCli, VerifyFiles) {
    const fs::path good = dir_ / "good";
    ASSERT_EQ(tbgen("KQvK -q -o " + good.string()).status, 0);
    const fs::path file = good / "KQvK.rtb";
    const Outcome ok = tbgen("--verify " + file.string());
    EXPECT_EQ(ok.status, 0) << ok.out << ok.err;
    EXPECT_NE(ok.out.find("ok"), std::string::npos) << ok.out;

    const std::string bytes = slurp(file);
    auto check_fails = [&](const std::string& name, const std::string& content) {
        const fs::path d = dir_ / name;
        fs::create_directories(d);
        std::ofstream(d / "KQvK.rtb", std::ios::binary) << content;
        const Outcome r = tbgen("--verify " + (d / "KQvK.rtb").string());
        EXPECT_NE(r.status, 0) << name << ": " << r.out << r.err;
        EXPECT_NE((r.out + r.err).find((d / "KQvK.rtb").string()), std::string::npos)
            << name << ": the message should name the file\n"
            << r.out << r.err;
        return r;
    };
    check_fails("truncated", bytes.substr(0, bytes.size() / 2));
    check_fails("header_only", bytes.substr(0, 20));
    check_fails("empty", "");
    std::string flipped = bytes;
    flipped[flipped.size() - 1000] ^= 0x04;
    check_fails("flipped", flipped);

    // A wrong value under a valid checksum: only re-deriving it finds it. (The file's values are
    // settled by exits, format version 5: a Tablebase completes them.)
    auto table = std::make_unique<Table>(*Tablebase(good).find(Material::parse("KQvK")));
    auto legal_win = [&](uint64_t i) {
        Position pos;
        if (!table->scheme.decode(i, pos)) return false;
        pos.set_side_to_move(WHITE);
        return pos.illegality().empty() && is_win(table->value(WHITE, i));
    };
    uint64_t i = table->scheme.size() / 2;
    while (!legal_win(i)) ++i;
    table->set(WHITE, i, DTM_DRAW);
    fs::create_directories(dir_ / "wrong");
    write_table(*table, dir_ / "wrong" / "KQvK.rtb");
    const Outcome wrong = check_fails("wrong", slurp(dir_ / "wrong" / "KQvK.rtb"));
    EXPECT_NE(wrong.out.find("FAILED"), std::string::npos) << wrong.out;
    EXPECT_NE(wrong.out.find(" - - 0 1: stored "), std::string::npos)
        << "the mismatch names a FEN: " << wrong.out;
}

TEST_F(TbgenCli, Help) {
    const Outcome r = tbgen("--help");
    EXPECT_EQ(r.status, 0) << r.err;
    for (const char* option : {"Usage", "MATERIAL", "--output", "--threads", "--json", "--verify", "--quiet"})
        EXPECT_NE(r.out.find(option), std::string::npos) << option << " not in\n" << r.out;
    // --all takes what materials_up_to accepts.
    EXPECT_NE(r.out.find("3 to N men (N = 3 to " + std::to_string(MAX_MEN) + ")"), std::string::npos)
        << r.out;

    const Outcome none = tbgen("");
    EXPECT_NE(none.status, 0);
    EXPECT_NE((none.out + none.err).find("Usage"), std::string::npos);

    const Outcome unknown = tbgen("--no-such-option KQvK");
    EXPECT_NE(unknown.status, 0);
    EXPECT_NE(unknown.err.find("no-such-option"), std::string::npos) << unknown.err;
}

// A dry run in a new directory projects the job's time by the cost model, the largest tables apart;
// once a table of each kind is timed there (tbgen.times), by the rates measured. --calibrate prints the
// calibration the model scales by.
TEST_F(TbgenCli, DryRunProjectsTheTime) {
    const fs::path tables = dir_ / "tables";
    const Outcome fresh = tbgen("--all 4 --dry-run -t 2 -o " + tables.string());
    ASSERT_EQ(fresh.status, 0) << fresh.err;
    EXPECT_NE(fresh.err.find("projected time: about "), std::string::npos) << fresh.err;
    EXPECT_NE(
        fresh.err.find(" for 35 tables by the cost model (per-entry rates measured on a reference machine, "
                       "this machine "),
        std::string::npos)
        << fresh.err;
    EXPECT_NE(fresh.err.find("projected time of the largest tables: "), std::string::npos) << fresh.err;
    EXPECT_FALSE(fs::exists(tables)) << "a dry run builds nothing";

    fs::create_directories(tables);
    std::ofstream(tables / "tbgen.times") << "KQvK 100000 1\nKPvK 100000 1\nKQvKR 100000 1\nKRvKP 100000 1\n";
    const Outcome timed = tbgen("--all 4 --dry-run -o " + tables.string());
    ASSERT_EQ(timed.status, 0) << timed.err;
    EXPECT_NE(timed.err.find(" for 35 tables at the rates of 4 tables built here"), std::string::npos)
        << timed.err;
    EXPECT_EQ(timed.err.find("cost model"), std::string::npos) << timed.err;

    const Outcome calibration = tbgen("--calibrate");
    ASSERT_EQ(calibration.status, 0) << calibration.err;
    EXPECT_EQ(calibration.out.rfind("calibration: ", 0), 0u) << calibration.out;
    EXPECT_NE(calibration.out.find(" times the reference machine's time"), std::string::npos)
        << calibration.out;
}

// --wdl writes a bitbase beside every table, and its win/draw/loss agrees with the DTM table on every
// entry that is a legal position; the files are zstd's unless --codec says otherwise (xz for the
// shipping form, in blocks of 2^20 entries unless --block-entries says otherwise), and --codec and
// --level (xz's extreme presets too: "9e") write files that read back to the same values.
TEST_F(TbgenCli, WritesWdlBitbasesAndOtherCodecs) {
    const fs::path zstd = dir_ / "zstd", xz = dir_ / "xz", shipping = dir_ / "shipping";
    ASSERT_EQ(tbgen("KRvK --wdl -q -o " + zstd.string()).status, 0);
    EXPECT_EQ(files(zstd, ".rtw"), (std::set<std::string>{"KRvK.rtw"}));
    const auto header = [](const fs::path& d) {
        return TableReader(table_path(d, Material::parse("KRvK")), format::Metric::Dtm).header();
    };
    const auto codec = [&](const fs::path& d) { return header(d).codec; };
    EXPECT_EQ(codec(zstd), Codec::Zstd);
    // The whole table of a directory, its values settled by exits completed (format version 5).
    const auto whole = [](const fs::path& d) { return Tablebase(d).find(Material::parse("KRvK")); };
    const auto dtm = whole(zstd);
    const auto wdl = read_wdl(zstd / "KRvK.rtw");
    // Calls check(side, index, position) for each legal entry of KRvK; returns their number.
    const auto each_legal = [&](const auto& check) {
        uint64_t legal = 0;
        for (Color side : {WHITE, BLACK})
            for (uint64_t i = 0; i < dtm->scheme.size(); ++i) {
                Position pos;
                if (!dtm->scheme.decode(i, pos)) continue;
                pos.set_side_to_move(side);
                if (!pos.illegality().empty()) continue;
                ++legal;
                check(side, i, pos);
            }
        return legal;
    };
    const uint64_t legal = each_legal([&](Color side, uint64_t i, const Position& pos) {
        ASSERT_EQ(wdl->value(side, i), wdl_of(dtm->value(side, i))) << pos.fen();
    });
    EXPECT_EQ(legal, 21959u + 28056u);  // KRvK legal entries, white and black to move (tbindex)

    ASSERT_EQ(tbgen("KRvK --codec xz -q -o " + xz.string()).status, 0);
    EXPECT_EQ(codec(xz), Codec::Xz);
    EXPECT_TRUE(*whole(xz) == *dtm);
    EXPECT_NE(tbgen("KRvK --codec lz4 -o " + xz.string()).status, 0);
    ASSERT_EQ(tbgen("KRvK --shipping -q -o " + shipping.string()).status, 0);
    EXPECT_EQ(codec(shipping), Codec::Xz);
    const auto block_entries = [&](const fs::path& d) { return header(d).block_entries; };
    EXPECT_EQ(block_entries(shipping), 1u << 20);  // the shipping form's blocks: 1 MiB of codes
    EXPECT_EQ(block_entries(zstd), 1u << 17);
    const fs::path shipping_small = dir_ / "shipping-small-blocks";
    ASSERT_EQ(tbgen("KRvK --shipping --block-entries 8192 -q -o " + shipping_small.string()).status, 0);
    EXPECT_EQ(block_entries(shipping_small), 8192u);

    const fs::path fast = dir_ / "fast";
    ASSERT_EQ(tbgen("KRvK --level 1 -q -o " + fast.string()).status, 0);
    EXPECT_TRUE(*whole(fast) == *dtm);
    EXPECT_NE(fs::file_size(fast / "KRvK.rtb"), fs::file_size(zstd / "KRvK.rtb"));
    const auto too_high = tbgen("KRvK --codec zstd --level 23 -o " + fast.string());
    EXPECT_EQ(too_high.status, 1);
    EXPECT_NE(too_high.err.find("--level for zstd takes 0 to 22, not '23'"), std::string::npos)
        << too_high.err;
    // xz's extreme preset: the same values; only xz has one, and a level is a number.
    const fs::path extreme = dir_ / "extreme";
    ASSERT_EQ(tbgen("KRvK --codec xz --level 9e -q -o " + extreme.string()).status, 0);
    EXPECT_TRUE(*whole(extreme) == *dtm);
    for (const char* bad : {"--codec zstd --level 15e", "--level 6x", "--level e", "--level 10e"}) {
        const auto refused = tbgen(std::string("KRvK ") + bad + " -o " + extreme.string());
        EXPECT_EQ(refused.status, 1) << bad;
        EXPECT_NE(refused.err.find("--level for "), std::string::npos) << bad << ": " << refused.err;
    }

    // Smaller blocks: the same values (holes take each block's most common value, so they differ).
    const fs::path small = dir_ / "small-blocks";
    ASSERT_EQ(tbgen("KRvK --codec zstd --block-entries 4096 -q -o " + small.string()).status, 0);
    const auto small_blocks = whole(small);
    each_legal([&](Color side, uint64_t i, const Position& pos) {
        ASSERT_EQ(small_blocks->value(side, i), dtm->value(side, i)) << pos.fen();
    });
    EXPECT_EQ(TableReader(small / "KRvK.rtb", format::Metric::Dtm).header().block_entries, 4096u);
    const auto odd = tbgen("KRvK --block-entries 5000 -o " + small.string());
    EXPECT_EQ(odd.status, 1);
    EXPECT_NE(odd.err.find("--block-entries takes a power of two from 1024 to 16777216"), std::string::npos)
        << odd.err;
}

// A full disk while a table is solved (a file size limit stands in for it: writes fail with EFBIG;
// KQvKR's layer log, about 4 MB, is the first file to meet it): a clear error naming the file and
// the peak memory, exit status 1, no table file of that table left under its name or a temporary
// one. The same command without the limit then builds it, over the layer log left behind.
TEST_F(TbgenCli, FullDiskStopsWithAClearErrorAndResumes) {
    const fs::path out = dir_ / "tables";
    const std::string command = "KQvKR -q -o " + out.string();
    rlimit old{}, small{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 200 << 10;     // KQvK and KRvK fit (about 10 KB each), KQvKR (1 MB) does not
    std::signal(SIGXFSZ, SIG_IGN);  // inherited by tbgen: a failed write instead of a core dump
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    const Outcome full = tbgen(command);
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);

    EXPECT_EQ(full.status, 1) << full.err;
    EXPECT_NE(full.err.find("KQvKR.layers: write failed: File too large"), std::string::npos) << full.err;
    EXPECT_NE(full.err.find("peak memory"), std::string::npos) << full.err;
    EXPECT_NE(full.err.find("run the same command to resume"), std::string::npos) << full.err;
    EXPECT_EQ(files(out, ".rtb"), (std::set<std::string>{"KQvK.rtb", "KRvK.rtb"}));
    EXPECT_TRUE(files(out, ".tmp").empty());

    ASSERT_EQ(tbgen(command).status, 0);
    EXPECT_TRUE(table_file_valid(out / "KQvKR.rtb"));
}

namespace {

// A solver state of m with nothing decided, for checkpoints written by hand.
SweepState blank_state(const Material& m, int window, uint64_t log_length) {
    SweepState state = blank_sweep_state(IndexScheme(m).size());
    state.window = window;
    state.log_length = log_length;
    return state;
}

}  // namespace

// A checkpoint whose header claims 2^60 entries (its checksum no longer matches) is set
// aside with a warning and the table solved from the start, instead of an allocation failure that
// the advised "run the same command" would repeat for ever.
TEST_F(TbgenCli, DamagedCheckpointIsSetAsideAndTheTableSolved) {
    const fs::path out = dir_ / "tables";
    fs::create_directories(out);
    const Material m = Material::parse("KQvK");
    const fs::path checkpoint = checkpoint_path(out, m);
    const SweepState state = blank_state(m, 0, 0);
    write_checkpoint(checkpoint, m, 0, &state, {});
    const std::string bytes = test::with_state_entries(slurp(checkpoint), uint64_t(1) << 60);
    std::ofstream(checkpoint, std::ios::binary | std::ios::trunc) << bytes;

    const Outcome r = tbgen("KQvK -q -o " + out.string());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("KQvK: warning: " + checkpoint.string() + " is damaged"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("set aside as " + damaged_checkpoint_path(checkpoint).string()), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("resuming"), std::string::npos) << r.err;
    EXPECT_NE(slurp(out / "tbgen.log").find("KQvK: warning:"), std::string::npos);
    EXPECT_TRUE(table_file_valid(out / "KQvK.rtb"));
    EXPECT_FALSE(fs::exists(checkpoint));
    EXPECT_TRUE(slurp(damaged_checkpoint_path(checkpoint)) == bytes);
}

// A checkpoint that is intact but whose layer log is missing (the distances it found before) is set
// aside too: resuming from it would lose those distances.
TEST_F(TbgenCli, CheckpointWithoutItsLayerLogIsSetAside) {
    const fs::path out = dir_ / "tables";
    fs::create_directories(out);
    const Material m = Material::parse("KQvK");
    const fs::path checkpoint = checkpoint_path(out, m);
    const SweepState state = blank_state(m, state::WIDEST_WINDOW, 100);
    write_checkpoint(checkpoint, m, 0, &state, {});
    ASSERT_FALSE(fs::exists(layer_log_path(checkpoint)));

    const Outcome r = tbgen("KQvK -q -o " + out.string());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find(checkpoint.string() + " has no usable layer log"), std::string::npos) << r.err;
    EXPECT_TRUE(table_file_valid(out / "KQvK.rtb"));
    EXPECT_FALSE(fs::exists(checkpoint));
    EXPECT_FALSE(fs::exists(layer_log_path(checkpoint)));
}

// With a cache too small for anything, a pawn table keeps its solved slices on disk and reads its
// promotions in part; its file is written with its pawn digits first, settled by exits from the
// surveys its slices kept, and the tables it reads in part self-contained. The values are those of a
// job that holds everything whole.
TEST_F(TbgenCli, ACacheTooSmallKeepsSlicesOnDiskAndReadsPromotionsInPart) {
    const fs::path whole = dir_ / "whole", lean = dir_ / "lean";
    const Outcome a = tbgen("KPvK -q --codec zstd --level 1 -o " + whole.string());
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(a.err.find("read in part"), std::string::npos) << a.err;
    const Outcome b = tbgen("KPvK -q --codec zstd --level 1 --cache 1 -o " + lean.string());
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_NE(b.err.find("cache 1 B (--cache)"), std::string::npos) << b.err;
    EXPECT_NE(b.err.find("1 pawn table keeps its solved slices on disk"), std::string::npos) << b.err;
    EXPECT_NE(b.err.find("KPvK: solving 86688 entries per side, about"), std::string::npos) << b.err;
    EXPECT_NE(b.err.find("its slices on disk, its promotions read in part"), std::string::npos) << b.err;
    const Outcome diff = test::run_app("tbdiff", whole.string() + " " + lean.string(), dir_);
    EXPECT_EQ(diff.status, 0) << diff.out << diff.err;
    EXPECT_NE(diff.out.find("tables: 5 identical, 0 different"), std::string::npos) << diff.out;
    for (const char* name : {"KQvK", "KRvK"}) {
        const TableReader reader(table_path(lean, Material::parse(name)), format::Metric::Dtm);
        EXPECT_FALSE(reader.header().exits_settled()) << name;
    }
    const TableReader kpk(table_path(lean, Material::parse("KPvK")), format::Metric::Dtm);
    EXPECT_TRUE(kpk.header().exits_settled());
    EXPECT_TRUE(pawn_digits_lead(kpk.scheme(), kpk.digit_order()));
    EXPECT_TRUE(TableReader(table_path(whole, Material::parse("KQvK")), format::Metric::Dtm)
                    .header()
                    .exits_settled());
    EXPECT_TRUE(files(lean, ".slices").empty());
}

// A named table's statistics come from its solved values, also when its slices stayed on disk and
// its file keeps one side to move: read from the file, they would miss the dropped side ("the
// shipping form keeps no values for white to move").
TEST_F(TbgenCli, TheShippingFormOfATableSolvedOnDiskHasItsStatistics) {
    const fs::path whole = dir_ / "whole", lean = dir_ / "lean";
    const Outcome a = tbgen("KPvK --json -q --codec zstd --level 1 -o " + whole.string());
    ASSERT_EQ(a.status, 0) << a.err;
    const Outcome b = tbgen("KPvK --json -q --shipping --cache 1 -o " + lean.string());
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_NE(b.err.find("its slices on disk"), std::string::npos) << b.err;
    EXPECT_NE(a.out.find("\"material\":\"KPvK\""), std::string::npos) << a.out;
    EXPECT_EQ(b.out, a.out);
    const TableReader kpk(table_path(lean, Material::parse("KPvK")), format::Metric::Dtm);
    EXPECT_TRUE(kpk.header().dropped.has_value());
}
