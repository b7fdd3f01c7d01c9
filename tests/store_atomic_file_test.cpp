// The one temporary-file / fsync / rename helper behind table files and checkpoints.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>

#include "store/atomic_file.hpp"
#include "store/store_error.hpp"
#include "store_test_util.hpp"

using namespace retro;
using namespace retro::store_test;

TEST(AtomicFile, WritesThePiecesInOrderOverTheOldFile) {
    ScratchDir dir("atomic");
    const fs::path path = dir.path / "file";
    write_bytes(path, "old content, longer than the new");
    const std::vector<uint8_t> a{'a', 'b'}, empty, c{'c'};
    const std::vector<Bytes> pieces{a, empty, c};
    write_file_atomically(path, pieces);
    EXPECT_EQ(read_bytes(path), "abc");
    EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
}

TEST(AtomicFile, AFailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
    ScratchDir dir("atomic-full");
    const fs::path path = dir.path / "file";
    write_bytes(path, "old");
    const std::vector<uint8_t> big(1 << 16, 7);
    const std::vector<Bytes> pieces{big};
    // A file size limit stands in for a full disk: write() fails with EFBIG instead of ENOSPC.
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit old{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
    rlimit small = old;
    small.rlim_cur = 1000;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string error;
    try {
        write_file_atomically(path, pieces);
    } catch (const StoreError& e) {
        error = e.what();
    }
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);
    std::signal(SIGXFSZ, SIG_DFL);
    EXPECT_NE(error.find(path.string() + ": write failed"), std::string::npos) << error;
    EXPECT_EQ(read_bytes(path), "old");
    EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
}
