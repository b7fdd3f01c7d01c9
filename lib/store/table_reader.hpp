// Reads a table file (DTM table or WDL bitbase, format v1 to v6) block by block: opening checks the header,
// a probe decompresses at most the one block that holds its entry (checking that block's CRC) and
// keeps it in a shared LRU cache. Thread-safe. See docs/format.md.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "index/dependencies.hpp"
#include "index/index_scheme.hpp"
#include "store/block_cache.hpp"
#include "store/digit_order.hpp"
#include "store/format.hpp"
#include "store/store_error.hpp"

namespace retro {

class TableReader {
public:
    // Opens and checks the header: magic, version, checksum, material (against the file name: KQvKR.rtb
    // must hold KQvKR), metric, sizes, block offsets against the file size. Without a cache, probes
    // use a small private one. Throws StoreError naming the file.
    TableReader(const std::filesystem::path& path, format::Metric metric,
                std::shared_ptr<BlockCache> cache = nullptr);
    // The same over the bytes of a file held in memory; `path` names it in messages and checks the
    // material against its stem (for tests and the fuzzer). An empty path skips the name check.
    TableReader(std::string bytes, const std::filesystem::path& path, format::Metric metric,
                std::shared_ptr<BlockCache> cache = nullptr);
    TableReader(const TableReader&) = delete;
    TableReader& operator=(const TableReader&) = delete;

    const std::filesystem::path& path() const { return path_; }
    const Material& material() const { return header_.material; }
    const IndexScheme& scheme() const { return scheme_; }
    const format::Header& header() const { return header_; }
    uint64_t file_size() const { return file_.size; }
    // Where the file stores each entry (natural before version 3).
    const DigitOrder& digit_order() const { return order_; }

    // Whether the file holds the values of this side to move (all but the shipping form hold both).
    bool stores(Color side) const { return header_.stores(side); }
    // The same for a position with this material (flipped: its colour swap).
    bool stores(const Position& pos, bool flipped) const {
        return stores(flipped ? ~pos.side_to_move() : pos.side_to_move());
    }

    // Stored value of entry idx for the side to move: a Dtm for a DTM table, a Wdl for a bitbase.
    // Throws StoreError when the block is corrupted (every time it is asked for) or the side is not
    // stored.
    uint16_t value(Color side, uint64_t idx) const;
    // Value for the side to move of a position with this material or its colour swap.
    uint16_t value(const Position& pos) const;
    // The same when the caller knows: flipped means pos has the colour-swapped material.
    uint16_t value(const Position& pos, bool flipped) const;

    // Receives the values of one block: the entries stored at [first, first + values.size()) of a side;
    // digit_order().for_each_index names their indices (first + k in the natural order).
    using BlockSink =
        std::function<void(uint32_t block, Color side, uint64_t first, std::span<const uint16_t> values)>;
    // Decompresses and checks every block of `sides` to move, in parallel, and hands each block's
    // values to sink (called concurrently for different blocks). Throws Stopped once `stop` is
    // raised, before the blocks not yet begun.
    void read_all(const BlockSink& sink, SideSet sides = BOTH_SIDES,
                  const std::atomic<bool>* stop = nullptr) const;
    // The stored values of the n entries of `side` stored at positions [first, first + n) (in
    // digit_order()), decompressing the blocks that hold them without caching them: a run read once.
    // Throws StoreError like value().
    void read_values(Color side, uint64_t first, uint64_t n, uint16_t* out) const;
    // Decompresses and checks every block without keeping them.
    void verify_all() const;
    // Checks the CRC of every block without decompressing (fast: catches any damage to the file;
    // a block that passes can only fail to decode if the writer was wrong).
    void verify_checksums() const;

    // The decompressed codes of block b (cached); exposed for tests and benchmarks.
    BlockCache::Ptr block(uint32_t b) const;

private:
    TableReader(const std::filesystem::path& path, std::string* bytes, format::Metric metric,
                std::shared_ptr<BlockCache> cache);
    format::Header load_header(format::Metric metric);
    // Reads exactly n bytes at offset from the file or the memory image.
    void read_at(uint8_t* out, size_t n, uint64_t offset) const;
    std::vector<uint8_t> read_stored(uint32_t b) const;
    // The codes of block b, through the calling thread's last few blocks, then the cache.
    const uint8_t* codes(uint32_t b) const;
    // Checks the block's CRC, decompresses it to its codes and checks them against the dictionary.
    void decode(uint32_t b, const std::vector<uint8_t>& stored, uint8_t* out) const;
    [[noreturn]] void fail(const std::string& what) const;

    struct File {
        int fd = -1;
        uint64_t size = 0;
        ~File();
    };

    std::filesystem::path path_;
    std::string name_;
    File file_;
    std::string memory_;
    bool in_memory_ = false;
    format::Header header_;
    IndexScheme scheme_;
    DigitOrder order_;
    std::shared_ptr<BlockCache> cache_;
    uint64_t owner_;
    int block_shift_;
};

}  // namespace retro
