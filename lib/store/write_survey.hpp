// What one walk over a table's legal entries tells its writer (solve/exit_settled.hpp, or the solver
// as it goes), so that the writer need not tell holes from legal entries again, block after block:
// which entries are legal, how many legal entries take each value, and which of them an exit settles
// (format version 5).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "store/dtm.hpp"
#include "store/entry_bits.hpp"
#include "store/table.hpp"

namespace retro {

struct WriteSurvey {
    EntryBits legal;    // the legal entries; the others are holes
    EntryBits settled;  // the legal entries whose value an exit achieves
    // [side][value]: how many legal entries hold each value (DTM_DRAW included), COUNTED_VALUES each;
    // empty until counted. A pawn table's slices keep surveys without counts until they are merged:
    // 1 MiB of counts each took KPvKP's 1100 slices to 1.14 GiB (44.7 MiB estimated).
    static constexpr size_t COUNTED_VALUES = size_t(DTM_DRAW) + 1;
    std::array<std::vector<uint64_t>, 2> counts;

    bool counted() const {
        return counts[WHITE].size() == COUNTED_VALUES && counts[BLACK].size() == COUNTED_VALUES;
    }
};

// A survey of `entries` entries per side, every bit clear and nothing counted, for a solver to fill.
WriteSurvey empty_survey(uint64_t entries);

// Counts survey.counts from the values of `table` at survey.legal's entries (in parallel).
void count_legal_values(const Table& table, WriteSurvey& survey);

}  // namespace retro
