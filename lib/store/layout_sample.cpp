#include "store/layout_sample.hpp"

#include <algorithm>
#include <cassert>

namespace retro {

namespace {

// splitmix64's finalizer: a fixed pseudo-random number for each stratum, so that a table is sampled
// at the same places by every write.
uint64_t scrambled(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

}  // namespace

std::vector<SampledRun> layout_sample(uint64_t entries, uint32_t block_entries, std::span<const Color> sides,
                                      uint32_t widen) {
    assert(block_entries > 0 && widen > 0);
    constexpr uint32_t BLOCKS = 8, MOST_RUN_ENTRIES = 1 << 17;
    const uint32_t run = std::min(block_entries, MOST_RUN_ENTRIES);
    const uint64_t wanted = widen * BLOCKS * std::clamp<uint32_t>(block_entries / run, 1, 4);
    const uint64_t runs = (entries + run - 1) / run, strata = std::min(runs, wanted);
    std::vector<SampledRun> sample;
    for (Color side : sides)
        for (uint64_t s = 0; s < strata; ++s) {
            // Stratum s holds the runs [s * runs / strata, (s + 1) * runs / strata).
            const uint64_t first_run = s * runs / strata, stratum_runs = (s + 1) * runs / strata - first_run;
            const uint64_t j = first_run + scrambled(2 * s + uint64_t(side)) % stratum_runs;
            sample.push_back({side, j * run, uint32_t(std::min<uint64_t>(run, entries - j * run))});
        }
    return sample;
}

}  // namespace retro
