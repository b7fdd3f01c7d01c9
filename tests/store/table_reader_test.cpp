// The block reader: LRU block cache, probes from many threads through a small cache, a rewritten file
// read by a new reader, sides that need no bits at all, codes beyond the dictionary.
#include "store/table_reader.hpp"

#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "index/legal_entries.hpp"
#include "store/block_cache.hpp"
#include "store/codec.hpp"
#include "store/format.hpp"
#include "support/store_test_util.hpp"

using namespace retro;
using namespace retro::store_test;

namespace {

BlockCache::Ptr block_of(size_t bytes, uint8_t fill) {
    return std::make_shared<BlockCache::Block>(bytes, fill);
}

}  // namespace

TEST(StoreReader, CacheEvictsTheLeastRecentlyUsed) {
    // Small caches have a single shard: here of 1 KiB.
    BlockCache cache(1024);
    EXPECT_EQ(cache.capacity_bytes(), 1024u);
    const uint64_t a = 7, b = 1ull << 32 | 7, c = 12345;
    cache.insert(a, block_of(400, 1));
    cache.insert(b, block_of(400, 2));
    ASSERT_TRUE(cache.find(a));         // a is now the most recent
    cache.insert(c, block_of(400, 3));  // over 1 KiB: b goes
    EXPECT_TRUE(cache.find(a));
    EXPECT_FALSE(cache.find(b));
    EXPECT_EQ((*cache.find(c))[0], 3);
    EXPECT_EQ(cache.bytes(), 800u);
    // Inserting a key twice keeps the first block.
    EXPECT_EQ((*cache.insert(c, block_of(10, 9)))[0], 3);
    // A block larger than the shard still stays until the next insert.
    cache.insert(b, block_of(5000, 4));
    EXPECT_TRUE(cache.find(b));
    EXPECT_FALSE(cache.find(a));
    EXPECT_EQ(cache.blocks(), 1u);
    cache.clear();
    EXPECT_EQ(cache.bytes(), 0u);
    EXPECT_FALSE(cache.find(b));
    EXPECT_GT(cache.hits(), 0u);
    EXPECT_GT(cache.misses(), 0u);
}

TEST(StoreReader, ThreadsProbeThroughASmallCache) {
    ScratchDir dir("threads");
    const auto table = small_table("KPvK");
    const auto path = table_path(dir.path, table->material());
    WriteOptions o;
    o.block_entries = 1 << 12;  // 44 blocks of 4 KiB
    write_table(*table, path, o);
    std::vector<std::pair<Position, Dtm>> legal;
    for_each_legal(table->scheme, [&](Color side, uint64_t i, const Position& pos) {
        legal.emplace_back(pos, table->value(side, i));
    });
    auto cache = std::make_shared<BlockCache>(48 * 1024);  // about a quarter of the blocks
    const TableReader reader(path, format::Metric::Dtm, cache);
    std::atomic<uint64_t> wrong{0}, probes{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            std::mt19937_64 rng{uint64_t(t)};
            for (int n = 0; n < 20000; ++n) {
                const auto& [pos, value] = legal[rng() % legal.size()];
                const bool flip = rng() & 1;
                if (reader.value(flip ? pos.color_flipped() : pos) != value) ++wrong;
                ++probes;
            }
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(probes, 80000u);
    EXPECT_LE(cache->bytes(), 48u * 1024);
    EXPECT_GT(cache->misses(), 44u);  // blocks were evicted and read again
}

TEST(StoreReader, ANewReaderOfARewrittenFileReadsItsNewValues) {
    // A thread keeps its last blocks beside the cache (TableReader::codes): a reader of the same
    // path and block, opened after the file was rewritten, must not be served the old block.
    ScratchDir dir("rewritten");
    const Table& original = *small_table("KRvK");
    const auto path = table_path(dir.path, original.material());
    uint64_t i = 0;
    Position pos;
    while (!decode_legal(original.scheme, i, WHITE, pos)) ++i;
    const Dtm before = original.value(WHITE, i), after = before == 5 ? 7 : 5;
    Table changed = original;
    changed.set(WHITE, i, after);
    auto cache = std::make_shared<BlockCache>();
    write_table(original, path);
    EXPECT_EQ(TableReader(path, format::Metric::Dtm, cache).value(WHITE, i), before);
    write_table(changed, path);
    EXPECT_EQ(TableReader(path, format::Metric::Dtm, cache).value(WHITE, i), after);
    EXPECT_EQ(TableReader(path, format::Metric::Dtm).value(pos), after);
}

TEST(StoreReader, SidesWithOneValueNeedNoBits) {
    // KBvK is a draw everywhere: both sides have a one-value dictionary and zero-bit codes.
    ScratchDir dir("zero-bits");
    const auto table = small_table("KBvK");
    const auto path = table_path(dir.path, table->material());
    write_table(*table, path);
    const TableReader reader(path, format::Metric::Dtm);
    for (const auto& side : reader.header().sides) {
        EXPECT_EQ(side.bits, 0);
        EXPECT_EQ(side.dictionary, std::vector<uint16_t>{DTM_DRAW});
    }
    for (Color side : {WHITE, BLACK})
        for (uint64_t i = 0; i < table->scheme.size(); i += 997) EXPECT_EQ(reader.value(side, i), DTM_DRAW);
    EXPECT_THROW(reader.value(WHITE, table->scheme.size()), std::out_of_range);
    EXPECT_LT(std::filesystem::file_size(path), 400u);
    const auto back = read_table(path);
    EXPECT_TRUE(*back == *table);
}

// A block whose checksum is right but whose codes are not (what a faulty writer would leave): the
// reader names the first code beyond the dictionary, wherever it stands in the block.
TEST(StoreReader, CodeBeyondTheDictionary) {
    const Material kqk = Material::parse("KQvK");
    format::Header h;
    h.codec = Codec::Zstd;
    h.material = kqk;
    h.entries_per_side = IndexScheme(kqk).size();
    h.block_entries = 1 << 15;  // one block per side
    h.block_count = 2;
    for (auto& side : h.sides) side = {8, {1, 3}};
    for (const size_t bad : {size_t(0), size_t(12345), size_t(h.entries_per_side - 1)}) {
        std::vector<uint8_t> codes(h.entries_per_side, 1);
        codes[bad] = 7;
        const std::vector<uint8_t> good(h.entries_per_side, 0);
        const std::vector<std::vector<uint8_t>> stored = {
            compress(Codec::Zstd, 3, codes.data(), codes.size()),
            compress(Codec::Zstd, 3, good.data(), good.size())};
        h.offsets = {0, 0, 0};
        h.block_crc.clear();
        h.offsets[0] = h.header_bytes();
        for (int b = 0; b < 2; ++b) {
            h.offsets[b + 1] = h.offsets[b] + stored[b].size();
            h.block_crc.push_back(crc32_of(stored[b].data(), stored[b].size()));
        }
        std::vector<uint8_t> file = format::serialize(h);
        for (const auto& s : stored) file.insert(file.end(), s.begin(), s.end());
        const TableReader reader(std::string(file.begin(), file.end()), "", format::Metric::Dtm);
        EXPECT_EQ(reader.value(BLACK, bad), 1);
        try {
            reader.value(WHITE, bad == 0 ? 1 : 0);
            ADD_FAILURE() << "a code beyond the dictionary was read";
        } catch (const StoreError& e) {
            EXPECT_EQ(std::string(e.what()),
                      "<memory>: block 0 of 2: code 7 beyond the dictionary of 2 values (corrupted file)");
        }
    }
}
