#include "store/block_cache.hpp"

#include <algorithm>
#include <atomic>

namespace retro {

BlockCache::BlockCache(size_t capacity_bytes)
    : shard_count_(std::clamp<size_t>(capacity_bytes / MIN_SHARD_BYTES, 1, SHARDS)),
      shard_capacity_(capacity_bytes / shard_count_) {}

BlockCache::Ptr BlockCache::find(uint64_t key) {
    Shard& s = shard(key);
    std::lock_guard lock(s.mutex);
    const auto it = s.map.find(key);
    if (it == s.map.end()) {
        ++s.misses;
        return nullptr;
    }
    ++s.hits;
    if (it->second != s.lru.begin()) s.lru.splice(s.lru.begin(), s.lru, it->second);
    return it->second->second;
}

BlockCache::Ptr BlockCache::insert(uint64_t key, Ptr block) {
    Shard& s = shard(key);
    std::lock_guard lock(s.mutex);
    if (const auto it = s.map.find(key); it != s.map.end()) return it->second->second;
    s.bytes += block->size();
    s.lru.emplace_front(key, block);
    s.map.emplace(key, s.lru.begin());
    // Evict from the cold end, but keep the block just added.
    while (s.bytes > shard_capacity_ && s.lru.size() > 1) {
        auto& [old_key, old_block] = s.lru.back();
        s.bytes -= old_block->size();
        s.map.erase(old_key);
        s.lru.pop_back();
    }
    return block;
}

void BlockCache::clear() {
    for (Shard& s : shards_) {
        std::lock_guard lock(s.mutex);
        s.lru.clear();
        s.map.clear();
        s.bytes = 0;
    }
}

uint64_t BlockCache::new_owner() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

uint64_t BlockCache::hits() const {
    return total([](const Shard& s) { return s.hits; });
}

uint64_t BlockCache::misses() const {
    return total([](const Shard& s) { return s.misses; });
}

size_t BlockCache::bytes() const {
    return total([](const Shard& s) { return s.bytes; });
}

size_t BlockCache::blocks() const {
    return total([](const Shard& s) { return s.lru.size(); });
}

}  // namespace retro
