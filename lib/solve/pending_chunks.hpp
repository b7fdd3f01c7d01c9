// Which pending codes each chunk of the state may hold, by side to move. A layer's sweep reads only
// the chunks that may hold its code: late in a long table most chunks hold none of a layer's entries,
// and reading their bytes would find nothing.
#pragma once

#include <atomic>
#include <cassert>
#include <cstdint>
#include <memory>
#include <vector>

#include "chess/types.hpp"
#include "solve/entry_state.hpp"

namespace retro {

// The layer sweeps walk the index in chunks of this many entries, one layer log record each.
constexpr uint64_t SWEEP_CHUNK = 1 << 16;

class PendingChunks {
public:
    // None marked, for `entries` entries of each side.
    explicit PendingChunks(uint64_t entries) : chunks_((entries + SWEEP_CHUNK - 1) / SWEEP_CHUNK) {
        for (auto& side : bits_) side = std::make_unique<std::atomic<uint64_t>[]>(chunks_ * WORDS);
    }

    uint64_t chunks() const { return chunks_; }

    // Entry `local` of `side` (counted from the first entry this process holds) takes `code`.
    // Tested before it is set, so that the threads do not take the word's cache line from each other.
    void mark(Color side, uint64_t local, state::Code code) {
        std::atomic<uint64_t>& w = word(side, local / SWEEP_CHUNK, code);
        const uint64_t bit = bit_of(code);
        if (!(w.load(std::memory_order_relaxed) & bit)) w.fetch_or(bit, std::memory_order_relaxed);
    }

    // Whether `chunk` of `side` may hold entries of `code`, clearing the mark: the sweep of that
    // code's layer takes it. No entry takes the code of a layer while that layer is swept.
    bool take(Color side, uint64_t chunk, state::Code code) {
        if (!marked(side, chunk, code)) return false;
        word(side, chunk, code).fetch_and(~bit_of(code), std::memory_order_relaxed);
        return true;
    }

    // The chunks in [first, end) of `side` that may hold `code`, ascending; none is taken.
    std::vector<uint64_t> holding(Color side, state::Code code, uint64_t first, uint64_t end) const {
        assert(first <= end && end <= chunks_);
        std::vector<uint64_t> chunks;
        for (uint64_t k = first; k < end; ++k)
            if (marked(side, k, code)) chunks.push_back(k);
        return chunks;
    }

    // Whether any chunk of `side` may hold `code`.
    bool any(Color side, state::Code code) const {
        for (uint64_t k = 0; k < chunks_; ++k)
            if (marked(side, k, code)) return true;
        return false;
    }

    // Every code in every chunk: a resumed state says nothing of where its codes are.
    void mark_all() {
        for (auto& side : bits_)
            for (uint64_t w = 0; w < chunks_ * WORDS; ++w)
                side[w].store(~uint64_t(0), std::memory_order_relaxed);
    }

private:
    static constexpr int WORDS = (state::WIDEST_WINDOW + 63) / 64;

    static uint64_t bit_of(state::Code code) {
        assert(state::pending(code));
        return uint64_t(1) << ((code - state::PENDING) % 64);
    }
    bool marked(Color side, uint64_t chunk, state::Code code) const {
        return word(side, chunk, code).load(std::memory_order_relaxed) & bit_of(code);
    }
    std::atomic<uint64_t>& word(Color side, uint64_t chunk, state::Code code) const {
        assert(chunk < chunks_);
        return bits_[side][chunk * WORDS + (code - state::PENDING) / 64];
    }

    uint64_t chunks_;
    std::unique_ptr<std::atomic<uint64_t>[]> bits_[2];
};

}  // namespace retro
