// A thread-safe LRU cache of decompressed table blocks, shared by the readers of a tablebase.
#pragma once

#include <array>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace retro {

class BlockCache {
public:
    using Block = std::vector<uint8_t>;
    using Ptr = std::shared_ptr<const Block>;
    static constexpr size_t DEFAULT_BYTES = size_t(64) << 20;

    // Holds decompressed blocks up to capacity_bytes in all. The cache is cut into up to 16 shards of
    // at least 1 MiB, each with its own lock and LRU list; a shard always keeps the block added last.
    explicit BlockCache(size_t capacity_bytes = DEFAULT_BYTES);

    // The block under key, marked as most recently used, or nullptr.
    Ptr find(uint64_t key);
    // Adds a block (or keeps the one already there) and evicts the least recently used ones beyond the
    // capacity. Returns the cached block.
    Ptr insert(uint64_t key, Ptr block);
    void clear();

    // A fresh owner id: readers build keys as (owner << 32 | block).
    static uint64_t new_owner();
    // A key's bits spread over the high ones (Fibonacci hashing), for picking a slot from them.
    static constexpr uint64_t mix(uint64_t key) { return key * 0x9E3779B97F4A7C15ULL; }

    size_t capacity_bytes() const { return shard_capacity_ * shard_count_; }
    size_t bytes() const;
    size_t blocks() const;
    uint64_t hits() const;
    uint64_t misses() const;

private:
    static constexpr size_t SHARDS = 16;
    static constexpr size_t MIN_SHARD_BYTES = size_t(1) << 20;
    // Aligned to cache lines, so that threads busy in different shards do not share one.
    struct alignas(64) Shard {
        mutable std::mutex mutex;
        std::list<std::pair<uint64_t, Ptr>> lru;  // most recent first
        std::unordered_map<uint64_t, std::list<std::pair<uint64_t, Ptr>>::iterator> map;
        size_t bytes = 0;
        // Counted per shard, under its lock: one counter for all would be a cache line that every
        // probe of every thread writes.
        uint64_t hits = 0, misses = 0;
    };
    // The sum of field(shard) over the shards, each read under its lock.
    template <class Field>
    uint64_t total(Field field) const {
        uint64_t n = 0;
        for (const Shard& s : shards_) {
            std::lock_guard lock(s.mutex);
            n += field(s);
        }
        return n;
    }
    Shard& shard(uint64_t key) { return shards_[(mix(key) >> 32) % shard_count_]; }

    size_t shard_count_;
    size_t shard_capacity_;
    std::array<Shard, SHARDS> shards_;
};

}  // namespace retro
