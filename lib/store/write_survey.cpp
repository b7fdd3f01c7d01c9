#include "store/write_survey.hpp"

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>

#include <bit>

#include "parallel/parallel_for.hpp"
#include "store/estimates.hpp"

namespace retro {

uint64_t survey_bytes(uint64_t entries) {
    return 2 * 2 * sizeof(uint64_t) * EntryBits::words_for(entries);  // legal and settled, both sides
}

WriteSurvey empty_survey(uint64_t entries) {
    WriteSurvey survey;
    for (EntryBits* bits : {&survey.legal, &survey.settled})
        for (auto& words : bits->words) words.assign(EntryBits::words_for(entries), 0);
    return survey;
}

void count_legal_values(const Table& table, WriteSurvey& survey) {
    for (Color side : {WHITE, BLACK}) {
        const std::vector<uint64_t>& legal = survey.legal.words[side];
        const EntryBytes& bytes = table.bytes(side);
        // By byte, which is the value but for LONG_BYTE (few entries, looked up one by one).
        struct Counts {
            std::array<uint64_t, 256> by_byte{};
            std::vector<Dtm> long_values;
        };
        tbb::combinable<Counts> counts;
        par::parallel_for(tbb::blocked_range<size_t>(0, legal.size(), 1 << 10), [&](const auto& r) {
            Counts& c = counts.local();
            for (size_t w = r.begin(); w < r.end(); ++w)
                for (uint64_t bits = legal[w]; bits; bits &= bits - 1) {
                    const uint64_t i = w * 64 + uint64_t(std::countr_zero(bits));
                    const uint8_t b = bytes[i];
                    ++c.by_byte[b];
                    if (b == Table::LONG_BYTE) c.long_values.push_back(table.value(side, i));
                }
        });
        std::vector<uint64_t>& total = survey.counts[side];
        total.assign(WriteSurvey::COUNTED_VALUES, 0);
        counts.combine_each([&](const Counts& c) {
            for (int b = 0; b < 256; ++b)
                if (b != Table::LONG_BYTE)
                    total[b == Table::DRAW_BYTE ? DTM_DRAW : size_t(b)] += c.by_byte[b];
            for (const Dtm v : c.long_values) ++total[v];
        });
    }
}

}  // namespace retro
