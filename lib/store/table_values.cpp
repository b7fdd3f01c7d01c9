#include "store/table_values.hpp"

#include <algorithm>
#include <cassert>

#include "store/estimates.hpp"

namespace retro {

uint64_t writer_slice_cache_bytes(const Material& m) { return 4 * slice_entries(m); }

DigitOrder pawn_digits_first(const IndexScheme& scheme) {
    const std::vector<uint64_t> radices = scheme.digit_radices();
    std::vector<uint8_t> order;
    for (bool pawns : {true, false})
        for (size_t d = 0; d < radices.size(); ++d)
            if (scheme.is_pawn_digit(d) == pawns) order.push_back(uint8_t(d));
    return DigitOrder(radices, order);
}

bool pawn_digits_lead(const IndexScheme& scheme, const DigitOrder& order) {
    const size_t digits = scheme.digit_radices().size();
    size_t pawns = 0;
    for (size_t d = 0; d < digits; ++d) pawns += scheme.is_pawn_digit(d);
    if (pawns == 0 || order.natural()) return false;
    for (size_t s = 0; s < pawns; ++s)
        if (!scheme.is_pawn_digit(order.order()[s])) return false;
    return true;
}

std::pair<uint64_t, uint64_t> pawn_run(const IndexScheme& scheme, const DigitOrder& order,
                                       const PawnConfig& c) {
    assert(pawn_digits_lead(scheme, order));
    const std::vector<uint64_t> radices = scheme.digit_radices(), digits = scheme.pawn_digits(c);
    uint64_t tuple = 0, run = 1;
    for (const uint8_t d : order.order()) {
        if (scheme.is_pawn_digit(d))
            tuple = tuple * radices[d] + digits[d];
        else
            run *= radices[d];
    }
    return {tuple * run, run};
}

void MemoryValues::read(Color side, const DigitOrder& order, uint64_t first, uint64_t n, Dtm* out) const {
    if (!table_.has_side(side)) return std::fill(out, out + n, DTM_DRAW);
    order.for_each_index(first, n, [&](uint64_t k, uint64_t idx) { out[k] = table_.value(side, idx); });
}

void FileValues::read(Color side, [[maybe_unused]] const DigitOrder& order, uint64_t first, uint64_t n,
                      Dtm* out) const {
    assert(reads_in(order));
    static_assert(sizeof(Dtm) == sizeof(uint16_t));
    reader_->read_values(side, first, n, reinterpret_cast<uint16_t*>(out));
}

SliceStoreValues::SliceStoreValues(const SliceStore& store, uint64_t cache_bytes)
    : store_(store),
      scheme_(store.material()),
      locator_(store.material()),
      cache_(cache_bytes, [](const Table& t) { return t.size(); }) {}

bool SliceStoreValues::reads_in(const DigitOrder& order) const { return pawn_digits_lead(scheme_, order); }

DigitOrder SliceStoreValues::natural_order() const { return pawn_digits_first(scheme_); }

void SliceStoreValues::read(Color side, const DigitOrder& order, uint64_t first, uint64_t n, Dtm* out) const {
    assert(reads_in(order));
    for_each_cached_slice_entry(
        locator_, cache_, side, order, first, n,
        [&](uint32_t k) { return std::shared_ptr<const Table>(store_.read(int(k), side_bit(side))); },
        [&](uint64_t k, const Table* table, uint64_t index) {
            out[k] = table ? table->value(side, index) : DTM_DRAW;  // colliding pawns: holes
        });
}

}  // namespace retro
