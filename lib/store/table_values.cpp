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
    : store_(store), scheme_(store.material()), locator_(store.material()), cache_bytes_(cache_bytes) {}

bool SliceStoreValues::reads_in(const DigitOrder& order) const { return pawn_digits_lead(scheme_, order); }

DigitOrder SliceStoreValues::natural_order() const { return pawn_digits_first(scheme_); }

std::shared_ptr<const Table> SliceStoreValues::slice(uint32_t k, Color side) const {
    {
        std::lock_guard lock(mutex_);
        for (auto it = cache_.begin(); it != cache_.end(); ++it)
            if (it->slice == k && it->side == side) {
                cache_.splice(cache_.begin(), cache_, it);
                return it->table;
            }
    }
    std::shared_ptr<const Table> table = store_.read(int(k), side_bit(side));  // outside the lock
    std::lock_guard lock(mutex_);
    cache_.push_front({k, side, table});
    uint64_t held = 0;
    for (auto it = cache_.begin(); it != cache_.end();) {
        held += it->table->size();
        // The slice just read stays, whatever the budget.
        it = held > cache_bytes_ && it != cache_.begin() ? cache_.erase(it) : std::next(it);
    }
    return table;
}

void SliceStoreValues::read(Color side, const DigitOrder& order, uint64_t first, uint64_t n, Dtm* out) const {
    assert(reads_in(order));
    const auto& radix = locator_.radices();
    const std::vector<uint8_t>& stored = order.order();  // stored digit s is index digit stored[s]
    const size_t digits = radix.size();
    uint64_t digit[DigitOrder::MAX_DIGITS];
    for (size_t s = digits, rest = first; s-- > 0;) {
        digit[s] = rest % radix[stored[s]];
        rest /= radix[stored[s]];
    }
    size_t pawns = 0;  // the stored digits that name the slice come first
    while (pawns < digits && locator_.is_pawn_digit(stored[pawns])) ++pawns;
    uint64_t index = 0;  // the other digits' part of the slice index
    for (size_t s = pawns; s < digits; ++s) index += digit[s] * locator_.slice_weight(stored[s]);
    for (uint64_t k = 0; k < n;) {
        // A run of entries with the same pawns: one slice and image.
        uint64_t tuple = 0;
        for (size_t d = 0; d < digits; ++d)
            if (locator_.is_pawn_digit(d))
                for (size_t s = 0; s < pawns; ++s)
                    if (stored[s] == d) tuple = tuple * radix[d] + digit[s];
        const auto where = locator_.slice_of_tuple(tuple);
        const std::shared_ptr<const Table> table = where ? slice(where->slice, side) : nullptr;
        for (bool same_pawns = true; same_pawns && k < n; ++k) {
            out[k] = table ? table->value(side, where->index + index) : DTM_DRAW;  // colliding pawns: holes
            for (size_t s = digits; s-- > 0;) {
                if (s < pawns) {
                    same_pawns = false;
                    if (++digit[s] < radix[stored[s]]) break;
                    digit[s] = 0;
                    continue;
                }
                const uint64_t weight = locator_.slice_weight(stored[s]);
                index += weight;
                if (++digit[s] < radix[stored[s]]) break;
                digit[s] = 0;
                index -= radix[stored[s]] * weight;
            }
        }
    }
}

}  // namespace retro
