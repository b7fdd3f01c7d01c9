// tbdiff end to end: two directories of table files written here, then the binary run on them.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>

#include "index/legal_entries.hpp"
#include "solve/exit_settled.hpp"
#include "support/app_run.hpp"
#include "support/store_test_util.hpp"

namespace retro {
namespace {

namespace fs = std::filesystem;
using store_test::read_bytes;
using store_test::small_table;

// Directories a and b, each with KQvK.rtb and KRvK.rtb of the same solved tables.
class TbdiffCli : public ::testing::Test {
protected:
    TbdiffCli()
        : scratch_("tbdiff-" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name())) {
        for (const fs::path& d : {a(), b()}) {
            fs::create_directories(d);
            for (const char* name : {"KQvK", "KRvK"})
                write_table(*small_table(name), d / (std::string(name) + ".rtb"));
        }
    }
    fs::path a() const { return scratch_.path / "a"; }
    fs::path b() const { return scratch_.path / "b"; }
    test::AppOutcome tbdiff(const std::string& args) const {
        return test::run_app("tbdiff", args, scratch_.path);
    }
    test::AppOutcome tbdiff_a_b(const std::string& more = "") const {
        return tbdiff(a().string() + " " + b().string() + more);
    }

    enum class Entry { Legal, Hole };

    // Writes b/KRvK.rtb with one entry of White to move changed: a legal one (returns the line tbdiff
    // prints for it) or a hole.
    std::string change_krvk_in_b(Entry entry) const {
        const Table& a = *small_table("KRvK");
        Table t = a;
        Position pos;
        uint64_t i = 0;
        while (decode_legal(t.scheme, i, WHITE, pos) != (entry == Entry::Legal)) ++i;
        t.set(WHITE, i, a.value(WHITE, i) == 5 ? 7 : 5);
        write_table(t, b() / "KRvK.rtb");
        return "  white to move, index " + std::to_string(i) + ": " + pos.fen() +
               "  A: " + describe(a.value(WHITE, i)) + "  B: " + describe(t.value(WHITE, i)) + "\n";
    }

    store_test::ScratchDir scratch_;
};

TEST_F(TbdiffCli, IdenticalDirectories) {
    const test::AppOutcome r = tbdiff_a_b();
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("KQvK: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("KRvK: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("2 tables: 2 identical, 0 different"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nIDENTICAL\n"), std::string::npos) << r.out;
}

TEST_F(TbdiffCli, OneChangedEntryIsReportedWithItsFen) {
    const std::string line = change_krvk_in_b(Entry::Legal);
    const test::AppOutcome r = tbdiff_a_b();
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("KQvK: " + std::to_string(2 * small_table("KQvK")->size()) + " entries"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("KRvK: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("DIFFERENT: 1 legal entries differ"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
    EXPECT_NE(r.out.find("1 identical, 1 different"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("NOT IDENTICAL"), std::string::npos) << r.out;

    // Named materials: only those are compared.
    const test::AppOutcome named = tbdiff_a_b(" KQvK");
    EXPECT_EQ(named.status, 0) << named.out << named.err;
    EXPECT_EQ(named.out.find("KRvK"), std::string::npos) << named.out;
}

// A hole may hold anything: the files differ, their values do not.
TEST_F(TbdiffCli, AChangedHoleIsStillIdentical) {
    change_krvk_in_b(Entry::Hole);
    ASSERT_NE(read_bytes(a() / "KRvK.rtb"), read_bytes(b() / "KRvK.rtb"));
    const test::AppOutcome r = tbdiff_a_b();
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("2 identical"), std::string::npos) << r.out;
}

TEST_F(TbdiffCli, AFileMissingOnOneSideFails) {
    fs::remove(a() / "KRvK.rtb");
    const test::AppOutcome r = tbdiff_a_b();
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("KRvK: MISSING: no " + (a() / "KRvK.rtb").string()), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 identical, 0 different, 1 missing"), std::string::npos) << r.out;

    // Named, and missing on both sides.
    const test::AppOutcome named = tbdiff_a_b(" KBvK");
    EXPECT_EQ(named.status, 1) << named.out << named.err;
    EXPECT_NE(named.out.find("KBvK: MISSING"), std::string::npos) << named.out;
}

TEST_F(TbdiffCli, DamagedOrMismatchedFilesAreErrorsNotCrashes) {
    std::string bytes = read_bytes(b() / "KRvK.rtb");
    bytes[bytes.size() - 100] ^= 0x10;  // inside the last block: its checksum fails
    store_test::write_bytes(b() / "KRvK.rtb", bytes);
    fs::copy_file(a() / "KRvK.rtb", b() / "KQvK.rtb", fs::copy_options::overwrite_existing);

    const test::AppOutcome r = tbdiff_a_b();
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("KRvK: UNREADABLE: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("checksum mismatch"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("KQvK: UNREADABLE: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the file holds KRvK, not KQvK"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("0 identical, 0 different, 0 missing on one side, 2 unreadable"), std::string::npos)
        << r.out;
}

// Two directories of settled files of KPvK and its sub-tables: each file is complete only with its
// sub-tables read whole.
class TbdiffSettled : public TbdiffCli {
protected:
    TbdiffSettled() {
        for (const fs::path& d : {sa_, sb_}) {
            fs::create_directories(d);
            for (const Material& m : build_order({Material::parse("KPvK")}))
                write_settled_table(*store_test::small_tables().find(m), table_path(d, m), WriteOptions{},
                                    store_test::small_tables());
        }
    }
    const fs::path sa_ = scratch_.path / "settled_a", sb_ = scratch_.path / "settled_b",
                   copies_ = scratch_.path / "copies";
    const std::string dirs_ = " " + sa_.string() + " " + sb_.string();
};

// KPvK completes its file through its promotions' tables read whole, which are compared first and
// copied into both directories' copies once found identical; a table's own values still come from
// its files.
TEST_F(TbdiffSettled, ExactCopiesServeTheLaterTablesOnly) {
    const test::AppOutcome first = tbdiff("--exact-copies " + copies_.string() + dirs_);
    ASSERT_EQ(first.status, 0) << first.out << first.err;
    EXPECT_NE(first.out.find("5 tables: 5 identical"), std::string::npos) << first.out;
    EXPECT_GT(first.out.find("KPvK: "), first.out.find("KQvK: ")) << first.out;  // sub-tables first
    EXPECT_EQ(first.out.find(" completed from its sub-tables in "), std::string::npos) << first.out;
    for (const char* side : {"a", "b"}) {
        for (const char* name : {"KBvK", "KNvK", "KQvK", "KRvK"})
            EXPECT_TRUE(fs::exists(copies_ / side / (std::string(name) + ".exact"))) << side << name;
        EXPECT_FALSE(fs::exists(copies_ / side / "KPvK.exact"));  // no table of the run reads it
    }

    // B's KQvK damaged, but older than the copy: KPvK completes B's file through the copy; KQvK
    // itself is read from its file, and its copies removed.
    std::string bytes = read_bytes(sb_ / "KQvK.rtb");
    bytes[bytes.size() - 100] ^= 0x10;
    store_test::write_bytes(sb_ / "KQvK.rtb", bytes);
    fs::last_write_time(sb_ / "KQvK.rtb",
                        fs::last_write_time(copies_ / "b" / "KQvK.exact") - std::chrono::hours(1));
    const test::AppOutcome through_copy = tbdiff("--exact-copies " + copies_.string() + dirs_ + " KPvK");
    EXPECT_EQ(through_copy.status, 0) << through_copy.out << through_copy.err;
    const test::AppOutcome without = tbdiff(dirs_ + " KPvK");
    EXPECT_NE(without.out.find("KPvK: B: completing its sub-tables stopped: "), std::string::npos)
        << without.out;
    EXPECT_NE(without.out.find("KPvK: UNREADABLE: "), std::string::npos) << without.out;
    const test::AppOutcome own = tbdiff("--exact-copies " + copies_.string() + dirs_ + " KQvK");
    EXPECT_EQ(own.status, 1) << own.out << own.err;
    EXPECT_NE(own.out.find("KQvK: UNREADABLE: "), std::string::npos) << own.out;
    for (const char* side : {"a", "b"}) EXPECT_FALSE(fs::exists(copies_ / side / "KQvK.exact")) << side;
}

// A table compared without its sub-tables: each directory's sub-tables that its reading completes
// are completed first, each once, with a line, into a temporary directory removed at the end
// (otherwise each reading of a table that reads it completes the same sub-table again, recursively:
// KBvK 96 times for KPPvKP).
TEST_F(TbdiffSettled, SubTablesNotComparedAreCompletedOncePerDirectoryFirst) {
    const fs::path tmp = scratch_.path / "tmp";
    fs::create_directories(tmp);
    ASSERT_EQ(setenv("TMPDIR", tmp.c_str(), 1), 0);
    const test::AppOutcome r = tbdiff(dirs_ + " KPvK");
    unsetenv("TMPDIR");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("1 tables: 1 identical"), std::string::npos) << r.out;
    for (const char* side : {"A", "B"})
        for (const char* name : {"KBvK", "KNvK", "KQvK", "KRvK"}) {
            const std::string line =
                std::string("KPvK: ") + side + ": " + name + " completed from its sub-tables in ";
            const size_t at = r.out.find(line);
            ASSERT_NE(at, std::string::npos) << line << "\n" << r.out;
            EXPECT_EQ(r.out.find(line, at + 1), std::string::npos) << line << "\n" << r.out;  // once
            EXPECT_LT(at, r.out.find(" entries (")) << r.out;  // before the table's own line
        }
    EXPECT_NE(r.out.find("KPvK: B: KRvK completed from its sub-tables in "), std::string::npos);
    EXPECT_NE(r.out.find(" (4 of 4)"), std::string::npos) << r.out;
    EXPECT_TRUE(fs::is_empty(tmp));  // the copies removed
}

// A stop signal ends the run with its temporary copies removed and the tables compared so far. The
// signal is sent before tbdiff starts, blocked: it arrives once tbdiff installs its handlers, before
// the first table, whatever the machine's speed.
TEST_F(TbdiffSettled, AStopSignalRemovesTheTemporaryCopies) {
    const fs::path tmp = scratch_.path / "tmp", log = scratch_.path / "stopped.log";
    fs::create_directories(tmp);
    const std::string app = (fs::path(RETRO_BIN_DIR) / "tbdiff").string();
    const pid_t pid = fork();
    if (pid == 0) {
        sigset_t term;
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        sigprocmask(SIG_BLOCK, &term, nullptr);
        raise(SIGTERM);
        setenv("TMPDIR", tmp.c_str(), 1);
        const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(out, STDOUT_FILENO);
        dup2(out, STDERR_FILENO);
        execl(app.c_str(), "tbdiff", sa_.c_str(), sb_.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    const std::string out = read_bytes(log);
    ASSERT_TRUE(WIFEXITED(status)) << out;
    EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM) << out;
    EXPECT_NE(out.find("tbdiff: interrupted by signal 15 after 0 of 5 tables"), std::string::npos) << out;
    EXPECT_NE(out.find("NOT IDENTICAL"), std::string::npos) << out;
    EXPECT_TRUE(fs::is_empty(tmp)) << fs::directory_iterator(tmp)->path();
}

TEST_F(TbdiffCli, UsageErrors) {
    const test::AppOutcome help = tbdiff("--help");
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("Usage: tbdiff"), std::string::npos) << help.out;

    EXPECT_EQ(tbdiff("").status, 2);
    EXPECT_EQ(tbdiff(a().string()).status, 2);
    EXPECT_EQ(tbdiff("--no-such-option " + a().string() + " " + b().string()).status, 2);

    const test::AppOutcome bad_material = tbdiff_a_b(" KQvX");
    EXPECT_EQ(bad_material.status, 2);
    EXPECT_NE(bad_material.err.find("'X'"), std::string::npos) << bad_material.err;

    const test::AppOutcome no_dir = tbdiff(a().string() + " " + (scratch_.path / "nowhere").string());
    EXPECT_EQ(no_dir.status, 2);
    EXPECT_NE(no_dir.err.find("nowhere is not a directory"), std::string::npos) << no_dir.err;

    fs::create_directories(scratch_.path / "empty");
    const test::AppOutcome empty = tbdiff(a().string() + " " + (scratch_.path / "empty").string());
    EXPECT_EQ(empty.status, 1);
    EXPECT_NE(empty.out.find("2 missing on one side"), std::string::npos) << empty.out;
}

}  // namespace
}  // namespace retro
