#include "solve/slice_merge.hpp"

#include <tbb/blocked_range.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>

#include "parallel/parallel_for.hpp"
#include "solve/solver.hpp"

namespace retro {

namespace {

// The whole table's index of a slice's entries taken in increasing order: table_index once a run.
class TableIndexRuns {
public:
    explicit TableIndexRuns(const IndexScheme& slice)
        : slice_(slice), run_(slice.table_run()), stride_(slice.table_run_stride()) {}
    uint64_t operator()(uint64_t i) {
        const uint64_t start = i - i % run_;
        if (start != start_) {
            start_ = start;
            base_ = slice_.table_index(start);
        }
        return base_ + (i - start) * stride_;
    }

private:
    const IndexScheme& slice_;
    const uint64_t run_, stride_;
    uint64_t start_ = ~uint64_t(0), base_ = 0;
};

}  // namespace

void merge(const IndexScheme& scheme, const WriteSurvey& slice, WriteSurvey& table) {
    for (Color side : {WHITE, BLACK})
        for (auto [from, to] :
             {std::pair{&slice.legal, &table.legal}, std::pair{&slice.settled, &table.settled}}) {
            const auto& words = from->words[side];
            auto& out = to->words[side];
            par::parallel_for(tbb::blocked_range<size_t>(0, words.size(), 1 << 8), [&](const auto& r) {
                // Neighbouring entries of a slice mostly stay neighbours in the table: their bits are
                // gathered word by word, and a word that other tasks may share is written atomically.
                TableIndexRuns table_index(scheme);
                uint64_t word = 0, gathered = 0;
                const auto flush = [&] {
                    if (gathered)
                        std::atomic_ref<uint64_t>(out[word]).fetch_or(gathered, std::memory_order_relaxed);
                };
                for (size_t w = r.begin(); w < r.end(); ++w)
                    for (uint64_t bits = words[w]; bits; bits &= bits - 1) {
                        const uint64_t i = table_index(w * 64 + uint64_t(std::countr_zero(bits)));
                        if (i >> 6 != word) {
                            flush();
                            word = i >> 6;
                            gathered = 0;
                        }
                        gathered |= EntryBits::bit(i);
                    }
                flush();
            });
        }
}

void merge(std::span<const Table* const> slices, Table& table) {
    for (Color side : {WHITE, BLACK}) {
        auto& out = table.bytes_to_fill(side);
        // A run of a slice's entries lies at one stride in the table (one table_index a run), and run
        // k of each slice in the same stretch of it: the slices differ in their pawns, the table's
        // last digits. So run k of every slice is written at once, while that stretch is cached.
        uint64_t runs = 0, longest_run = 1;
        for (const Table* slice : slices) {
            const uint64_t run = slice->scheme.table_run();
            assert(slice->bytes(side).size() % run == 0);
            runs = std::max(runs, slice->bytes(side).size() / run);
            longest_run = std::max(longest_run, run);
        }
        par::parallel_for(
            tbb::blocked_range<uint64_t>(0, runs, 1 + (1 << 14) / longest_run), [&](const auto& r) {
                for (const Table* slice : slices) {
                    const auto& bytes = slice->bytes(side);
                    const uint64_t run = slice->scheme.table_run(), stride = slice->scheme.table_run_stride();
                    const uint64_t end = std::min(r.end(), bytes.size() / run);
                    for (uint64_t k = r.begin(); k < end; ++k) {
                        const uint64_t first = k * run, base = slice->scheme.table_index(first);
                        for (uint64_t j = 0; j < run; ++j)
                            if (bytes[first + j] != Table::DRAW_BYTE)
                                out[base + j * stride] = bytes[first + j];
                    }
                }
            });
        for (const Table* slice : slices) {
            if (slice->long_values(side).empty()) continue;
            std::vector<Table::LongValue> long_values;
            for (const auto& v : slice->long_values(side))
                long_values.push_back({slice->scheme.table_index(v.index), v.value});
            table.add_long_values(side, long_values);
        }
    }
}

std::unique_ptr<Table> whole_table(const SliceStore& slices) {
    auto table = std::make_unique<Table>(slices.material());
    for (int k = 0; k < int(slices.configs().size()); ++k) {
        const auto slice = slices.read(k);
        const Table* one[] = {slice.get()};
        merge(one, *table);
    }
    return table;
}

}  // namespace retro
