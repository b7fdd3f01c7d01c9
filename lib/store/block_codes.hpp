// The codes a file stores for a run of entries (a block, or a sampled run of a candidate layout):
// each entry's value as its code in its side's dictionary (store/dictionary.hpp), packed, and ranked
// again in a file of version 6 (store/block_ranks.hpp); not yet compressed.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "store/digit_order.hpp"
#include "store/format.hpp"
#include "store/survey_source.hpp"
#include "store/table_file.hpp"
#include "store/table_values.hpp"

namespace retro {

class BlockCodes {
public:
    // The codes of `values` in the dictionaries of `h`. With a survey, its legal entries tell the holes
    // (when options.fill_holes) and its settled entries are those an exit settles. The references
    // must outlive this. `name` names the file in Stopped.
    BlockCodes(const TableValues& values, const format::Header& h, const WriteOptions& options,
               const SurveySource* survey, std::string name);

    // Whether the blocks rank their codes again (version 6: a file settled by exits, unless asked for 5).
    bool ranked() const { return ranked_; }

    // The codes of the n entries of `side` from `first`, stored in `order`. Holes and the entries an
    // exit settles take the run's fill: the value most entries of the run may take (their own
    // value; any, for a hole; any not better than their own, for a settled entry). Thread-safe.
    // Throws Stopped once the options' control's stop is raised.
    std::vector<uint8_t> operator()(Color side, uint64_t first, uint32_t n, const DigitOrder& order) const;

private:
    const TableValues& values_;
    const format::Header& h_;
    const WriteOptions& options_;
    const SurveySource* survey_;  // or none
    std::string name_;
    bool ranked_;
    std::array<std::vector<uint16_t>, 2> code_of_;     // [side][value]
    std::array<std::vector<uint16_t>, 2> best_first_;  // [side]: the codes, the best value first
};

}  // namespace retro
