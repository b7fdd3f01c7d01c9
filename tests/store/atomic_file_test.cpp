// The one temporary-file / fsync / rename helper behind table files and checkpoints.
#include "store/atomic_file.hpp"

#include <gtest/gtest.h>

#include "store/store_error.hpp"
#include "store/table_paths.hpp"
#include "support/store_test_util.hpp"

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
    EXPECT_FALSE(fs::exists(temporary_path(path)));
}

TEST(AtomicFile, AFailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
    ScratchDir dir("atomic-full");
    const fs::path path = dir.path / "file";
    write_bytes(path, "old");
    const std::vector<uint8_t> big(1 << 16, 7);
    const std::vector<Bytes> pieces{big};
    std::string error;
    try {
        const FileSizeLimit full_disk(1000);
        write_file_atomically(path, pieces);
    } catch (const StoreError& e) {
        error = e.what();
    }
    EXPECT_NE(error.find(path.string() + ": write failed"), std::string::npos) << error;
    EXPECT_EQ(read_bytes(path), "old");
    EXPECT_FALSE(fs::exists(temporary_path(path)));
}
