// A write killed halfway (store/write_journal.hpp): the next write of the same file keeps the blocks
// already on disk, and only those it can trust.
#include <gtest/gtest.h>

#include <atomic>
#include <limits>

#include "store_test_util.hpp"

using namespace retro;
using namespace retro::store_test;

namespace {

fs::path tmp_of(const fs::path& path) { return path.string() + ".tmp"; }
fs::path journal_of(const fs::path& path) { return path.string() + ".tmp.journal"; }

// Leaves at `path` what a write of `table` killed right after block `after` leaves: path.tmp and its
// journal (copied then, since the stop that follows keeps a few more blocks).
void leave_a_killed_write(const Table& table, const fs::path& path, WriteOptions o, uint32_t after) {
    const fs::path saved_tmp = path.string() + ".saved", saved_journal = path.string() + ".saved-journal";
    std::atomic<bool> stop{false};
    o.control.stop = &stop;
    o.sync_seconds = 0;
    o.control.progress = [&](Control::Count, uint64_t done, uint64_t) {
        if (done != after) return;
        fs::copy_file(tmp_of(path), saved_tmp, fs::copy_options::overwrite_existing);
        fs::copy_file(journal_of(path), saved_journal, fs::copy_options::overwrite_existing);
        stop = true;
    };
    EXPECT_THROW(write_table(table, path, o), Stopped);
    fs::rename(saved_tmp, tmp_of(path));
    fs::rename(saved_journal, journal_of(path));
}

// Writes `table` and returns the number of blocks it found on disk already (the first progress call).
uint32_t write_counting_kept(const Table& table, const fs::path& path, WriteOptions o) {
    uint32_t first = std::numeric_limits<uint32_t>::max();
    o.control.progress = [&](Control::Count, uint64_t done, uint64_t) {
        first = std::min(first, uint32_t(done));
    };
    write_table(table, path, o);
    EXPECT_FALSE(fs::exists(tmp_of(path)));
    EXPECT_FALSE(fs::exists(journal_of(path)));
    return first;
}

WriteOptions small_blocks() {
    WriteOptions o;
    o.block_entries = 1 << 10;  // KQvK: 28 blocks per side
    return o;
}

struct Reference {
    ScratchDir dir{"journal"};
    std::shared_ptr<const Table> table = small_table("KQvK");
    fs::path path = table_path(dir.path, table->material());
    std::string bytes;
    explicit Reference(const WriteOptions& o) {
        write_table(*table, path, o);
        bytes = read_bytes(path);
        fs::remove(path);
    }
};

}  // namespace

TEST(StoreWriteJournal, AWriteKilledHalfwayGoesOnFromItsBlocksToTheSameBytes) {
    const Reference ref(small_blocks());
    leave_a_killed_write(*ref.table, ref.path, small_blocks(), 10);
    EXPECT_EQ(write_counting_kept(*ref.table, ref.path, small_blocks()), 10u);
    EXPECT_TRUE(read_bytes(ref.path) == ref.bytes);
}

TEST(StoreWriteJournal, OnlyTheBlocksWhollyOnDiskAreKept) {
    const Reference ref(small_blocks());
    leave_a_killed_write(*ref.table, ref.path, small_blocks(), 10);
    fs::resize_file(tmp_of(ref.path), fs::file_size(tmp_of(ref.path)) - 1);  // the 10th block torn
    EXPECT_EQ(write_counting_kept(*ref.table, ref.path, small_blocks()), 9u);
    EXPECT_TRUE(read_bytes(ref.path) == ref.bytes);
}

TEST(StoreWriteJournal, AStopKeepsTheBlocksWrittenSoFarForTheNextWrite) {
    const Reference ref(small_blocks());
    std::atomic<bool> stop{false};
    WriteOptions o = small_blocks();
    o.control.stop = &stop;
    o.control.progress = [&](Control::Count, uint64_t done, uint64_t) { stop = stop || done == 10; };
    EXPECT_THROW(write_table(*ref.table, ref.path, o), Stopped);
    EXPECT_FALSE(fs::exists(ref.path));
    EXPECT_GE(write_counting_kept(*ref.table, ref.path, small_blocks()), 10u);
    EXPECT_TRUE(read_bytes(ref.path) == ref.bytes);
}

TEST(StoreWriteJournal, DamagedBlocksOrAnotherLayoutStartAfresh) {
    const Reference ref(small_blocks());
    // The last block kept no longer compresses to its bytes.
    leave_a_killed_write(*ref.table, ref.path, small_blocks(), 10);
    std::string tmp = read_bytes(tmp_of(ref.path));
    tmp.back() = char(tmp.back() ^ 0x40);
    write_bytes(tmp_of(ref.path), tmp);
    EXPECT_EQ(write_counting_kept(*ref.table, ref.path, small_blocks()), 0u);
    EXPECT_TRUE(read_bytes(ref.path) == ref.bytes);

    // Left by a write at another compression level: nothing is kept.
    fs::remove(ref.path);
    WriteOptions other = small_blocks();
    other.level = 1;
    leave_a_killed_write(*ref.table, ref.path, other, 10);
    EXPECT_EQ(write_counting_kept(*ref.table, ref.path, small_blocks()), 0u);
    EXPECT_TRUE(read_bytes(ref.path) == ref.bytes);

    // A journal of garbage.
    fs::remove(ref.path);
    leave_a_killed_write(*ref.table, ref.path, small_blocks(), 10);
    write_bytes(journal_of(ref.path), "not a journal at all, but long enough to look at");
    EXPECT_EQ(write_counting_kept(*ref.table, ref.path, small_blocks()), 0u);
    EXPECT_TRUE(read_bytes(ref.path) == ref.bytes);
}
