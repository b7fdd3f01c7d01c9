#include "store/survey_source.hpp"

#include "store/estimates.hpp"

namespace retro {

// A side's legal and settled bits are a quarter of its values' bytes.
uint64_t writer_survey_cache_bytes(const Material& m) { return writer_slice_cache_bytes(m) / 4; }

namespace {

uint8_t marks_of(const WriteSurvey& survey, Color side, uint64_t idx) {
    return uint8_t((survey.legal.test(side, idx) ? MARK_LEGAL : 0) |
                   (survey.settled.test(side, idx) ? MARK_SETTLED : 0));
}

}  // namespace

void MemorySurvey::read(Color side, const DigitOrder& order, uint64_t first, uint64_t n,
                        uint8_t* marks) const {
    order.for_each_index(first, n,
                         [&](uint64_t k, uint64_t idx) { marks[k] = marks_of(survey_, side, idx); });
}

SliceStoreSurvey::SliceStoreSurvey(const SliceStore& store, uint64_t cache_bytes)
    : store_(store),
      locator_(store.material()),
      counts_(store.survey_counts()),
      cache_(cache_bytes, [](const WriteSurvey& s) {
          uint64_t words = 0;
          for (const EntryBits* bits : {&s.legal, &s.settled})
              for (const auto& w : bits->words) words += w.size();
          return words * sizeof(uint64_t);
      }) {}

void SliceStoreSurvey::read(Color side, const DigitOrder& order, uint64_t first, uint64_t n,
                            uint8_t* marks) const {
    for_each_cached_slice_entry(
        locator_, cache_, side, order, first, n,
        [&](uint32_t k) {
            return std::make_shared<const WriteSurvey>(store_.read_survey(int(k), side_bit(side)));
        },
        [&](uint64_t k, const WriteSurvey* survey, uint64_t index) {
            marks[k] = survey ? marks_of(*survey, side, index) : 0;  // colliding pawns: holes
        });
}

}  // namespace retro
