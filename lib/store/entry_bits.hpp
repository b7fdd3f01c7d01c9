// One bit per entry and side to move: a set of a table's entries, e.g. those whose value a move
// leaving the table achieves (solve/exit_settled.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "chess/types.hpp"

namespace retro {

struct EntryBits {
    // Bit i % 64 of word i / 64 stands for entry i; a side without words is the empty set.
    std::array<std::vector<uint64_t>, 2> words;

    static size_t words_for(uint64_t entries) { return size_t((entries + 63) / 64); }
    // The bytes of one side's words for `entries` entries.
    static uint64_t bytes_for(uint64_t entries) { return 8 * uint64_t(words_for(entries)); }
    // Entry i's bit within its word, and that word.
    static uint64_t bit(uint64_t i) { return uint64_t(1) << (i & 63); }
    uint64_t& word(Color side, uint64_t i) { return words[side][i >> 6]; }
    bool test(Color side, uint64_t i) const {
        const auto& w = words[side];
        return !w.empty() && (w[i >> 6] >> (i & 63) & 1);
    }
    // Sets or clears entry i's bit; not atomic: one thread per word.
    void assign(Color side, uint64_t i, bool on) {
        uint64_t& w = word(side, i);
        w = on ? w | bit(i) : w & ~bit(i);
    }
};

}  // namespace retro
