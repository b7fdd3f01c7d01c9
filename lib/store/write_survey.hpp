// What one walk over a table's legal entries tells its writer (solve/exit_settled.hpp), so that the
// writer need not tell holes from legal entries again, block after block: which entries are legal,
// how many legal entries take each value, and which of them an exit settles (format version 5).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "store/dtm.hpp"
#include "store/entry_bits.hpp"

namespace retro {

struct WriteSurvey {
    EntryBits legal;    // the legal entries; the others are holes
    EntryBits settled;  // the legal entries whose value an exit achieves
    // [side][value]: how many legal entries hold each value (DTM_DRAW included).
    std::array<std::vector<uint64_t>, 2> counts{std::vector<uint64_t>(size_t(DTM_DRAW) + 1),
                                                std::vector<uint64_t>(size_t(DTM_DRAW) + 1)};
};

}  // namespace retro
