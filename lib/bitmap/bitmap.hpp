// A dense bit array over an index range, safe for concurrent setting from many threads.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

namespace retro {

class Bitmap {
public:
    explicit Bitmap(uint64_t bits = 0) : bits_(bits), words_((bits + 63) / 64, 0) {}

    uint64_t size() const { return bits_; }
    uint64_t word_count() const { return words_.size(); }
    uint64_t word(uint64_t w) const { return words_[w]; }
    size_t bytes() const { return words_.size() * sizeof(uint64_t); }

    bool test(uint64_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
    void set(uint64_t i) { words_[i >> 6] |= bit(i); }
    // Safe while other threads set bits of the same word; reads first to skip redundant writes.
    void set_atomic(uint64_t i) {
        std::atomic_ref<uint64_t> w(words_[i >> 6]);
        if (!(w.load(std::memory_order_relaxed) & bit(i))) w.fetch_or(bit(i), std::memory_order_relaxed);
    }
    void clear() { std::fill(words_.begin(), words_.end(), 0); }

    uint64_t count() const {
        uint64_t n = 0;
        for (uint64_t w : words_) n += std::popcount(w);
        return n;
    }

    // Calls f(i) for every set bit i in words [first_word, last_word), in increasing order.
    template <class F>
    void for_each_set(uint64_t first_word, uint64_t last_word, F&& f) const {
        for (uint64_t w = first_word; w < last_word; ++w)
            for (uint64_t b = words_[w]; b; b &= b - 1) f(w * 64 + uint64_t(std::countr_zero(b)));
    }

private:
    static uint64_t bit(uint64_t i) { return uint64_t(1) << (i & 63); }
    uint64_t bits_;
    std::vector<uint64_t> words_;
};

}  // namespace retro
