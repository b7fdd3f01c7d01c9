#include "store/block_codes.hpp"

#include <algorithm>
#include <cassert>
#include <numeric>

#include "store/block_ranks.hpp"
#include "store/dictionary.hpp"
#include "store/packed_codes.hpp"
#include "store/wdl.hpp"

namespace retro {

BlockCodes::BlockCodes(const TableValues& values, const format::Header& h, const WriteOptions& options,
                       const SurveySource* survey, std::string name)
    : values_(values),
      h_(h),
      options_(options),
      survey_(survey),
      name_(std::move(name)),
      ranked_(survey && options.rank_blocks) {
    assert(!survey_ || h.metric == format::Metric::Dtm);
    for (Color side : {WHITE, BLACK}) {
        const std::vector<uint16_t>& dict = h.sides[side].dictionary;
        code_of_[side].assign(size_t(DTM_DRAW) + 1, 0);
        for (size_t c = 0; c < dict.size(); ++c) code_of_[side][dict[c]] = uint16_t(c);
        best_first_[side].resize(dict.size());
        std::iota(best_first_[side].begin(), best_first_[side].end(), uint16_t(0));
        std::sort(best_first_[side].begin(), best_first_[side].end(),
                  [&](uint16_t a, uint16_t b) { return better(dict[a], dict[b]); });
    }
}

std::vector<uint8_t> BlockCodes::operator()(Color side, uint64_t first, uint32_t n,
                                            const DigitOrder& order) const {
    options_.control.stop_if_requested(Stopped::Work::Writing,
                                       name_ + ": the write was stopped; no file was left");
    const IndexScheme& scheme = values_.scheme();
    const format::Side& s = h_.sides[side];
    const std::vector<uint16_t>& code = code_of_[side];
    const bool dtm = h_.metric == format::Metric::Dtm;
    enum Kind : uint8_t { KEPT, HOLE, SETTLED };
    std::vector<uint16_t> codes(n);
    std::vector<Kind> kind(n);
    std::vector<uint64_t> takers(s.dictionary.size()), settled_by_code(s.dictionary.size());
    std::vector<Dtm> values(n);
    values_.read(side, order, first, n, values.data());
    const auto classify = [&](uint32_t i, bool hole, bool settled) {
        kind[i] = hole ? HOLE : settled ? SETTLED : KEPT;
        codes[i] = hole ? 0 : code[dtm ? values[i] : uint16_t(wdl_of(values[i]))];
        if (kind[i] == KEPT) ++takers[codes[i]];
        if (kind[i] == SETTLED) ++settled_by_code[codes[i]];
    };
    if (survey_) {  // the survey's marks alone, without placing the men
        std::vector<uint8_t> marks(n);
        survey_->read(side, order, first, n, marks.data());
        for (uint32_t i = 0; i < n; ++i)
            classify(i, options_.fill_holes && !(marks[i] & MARK_LEGAL), marks[i] & MARK_SETTLED);
    } else if (options_.fill_holes) {
        IndexCursor at(scheme, first, order.order());
        for (uint32_t i = 0; i < n; ++i, at.next()) classify(i, is_hole(scheme, side, values[i], at), false);
    } else {  // every entry keeps its value: none to place
        for (uint32_t i = 0; i < n; ++i) classify(i, false, false);
    }
    // A settled entry takes any fill no better than its value: add the counts from the best down.
    uint64_t settled_not_worse = 0;
    for (const uint16_t c : best_first_[side]) takers[c] += settled_not_worse += settled_by_code[c];
    const unsigned fill = unsigned(std::max_element(takers.begin(), takers.end()) - takers.begin());
    std::vector<uint8_t> packed(packed_bytes(n, s.bits), 0);
    if (s.bits > 0)
        for (uint32_t i = 0; i < n; ++i) {
            const bool takes_fill = kind[i] == HOLE || (kind[i] == SETTLED &&
                                                        !better(s.dictionary[fill], s.dictionary[codes[i]]));
            put_code(packed.data(), s.bits, i, takes_fill ? fill : codes[i]);
        }
    return ranked_ ? ranked_block(packed, n, s.bits) : packed;
}

}  // namespace retro
