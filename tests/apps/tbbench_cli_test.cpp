// tbbench end to end on KRvK (no sub-tables to build): its CSV and peak memory, and outputs it cannot
// write refused before any run.
#include <gtest/gtest.h>

#include <string>

#include "jobs/estimates.hpp"
#include "support/app_run.hpp"

namespace retro {
namespace {

namespace fs = std::filesystem;

class TbbenchCli : public ::testing::Test {
protected:
    TbbenchCli()
        : scratch_("tbbench-" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name())) {
        store_test::write_bytes(blocker(), "a file, so no folder can be made under it");
    }
    fs::path blocker() const { return scratch_.path / "file"; }
    test::AppOutcome tbbench(const std::string& args) const {
        return test::run_app("tbbench",
                             "--table KRvK --threads 1,2 --repeat 1 --warmup 0 --dir " +
                                 (scratch_.path / "tables").string() + " " + args,
                             scratch_.path);
    }

    store_test::ScratchDir scratch_;
};

TEST_F(TbbenchCli, WritesOneCsvRowPerThreadCount) {
    const fs::path csv = scratch_.path / "results" / "krk.csv";  // its folder made
    const auto r = tbbench("--csv " + csv.string());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string text = store_test::read_bytes(csv);
    EXPECT_EQ(text.rfind("threads,runs,median_s,", 0), 0u) << text;
    EXPECT_NE(text.find("\n1,1,"), std::string::npos) << text;
    EXPECT_NE(text.find("\n2,1,"), std::string::npos) << text;
    EXPECT_NE(r.out.find("KRvK, "), std::string::npos) << r.out;
    // The measured peak beside the estimate printed before the runs.
    EXPECT_NE(r.out.find("\npeak memory "), std::string::npos) << r.out;
    EXPECT_NE(r.err.find(" of memory with the sub-tables held whole"), std::string::npos) << r.err;
}

TEST_F(TbbenchCli, AnOutputItCannotWriteIsRefusedBeforeAnyRun) {
    for (const char* option : {"--csv", "--plot"}) {
        const fs::path out = blocker() / "results.svg";
        const auto r = tbbench(std::string(option) + " " + out.string());
        EXPECT_EQ(r.status, 1) << option;
        EXPECT_NE(r.err.find("cannot create the output directory " + blocker().string()), std::string::npos)
            << option << ": " << r.err;
        EXPECT_EQ(r.err.find("run 1/"), std::string::npos) << option << ": " << r.err;
    }
}

// A seven-man table solved in memory takes more than this machine has (KQRNvKQR: about 951 GiB):
// refused before any of its sub-tables is built.
TEST_F(TbbenchCli, ATableLargerThanTheMemoryIsRefused) {
    const auto available = available_memory_bytes();
    if (!available || *available > in_memory_solve_bytes(Material::parse("KQRNvKQR"), 1))
        GTEST_SKIP() << "this machine has the memory";
    const auto r = test::run_app("tbbench", "--table KQRNvKQR --dir " + (scratch_.path / "tables").string(),
                                 scratch_.path);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("solving KQRNvKQR here needs about "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" available (tbgen --dry-run KQRNvKQR shows"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(scratch_.path / "tables")) << "nothing built";
}

TEST_F(TbbenchCli, BadThreadCountsAreRefused) {
    const auto r = test::run_app("tbbench", "--threads 0", scratch_.path);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("'0' is not a list of thread counts"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace retro
