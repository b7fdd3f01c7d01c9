// The names of an output directory's files are read back by later runs (resume, skip, locks) and
// by other programs, so each is pinned here once.
#include "store/table_paths.hpp"

#include <gtest/gtest.h>

namespace retro {
namespace {

TEST(StoreTablePaths, NamesOfTheOutputDirectory) {
    const std::filesystem::path dir = "out";
    const Material m = Material::parse("KRPvKR");
    EXPECT_EQ(table_path(dir, m), "out/KRPvKR.rtb");
    EXPECT_EQ(wdl_path(dir, m), "out/KRPvKR.rtw");
    EXPECT_EQ(exact_copy_path(dir, m), "out/KRPvKR.exact");
    EXPECT_EQ(temporary_path(table_path(dir, m)), "out/KRPvKR.rtb.tmp");
    EXPECT_EQ(write_journal_path(table_path(dir, m)), "out/KRPvKR.rtb.tmp.journal");
    const std::filesystem::path checkpoint = checkpoint_path(dir, m);
    EXPECT_EQ(checkpoint, "out/KRPvKR.checkpoint");
    EXPECT_EQ(layer_log_path(checkpoint), "out/KRPvKR.layers");
    EXPECT_EQ(slice_store_path(checkpoint), "out/KRPvKR.slices");
    EXPECT_EQ(checkpoint_seconds_path(checkpoint), "out/KRPvKR.checkpoint.seconds");
    EXPECT_EQ(damaged_checkpoint_path(checkpoint), "out/KRPvKR.checkpoint.damaged");
    EXPECT_EQ(times_file_path(dir), "out/tbgen.times");
    EXPECT_EQ(table_lock_path(dir), "out/.tbgen.lock");
    EXPECT_EQ(write_test_path(dir, 42), "out/.tbgen-write-test.42");
    EXPECT_EQ(std::filesystem::path(table_path(dir, m)).extension(), TABLE_EXTENSION);
}

}  // namespace
}  // namespace retro
