#include "store/layout_sample.hpp"

#include <algorithm>
#include <cassert>

namespace retro {

std::vector<SampledRun> layout_sample(uint64_t entries, uint32_t block_entries,
                                      std::span<const Color> sides) {
    assert(block_entries > 0);
    constexpr uint32_t BLOCKS = 8, MOST_RUN_ENTRIES = 1 << 17;
    const uint32_t run = std::min(block_entries, MOST_RUN_ENTRIES);
    const uint64_t wanted = BLOCKS * std::clamp<uint32_t>(block_entries / run, 1, 4);
    const uint64_t runs = (entries + run - 1) / run, step = std::max<uint64_t>(1, runs / wanted);
    std::vector<SampledRun> sample;
    for (Color side : sides)
        for (uint64_t j = step / 2; j < runs; j += step)
            sample.push_back({side, j * run, uint32_t(std::min<uint64_t>(run, entries - j * run))});
    return sample;
}

}  // namespace retro
