// tbpack end to end: a set written here rewritten in the shipping form and back, compared by tbdiff
// and read by tbgen --verify; bad command lines refused.
#include <gtest/gtest.h>

#include <chrono>

#include "store/table_reader.hpp"
#include "support/app_run.hpp"
#include "support/store_test_util.hpp"

namespace retro {
namespace {

namespace fs = std::filesystem;
using store_test::small_tables;

class TbpackCli : public ::testing::Test {
protected:
    TbpackCli()
        : scratch_("tbpack-" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name())) {
        fs::create_directories(full());
        for (const Material& m : build_order({Material::parse("KPvK")}))
            write_table(*small_tables().find(m), table_path(full(), m));
    }
    fs::path full() const { return scratch_.path / "full"; }
    fs::path dir(const std::string& name) const { return scratch_.path / name; }
    test::AppOutcome run(const std::string& app, const std::string& args) const {
        return test::run_app(app, args, scratch_.path);
    }

    store_test::ScratchDir scratch_;
};

TEST_F(TbpackCli, ShippingAndBackHoldTheSameValues) {
    const test::AppOutcome packed =
        run("tbpack", "--shipping " + full().string() + " " + dir("ship").string());
    ASSERT_EQ(packed.status, 0) << packed.out << packed.err;
    EXPECT_NE(packed.out.find("5 tables: "), std::string::npos) << packed.out;
    for (const char* name : {"KQvK", "KPvK"})
        EXPECT_EQ(
            TableReader(dir("ship") / (std::string(name) + ".rtb"), format::Metric::Dtm).header().version,
            format::VERSION_BLOCKS_RANKED);

    const test::AppOutcome same = run("tbdiff", full().string() + " " + dir("ship").string());
    EXPECT_EQ(same.status, 0) << same.out << same.err;
    EXPECT_NE(same.out.find("5 tables: 5 identical"), std::string::npos) << same.out;
    const test::AppOutcome verified = run("tbgen", "--verify " + (dir("ship") / "KPvK.rtb").string());
    EXPECT_EQ(verified.status, 0) << verified.out << verified.err;
    EXPECT_NE(verified.out.find(": ok, "), std::string::npos) << verified.out;

    // Back to the full form, self-contained: version 1 again, the same values, read without KQvK.
    const test::AppOutcome back =
        run("tbpack", "--self-contained " + dir("ship").string() + " " + dir("back").string() + " KPvK");
    ASSERT_EQ(back.status, 0) << back.out << back.err;
    EXPECT_EQ(TableReader(dir("back") / "KPvK.rtb", format::Metric::Dtm).header().version,
              format::VERSION_BYTE_VALUES);
    EXPECT_EQ(run("tbdiff", full().string() + " " + dir("back").string() + " KPvK").status, 0);
}

// A rerun skips the tables whose file is complete (an interrupted pack resumes), writes those whose
// file is missing or damaged, and --overwrite writes them all.
TEST_F(TbpackCli, ARerunSkipsCompleteFiles) {
    const std::string dirs = full().string() + " " + dir("again").string();
    ASSERT_EQ(run("tbpack", dirs).status, 0);
    const fs::path kpk = dir("again") / "KPvK.rtb";
    const auto kpk_bytes = fs::file_size(kpk);
    fs::resize_file(kpk, kpk_bytes / 2);  // as if cut off by a disk filled by something else
    fs::remove(dir("again") / "KQvK.rtb");
    const test::AppOutcome rerun = run("tbpack", dirs);
    ASSERT_EQ(rerun.status, 0) << rerun.out << rerun.err;
    EXPECT_NE(rerun.out.find("KRvK: complete in "), std::string::npos) << rerun.out;
    EXPECT_EQ(rerun.out.find("KPvK: complete in "), std::string::npos) << rerun.out;
    EXPECT_EQ(rerun.out.find("KQvK: complete in "), std::string::npos) << rerun.out;
    EXPECT_NE(rerun.out.find("5 tables: "), std::string::npos) << rerun.out;
    EXPECT_NE(rerun.out.find("(3 complete already, skipped; --overwrite"), std::string::npos) << rerun.out;
    EXPECT_EQ(fs::file_size(kpk), kpk_bytes);
    EXPECT_EQ(run("tbdiff", dirs).status, 0);
    const test::AppOutcome overwritten = run("tbpack", "--overwrite " + dirs);
    ASSERT_EQ(overwritten.status, 0) << overwritten.out << overwritten.err;
    EXPECT_EQ(overwritten.out.find("complete in"), std::string::npos) << overwritten.out;
}

// A complete file of another form (shipping or full, block size), or older than its source, is written
// again, not skipped.
TEST_F(TbpackCli, AFileOfAnotherFormOrOlderThanItsSourceIsWrittenAgain) {
    const std::string dirs = full().string() + " " + dir("forms").string();
    ASSERT_EQ(run("tbpack", dirs).status, 0);  // full, zstd
    const test::AppOutcome shipping = run("tbpack", "--shipping " + dirs);
    ASSERT_EQ(shipping.status, 0) << shipping.out << shipping.err;
    EXPECT_EQ(shipping.out.find("complete in"), std::string::npos) << shipping.out;
    const fs::path kpk = dir("forms") / "KPvK.rtb";
    EXPECT_TRUE(TableReader(kpk, format::Metric::Dtm).header().dropped.has_value());
    const test::AppOutcome again = run("tbpack", "--shipping " + dirs);
    EXPECT_NE(again.out.find("(5 complete already, skipped"), std::string::npos) << again.out;
    fs::last_write_time(kpk, fs::last_write_time(full() / "KPvK.rtb") - std::chrono::hours(1));
    const test::AppOutcome rebuilt = run("tbpack", "--shipping " + dirs);
    EXPECT_EQ(rebuilt.out.find("KPvK: complete in "), std::string::npos) << rebuilt.out;
    EXPECT_NE(rebuilt.out.find("(4 complete already, skipped"), std::string::npos) << rebuilt.out;
    // Another block size asked for is another form; the same one asked again is not.
    const test::AppOutcome other_blocks = run("tbpack", "--shipping --block-entries 65536 " + dirs);
    ASSERT_EQ(other_blocks.status, 0) << other_blocks.out << other_blocks.err;
    EXPECT_EQ(other_blocks.out.find("complete in"), std::string::npos) << other_blocks.out;
    EXPECT_EQ(TableReader(kpk, format::Metric::Dtm).header().block_entries, 65536u);
    const test::AppOutcome same_blocks = run("tbpack", "--shipping --block-entries 65536 " + dirs);
    EXPECT_NE(same_blocks.out.find("(5 complete already, skipped"), std::string::npos) << same_blocks.out;
    EXPECT_EQ(run("tbdiff", dirs).status, 0);
}

TEST_F(TbpackCli, ATableWrittenWithoutItsSubTablesIsWarnedOf) {
    // KPvK's settled file reads through its promotions' tables; alone in a directory it cannot be read.
    const test::AppOutcome alone = run("tbpack", full().string() + " " + dir("alone").string() + " KPvK");
    ASSERT_EQ(alone.status, 0) << alone.out << alone.err;
    EXPECT_NE(alone.err.find("tbpack: warning: the files written read their values through the tables one "
                             "capture or promotion away, and KBvK, KNvK, KQvK and KRvK are not in " +
                             dir("alone").string()),
              std::string::npos)
        << alone.err;
    const test::AppOutcome contained =
        run("tbpack", "--self-contained " + full().string() + " " + dir("contained").string() + " KPvK");
    ASSERT_EQ(contained.status, 0) << contained.out << contained.err;
    EXPECT_EQ(contained.err.find("warning"), std::string::npos) << contained.err;
    const test::AppOutcome all = run("tbpack", full().string() + " " + dir("alone").string());
    ASSERT_EQ(all.status, 0) << all.out << all.err;
    EXPECT_EQ(all.err.find("warning"), std::string::npos) << all.err;
}

TEST_F(TbpackCli, BadCommandLinesAreRefused) {
    const auto refused = [&](const std::string& args, int status, const std::string& message) {
        const test::AppOutcome r = run("tbpack", args);
        EXPECT_EQ(r.status, status) << args << ": " << r.out << r.err;
        EXPECT_NE((r.out + r.err).find(message), std::string::npos) << args << ": " << r.out << r.err;
    };
    refused("", 2, "Usage: tbpack");
    refused((scratch_.path / "none").string() + " " + dir("x").string(), 1, "no such directory");
    refused(full().string() + " " + full().string(), 1, "must differ");
    refused(full().string() + " " + dir("x").string() + " --codec lz4", 1, "--codec takes xz, zstd or zlib");
    refused(full().string() + " " + dir("x").string() + " KRvKR", 1, "no ");
    refused(full().string() + " " + dir("x").string() + " KXvK", 1, "error");
    EXPECT_EQ(run("tbpack", "--help").status, 0);
}

}  // namespace
}  // namespace retro
