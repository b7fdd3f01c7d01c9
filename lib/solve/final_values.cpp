#include "solve/final_values.hpp"

#include <array>
#include <atomic>
#include <cassert>

namespace retro {

SolvedScheme final_values(SchemeContext& c, LayerLog& log) {
    using namespace state;
    for (auto& codes : c.state.codes)
        par::parallel_for(tbb::blocked_range<uint64_t>(0, codes.size(), GRAIN), [&](const auto& r) {
            for (uint64_t i = r.begin(); i < r.end(); ++i) {
                assert(!pending(codes[i]) && codes[i] != FAR_WIN && codes[i] != FAR_LOSS);
                if (codes[i] != DONE_WIN && codes[i] != DONE_LOSS) codes[i] = Table::DRAW_BYTE;
            }
        });
    // Sized to the exact count (a growing list would take up to twice its size at the end), each
    // record's values at a place of their own. An entry is logged once, so the records may be read
    // back in any order.
    SolvedScheme values;
    const auto long_count = log.count_from(Table::LONG_BYTE);
    std::array<std::atomic<uint64_t>, 2> long_end{};
    for (int side = 0; side < 2; ++side) values.long_values[side].resize(long_count[side]);
    log.read_back(0, [&](const LayerRecord& r) {
        const uint8_t byte = Table::byte_of(Dtm(r.ply));
        if (byte != Table::LONG_BYTE) {
            r.for_each_entry([&](uint64_t i) { c.code(r.side, i) = byte; });
            return;
        }
        Table::LongValue* out = values.long_values[r.side].data() + long_end[r.side].fetch_add(r.size());
        r.for_each_entry([&](uint64_t i) {
            c.code(r.side, i) = byte;
            *out++ = {i, Dtm(r.ply)};
        });
    });
    values.bytes = std::move(c.state.codes);
    values.survey = std::move(c.survey);
    return values;
}

}  // namespace retro
