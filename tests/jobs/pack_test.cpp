// pack_tables (tbpack's job): a stop between tables or inside one ends the pack with nothing but
// complete files, and the same call then goes on and writes the same values.
#include "jobs/pack.hpp"

#include <gtest/gtest.h>

#include "jobs/table_lock.hpp"
#include "probe/tablebase.hpp"
#include "solve/exit_settled.hpp"
#include "store/table_diff.hpp"
#include "support/store_test_util.hpp"

namespace retro {
namespace {

namespace fs = std::filesystem;
using store_test::small_tables;

class PackTables : public ::testing::Test {
protected:
    PackTables()
        : scratch_("pack-" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name())) {
        fs::create_directories(full());
        // Settled by exits, as tbgen writes them: KPvK reads its promotions' tables whole.
        for (const Material& m : build_order({Material::parse("KPvK")})) {
            write_settled_table(*small_tables().find(m), table_path(full(), m), WriteOptions{},
                                small_tables());
            names_.push_back(m.name());
        }
        options_.write.keep = WriteOptions::Sides::Smaller;  // the shipping form
        options_.write.control.stop = &stop_;
        options_.report = [this](const std::string& line) { lines_.push_back(line); };
    }
    fs::path full() const { return scratch_.path / "full"; }
    fs::path packed() const { return scratch_.path / "packed"; }
    std::vector<std::string> tables_in(const fs::path& dir) const {
        const std::set<std::string> names = table_file_names(dir);
        return {names.begin(), names.end()};
    }
    // The exact copies in `packed`, by name.
    std::set<std::string> exact_copies() const {
        std::set<std::string> names;
        for (const auto& e : fs::directory_iterator(packed()))
            if (e.path().extension() == ".exact") names.insert(e.path().stem().string());
        return names;
    }
    // Every table of `packed` holds the values of its full file.
    void expect_same_values() const {
        const Tablebase a(full()), b(packed());
        for (const std::string& name : names_) {
            const Material m = Material::parse(name);
            EXPECT_TRUE(diff_tables(*a.find(m), *b.find(m)).identical()) << name;
        }
    }

    store_test::ScratchDir scratch_;
    std::vector<std::string> names_;  // in build order: each table's sub-tables before it
    std::atomic<bool> stop_{false};
    PackOptions options_;
    std::vector<std::string> lines_;
};

TEST_F(PackTables, AStopBetweenTablesLeavesTheTablesPackedAndTheRerunGoesOn) {
    ASSERT_EQ(names_.size(), 5u);
    fs::create_directories(packed());
    options_.report = [this](const std::string& line) {
        lines_.push_back(line);
        stop_ = true;  // as a signal during the first table would
    };
    const PackResult stopped = pack_tables(full(), packed(), names_, options_);
    EXPECT_TRUE(stopped.interrupted);
    EXPECT_EQ(stopped.packed, 1);
    EXPECT_EQ(stopped.stopped_at, "before " + names_[1]);
    EXPECT_EQ(tables_in(packed()), std::vector<std::string>{names_[0]});
    EXPECT_EQ(exact_copies(), std::set<std::string>{names_[0]});        // for KPvK, still to pack
    fs::remove(exact_copy_path(packed(), Material::parse(names_[0])));  // lost: the rerun reads it again

    stop_ = false;
    options_.report = [this](const std::string& line) { lines_.push_back(line); };
    lines_.clear();
    const PackResult rest = pack_tables(full(), packed(), names_, options_);
    EXPECT_FALSE(rest.interrupted);
    EXPECT_EQ(rest.skipped, 1);
    EXPECT_EQ(rest.packed, 4);
    ASSERT_EQ(lines_.size(), 5u);
    EXPECT_EQ(lines_[0].rfind(names_[0] + ": complete in " + packed().string() +
                                  ", skipped; read, with an exact copy for the tables that read it, in ",
                              0),
              0u)
        << lines_[0];
    EXPECT_EQ(tables_in(packed()).size(), 5u);
    EXPECT_TRUE(exact_copies().empty());
    expect_same_values();
}

TEST_F(PackTables, AStopInsideATableLeavesNoFileOfItAndTheRerunWritesIt) {
    fs::create_directories(packed());
    // Raised from the exit search of the last table: it stops before the table's file is written.
    options_.write.control.progress = [this](Control::Count count, uint64_t, uint64_t) {
        if (count == Control::Count::ExitsSearched && lines_.size() == 4) stop_ = true;
    };
    const PackResult stopped = pack_tables(full(), packed(), names_, options_);
    EXPECT_TRUE(stopped.interrupted);
    EXPECT_EQ(stopped.packed, 4);
    EXPECT_NE(stopped.stopped_at.find(names_[4] + ": stopped while settling values by exits"),
              std::string::npos)
        << stopped.stopped_at;
    EXPECT_FALSE(fs::exists(table_path(packed(), Material::parse(names_[4]))));

    stop_ = false;
    const PackResult rest = pack_tables(full(), packed(), names_, options_);
    EXPECT_FALSE(rest.interrupted);
    EXPECT_EQ(rest.skipped, 4);
    EXPECT_EQ(rest.packed, 1);
    expect_same_values();
}

// The tables that a later table of the pack reads whole are copied exactly once read, and the copies
// go once that table is packed.
TEST_F(PackTables, TheTablesReadAgainAreCopiedUntilTheLastReaderIsPacked) {
    fs::create_directories(packed());
    std::vector<std::set<std::string>> copies_at_report;
    options_.report = [this, &copies_at_report](const std::string& line) {
        lines_.push_back(line);
        copies_at_report.push_back(exact_copies());
    };
    const PackResult r = pack_tables(full(), packed(), names_, options_);
    ASSERT_EQ(r.packed, 5);
    ASSERT_EQ(copies_at_report.size(), 5u);
    EXPECT_EQ(names_[4], "KPvK");  // read by no other: its sub-tables come first
    EXPECT_EQ(copies_at_report[3], (std::set<std::string>{names_[0], names_[1], names_[2], names_[3]}));
    EXPECT_NE(lines_[0].find(" in "), std::string::npos) << lines_[0];
    EXPECT_NE(lines_[0].find(", with an exact copy for the tables that read it"), std::string::npos)
        << lines_[0];
    EXPECT_EQ(lines_[4].find("exact copy"), std::string::npos) << lines_[4];
    EXPECT_TRUE(exact_copies().empty());
    expect_same_values();
}

// A table packed alone reads its settled sub-tables whole once each, sub-tables first, through the
// copies of theirs; none is packed, and no copy is left.
TEST_F(PackTables, TheSubTablesOfATablePackedAloneAreReadOnceEach) {
    fs::create_directories(packed());
    const PackResult r = pack_tables(full(), packed(), {"KPvK"}, options_);
    EXPECT_EQ(r.packed, 1);
    EXPECT_EQ(r.skipped, 0);
    ASSERT_EQ(lines_.size(), 5u);
    for (size_t i = 0; i < 4; ++i)
        EXPECT_EQ(
            lines_[i].rfind(names_[i] + ": read, with an exact copy for the tables that read it, in ", 0), 0u)
            << lines_[i];
    EXPECT_EQ(lines_[4].rfind("KPvK: ", 0), 0u) << lines_[4];
    EXPECT_EQ(tables_in(packed()), std::vector<std::string>{"KPvK"});
    EXPECT_TRUE(exact_copies().empty());
    // Packed already: nothing is read again.
    lines_.clear();
    const PackResult again = pack_tables(full(), packed(), {"KPvK"}, options_);
    EXPECT_EQ(again.skipped, 1);
    EXPECT_EQ(lines_, std::vector<std::string>{"KPvK: complete in " + packed().string() + ", skipped"});
}

// Two packs into one directory: a table the other one holds is left to it, not written twice at once.
TEST_F(PackTables, ATableAnotherProcessIsWritingIsLeftToIt) {
    fs::create_directories(packed());
    const Material kqk = Material::parse("KQvK");
    std::optional<TableLock> other(std::in_place, packed(), kqk);
    ASSERT_TRUE(other->held());
    const PackResult shared = pack_tables(full(), packed(), names_, options_);
    EXPECT_EQ(shared.left_to_others, std::vector<Material>{kqk});
    EXPECT_EQ(shared.packed, 4);
    EXPECT_FALSE(fs::exists(table_path(packed(), kqk)));
    EXPECT_NE(
        std::find(lines_.begin(), lines_.end(),
                  "KQvK: another process is writing " + table_path(packed(), kqk).string() + ", left to it"),
        lines_.end());
    other.reset();  // its process ended without writing it: the rerun does
    const PackResult rerun = pack_tables(full(), packed(), names_, options_);
    EXPECT_TRUE(rerun.left_to_others.empty());
    EXPECT_EQ(rerun.packed, 1);
    EXPECT_EQ(rerun.skipped, 4);
    expect_same_values();
}

TEST_F(PackTables, APackIntoItsOwnDirectoryIsRefused) {
    EXPECT_THROW(pack_tables(full(), full(), names_, options_), std::runtime_error);
}

TEST_F(PackTables, TheSubTablesAShippingFileReadsThroughAreNamedWhenMissing) {
    fs::create_directories(packed());
    EXPECT_EQ(list_names(subtables_missing_from(packed(), {"KPvK"}, options_.write)),
              "KBvK, KNvK, KQvK and KRvK");
    WriteOptions self_contained;
    self_contained.settle_exits = false;
    EXPECT_TRUE(subtables_missing_from(packed(), {"KPvK"}, self_contained).empty());
}

}  // namespace
}  // namespace retro
