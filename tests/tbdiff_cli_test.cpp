// tbdiff end to end: two directories of table files written here, then the binary run on them.
#include <gtest/gtest.h>

#include <chrono>

#include "app_run.hpp"
#include "index/legal_entries.hpp"
#include "solve/exit_settled.hpp"
#include "store_test_util.hpp"

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

    // Writes b/KRvK.rtb with one entry of White to move changed: a legal one (returns the line tbdiff
    // prints for it) or a hole.
    std::string change_krvk_in_b(bool legal) const {
        const Table& a = *small_table("KRvK");
        Table t = a;
        Position pos;
        uint64_t i = 0;
        while (decode_legal(t.scheme, i, WHITE, pos) != legal) ++i;
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
    const std::string line = change_krvk_in_b(true);
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
    change_krvk_in_b(false);
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

// Settled sets: KPvK completes its file through its promotions' tables read whole, which are
// compared first and, with --exact-copies, copied once found identical; a table's own values still
// come from its files.
TEST_F(TbdiffCli, ExactCopiesServeTheLaterTablesOnly) {
    const fs::path sa = scratch_.path / "settled_a", sb = scratch_.path / "settled_b",
                   copies = scratch_.path / "copies";
    for (const fs::path& d : {sa, sb}) {
        fs::create_directories(d);
        for (const Material& m : build_order({Material::parse("KPvK")}))
            write_settled_table(*store_test::small_tables().find(m), table_path(d, m), WriteOptions{},
                                store_test::small_tables());
    }
    const std::string dirs = " " + sa.string() + " " + sb.string();
    const test::AppOutcome first = tbdiff("--exact-copies " + copies.string() + dirs);
    ASSERT_EQ(first.status, 0) << first.out << first.err;
    EXPECT_NE(first.out.find("5 tables: 5 identical"), std::string::npos) << first.out;
    EXPECT_GT(first.out.find("KPvK: "), first.out.find("KQvK: ")) << first.out;  // sub-tables first
    for (const char* name : {"KBvK", "KNvK", "KQvK", "KRvK"})
        EXPECT_TRUE(fs::exists(copies / (std::string(name) + ".exact"))) << name;
    EXPECT_FALSE(fs::exists(copies / "KPvK.exact"));  // no table of the run reads it

    // B's KQvK damaged, but older than the copy: KPvK completes B's file through the copy; KQvK
    // itself is read from its file, and its copy removed.
    std::string bytes = read_bytes(sb / "KQvK.rtb");
    bytes[bytes.size() - 100] ^= 0x10;
    store_test::write_bytes(sb / "KQvK.rtb", bytes);
    fs::last_write_time(sb / "KQvK.rtb", fs::last_write_time(copies / "KQvK.exact") - std::chrono::hours(1));
    const test::AppOutcome through_copy = tbdiff("--exact-copies " + copies.string() + dirs + " KPvK");
    EXPECT_EQ(through_copy.status, 0) << through_copy.out << through_copy.err;
    EXPECT_NE(tbdiff(dirs + " KPvK").out.find("KPvK: UNREADABLE: "), std::string::npos);
    const test::AppOutcome own = tbdiff("--exact-copies " + copies.string() + dirs + " KQvK");
    EXPECT_EQ(own.status, 1) << own.out << own.err;
    EXPECT_NE(own.out.find("KQvK: UNREADABLE: "), std::string::npos) << own.out;
    EXPECT_FALSE(fs::exists(copies / "KQvK.exact"));
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
