// The writer's survey (store/write_survey.hpp) read as the writer reads values, a run of entries at a
// time in the order a file stores them: from a survey in memory, or from a pawn table's slice store,
// a few slices at a time.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "index/pawn_slices.hpp"
#include "store/digit_order.hpp"
#include "store/slice_runs.hpp"
#include "store/slice_store.hpp"
#include "store/write_survey.hpp"

namespace retro {

// What the survey says of one entry, as bits.
enum SurveyMark : uint8_t { MARK_LEGAL = 1, MARK_SETTLED = 2 };

class SurveySource {
public:
    virtual ~SurveySource() = default;
    // [side][value]: how many legal entries hold each value (WriteSurvey::counts, counted).
    virtual const std::array<std::vector<uint64_t>, 2>& counts() const = 0;
    // The marks of the n entries of `side` stored at [first, first + n) in `order`. Thread-safe.
    virtual void read(Color side, const DigitOrder& order, uint64_t first, uint64_t n,
                      uint8_t* marks) const = 0;
};

// A counted survey of the whole table, in any order.
class MemorySurvey final : public SurveySource {
public:
    explicit MemorySurvey(const WriteSurvey& survey) : survey_(survey) {}
    const std::array<std::vector<uint64_t>, 2>& counts() const override { return survey_.counts; }
    void read(Color side, const DigitOrder& order, uint64_t first, uint64_t n, uint8_t* marks) const override;

private:
    const WriteSurvey& survey_;
};

// The survey of a slice store whose every slice keeps one (SliceStore::surveyed()), in the orders
// SliceStoreValues reads: at most `cache_bytes` of slices' bits are kept, the most recently used.
class SliceStoreSurvey final : public SurveySource {
public:
    SliceStoreSurvey(const SliceStore& store, uint64_t cache_bytes);
    const std::array<std::vector<uint64_t>, 2>& counts() const override { return counts_; }
    void read(Color side, const DigitOrder& order, uint64_t first, uint64_t n, uint8_t* marks) const override;

private:
    const SliceStore& store_;
    SliceLocator locator_;
    std::array<std::vector<uint64_t>, 2> counts_;
    SliceCache<WriteSurvey> cache_;  // one side's bits each
};

}  // namespace retro
