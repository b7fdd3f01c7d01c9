#include "store/table_diff.hpp"

#include <tbb/blocked_range.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>

#include "index/legal_entries.hpp"
#include "parallel/parallel_for.hpp"

namespace retro {

TableDifferences diff_tables(const Table& a, const Table& b, size_t examples) {
    if (a.material() != b.material())
        throw std::invalid_argument("diff_tables: " + a.material().name() + " against " +
                                    b.material().name());
    std::atomic<uint64_t> compared{0}, differing{0};
    std::mutex mutex;
    TableDifferences result;
    const auto before = [](const EntryDifference& x, const EntryDifference& y) {
        return std::pair(x.side, x.index) < std::pair(y.side, y.index);
    };
    for (Color side : {WHITE, BLACK}) {
        par::parallel_for(tbb::blocked_range<uint64_t>(0, a.size(), 1 << 14), [&](const auto& r) {
            uint64_t n = 0, bad = 0;
            std::vector<EntryDifference> found;  // a chunk's first differences are its lowest
            for_each_legal_entry(a.scheme, side, r.begin(), r.end(),
                                 [&](uint64_t i, const Placement&, const Position& pos) {
                                     ++n;
                                     const Dtm va = a.value(side, i), vb = b.value(side, i);
                                     if (va == vb) return;
                                     if (bad++ < examples) found.push_back({side, i, pos.fen(), va, vb});
                                 });
            compared += n;
            differing += bad;
            if (found.empty()) return;
            std::lock_guard lock(mutex);
            auto& first = result.first;
            first.insert(first.end(), found.begin(), found.end());
            std::sort(first.begin(), first.end(), before);
            if (first.size() > examples) first.resize(examples);
        });
    }
    result.compared = compared;
    result.differing = differing;
    return result;
}

}  // namespace retro
