#include "index/rank_split.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

namespace retro {

std::vector<IndexRange> king_pair_ranges(const IndexScheme& scheme, int ranks) {
    if (ranks < 1) throw std::invalid_argument("king_pair_ranges: at least one rank");
    const uint64_t pairs = scheme.digit_radices().front(), per_pair = scheme.size() / pairs;
    assert(pairs * per_pair == scheme.size());
    std::vector<IndexRange> ranges;
    for (uint64_t r = 0; r < uint64_t(ranks); ++r)
        ranges.push_back(
            {r * pairs / uint64_t(ranks) * per_pair, (r + 1) * pairs / uint64_t(ranks) * per_pair});
    return ranges;
}

uint64_t largest_rank_entries(const IndexScheme& scheme, int ranks) {
    uint64_t most = 0;
    for (const IndexRange& r : king_pair_ranges(scheme, ranks)) most = std::max(most, r.size());
    return most;
}

int rank_holding(const std::vector<IndexRange>& ranges, uint64_t i) {
    const auto after = std::upper_bound(ranges.begin(), ranges.end(), i,
                                        [](uint64_t x, const IndexRange& r) { return x < r.end; });
    assert(after != ranges.end() && after->contains(i));
    return int(after - ranges.begin());
}

}  // namespace retro
