#include "solve/final_values.hpp"

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
    // Reserved to the exact count: a growing list would take up to twice its size at the end.
    SolvedScheme values;
    const auto long_count = log.count_from(Table::LONG_BYTE);
    for (int side = 0; side < 2; ++side) values.long_values[side].reserve(long_count[side]);
    log.replay([&](int ply, Color side, uint64_t i) {
        state::Code& code = c.code(side, i);
        code = Table::byte_of(Dtm(ply));
        if (code == Table::LONG_BYTE) values.long_values[side].push_back({i, Dtm(ply)});
    });
    values.bytes = std::move(c.state.codes);
    values.survey = std::move(c.survey);
    return values;
}

}  // namespace retro
