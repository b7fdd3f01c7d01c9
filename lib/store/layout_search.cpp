#include "store/layout_search.hpp"

#include <algorithm>
#include <array>
#include <numeric>

#include "parallel/parallel_for.hpp"
#include "store/layout_sample.hpp"
#include "store/store_error.hpp"

namespace retro {

namespace {

// At most as many candidate orders as a 6-man table has digit orders (5 digits, 120): the sample
// costs the same whatever the table's size, but each candidate compresses it once more.
constexpr size_t MOST_CANDIDATES = 120;

// Every order of the index's digits, in lexicographic order (the natural one first).
std::vector<std::vector<uint8_t>> every_order(size_t digits) {
    std::vector<std::vector<uint8_t>> out;
    std::vector<int> p(digits);  // int, not uint8_t: GCC 12 warns falsely on next_permutation of bytes
    std::iota(p.begin(), p.end(), 0);
    do out.emplace_back(p.begin(), p.end());
    while (std::next_permutation(p.begin(), p.end()));
    return out;
}

}  // namespace

std::vector<DigitOrder> orders_to_try(const TableValues& t, const WriteOptions& options,
                                      const std::string& name) {
    const std::vector<uint64_t> radices = t.scheme().digit_radices();
    std::vector<DigitOrder> candidates;
    if (!options.digit_order.empty()) {
        try {
            candidates.emplace_back(radices, options.digit_order);
        } catch (const std::invalid_argument& e) {
            throw StoreError(name + ": " + e.what());
        }
    } else if (!options.search_digit_order) {
        candidates.push_back(t.natural_order());
    } else {
        for (auto& o : every_order(radices.size())) candidates.emplace_back(radices, std::move(o));
    }
    const bool pawns = t.material().has_pawns();
    std::erase_if(candidates, [&](const DigitOrder& o) {
        return !t.reads_in(o) || (options.pawn_digits_first && pawns && !pawn_digits_lead(t.scheme(), o));
    });
    // Six digits (7 men) have 720 orders: the first 120 in lexicographic order keep the king pair
    // most significant, where the search puts it in the pawnless tables of fewer men. A table whose
    // pawn digits must lead has at most 120 left anyway.
    if (candidates.size() > MOST_CANDIDATES) candidates.resize(MOST_CANDIDATES);
    if (candidates.empty())
        throw StoreError(name +
                         ": no digit order to store the entries in: a table with pawns read from "
                         "its slices, or asked for its pawn digits first, stores them first");
    return candidates;
}

// With more than FINALISTS candidates, every one is ranked at the codec's fast level, and the
// FINALISTS best are compressed as stored: the same files, byte for byte, as compressing every
// candidate as stored on 39 tables of 3-5 men, for less CPU time (the fast ranking alone cost 1.3%
// more bytes). A finalist's bytes as stored are then scaled by its fast bytes over a sample WIDER
// times larger against those over the sample (a ratio estimator: the fast level's bytes follow the
// stored level's from run to run, and the wider sample holds less of the noise of a few heavy runs;
// docs/guide.md).
Layout smallest_layout(const std::vector<DigitOrder>& candidates, uint64_t entries, uint32_t block_entries,
                       WriteOptions::Sides keep, const StoredBytes& stored_bytes) {
    using Sides = WriteOptions::Sides;
    std::vector<Color> kept_sides;  // the sides a layout may keep
    if (keep != Sides::BlackToMove) kept_sides.push_back(WHITE);
    if (keep != Sides::WhiteToMove) kept_sides.push_back(BLACK);
    const auto layout = [&](size_t c, Color side) {
        return Layout{candidates[c], keep == Sides::Both ? std::nullopt : std::optional<Color>(~side)};
    };
    if (candidates.size() == 1 && keep != Sides::Smaller) return layout(0, kept_sides.front());

    constexpr size_t FINALISTS = 3;
    constexpr uint32_t WIDER = 8;
    const std::vector<SampledRun> sample = layout_sample(entries, block_entries, kept_sides);
    const std::vector<SampledRun> wide = layout_sample(entries, block_entries, kept_sides, WIDER);
    const bool widened = wide.size() > sample.size();  // else the sample is the whole table already

    // The bytes of each candidate of `which` over `runs`, by side: [w][side].
    using SideBytes = std::array<double, 2>;
    const auto sample_bytes = [&](const std::vector<SampledRun>& runs, const std::vector<size_t>& which,
                                  bool fast) {
        // One sampled run at a time, its candidates side by side: a pawn table read from its slice
        // store then holds one sampled run's slice at a time, however many the threads.
        std::vector<uint64_t> bytes(which.size() * runs.size());
        for (size_t k = 0; k < runs.size(); ++k)
            par::parallel_for(size_t(0), which.size(), [&](size_t w) {
                bytes[k * which.size() + w] =
                    stored_bytes(runs[k].side, runs[k].first, runs[k].n, candidates[which[w]], fast);
            });
        std::vector<SideBytes> per_side(which.size(), SideBytes{0, 0});
        for (size_t w = 0; w < which.size(); ++w)
            for (size_t k = 0; k < runs.size(); ++k)
                per_side[w][runs[k].side] += double(bytes[k * which.size() + w]);
        return per_side;
    };
    // The layouts (candidate, kept side; white alone stands for both sides kept) of `which`, by their
    // bytes, fewest first, ties in candidate order.
    struct Scored {
        double bytes;
        size_t candidate;
        Color side;
    };
    const auto ranked = [&](const std::vector<size_t>& which, const std::vector<SideBytes>& bytes) {
        std::vector<Scored> out;
        for (size_t w = 0; w < which.size(); ++w) {
            if (keep == Sides::Both)
                out.push_back({bytes[w][WHITE] + bytes[w][BLACK], which[w], WHITE});
            else
                for (Color side : kept_sides) out.push_back({bytes[w][side], which[w], side});
        }
        std::stable_sort(out.begin(), out.end(),
                         [](const Scored& a, const Scored& b) { return a.bytes < b.bytes; });
        return out;
    };
    std::vector<size_t> finalists(candidates.size());
    std::iota(finalists.begin(), finalists.end(), size_t(0));
    // Each candidate's bytes at the fast level over the sample, where they are needed.
    std::vector<SideBytes> fast_of(candidates.size());
    if (finalists.size() > FINALISTS) {  // keep the candidates of the best fast-ranked layouts
        fast_of = sample_bytes(sample, finalists, true);  // of every candidate: finalists holds them all
        const std::vector<Scored> by_fast = ranked(finalists, fast_of);
        finalists.clear();
        for (const Scored& s : by_fast)
            if (finalists.size() < FINALISTS &&
                std::find(finalists.begin(), finalists.end(), s.candidate) == finalists.end())
                finalists.push_back(s.candidate);
        std::sort(finalists.begin(), finalists.end());  // ties still go to the earlier candidate
    } else if (widened) {
        const std::vector<SideBytes> fast = sample_bytes(sample, finalists, true);
        for (size_t f = 0; f < finalists.size(); ++f) fast_of[finalists[f]] = fast[f];
    }
    std::vector<SideBytes> bytes = sample_bytes(sample, finalists, false);
    if (widened) {
        const std::vector<SideBytes> fast_wide = sample_bytes(wide, finalists, true);
        for (size_t f = 0; f < finalists.size(); ++f)
            for (Color side : kept_sides)
                if (const double fast = fast_of[finalists[f]][side]; fast > 0)
                    bytes[f][side] *= fast_wide[f][side] / fast;
    }
    const Scored best = ranked(finalists, bytes).front();
    return layout(best.candidate, best.side);
}

}  // namespace retro
