// The order in which a table file stores the entries of a side. An index is a number in mixed radix
// whose digits are the king pair and each group of like men (IndexScheme::digit_radices); a file may
// store the entries with those digits permuted, so that the men whose moves change the value least
// vary fastest and the compressor sees longer repeats (KRBvKR: 30% smaller with the bishop fastest,
// docs/format.md). The natural order stores entry idx at position idx.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace retro {

class DigitOrder {
public:
    DigitOrder() = default;  // natural
    // The natural order of an index with these radices (for_each_digits can walk it).
    explicit DigitOrder(std::vector<uint64_t> radices);
    // order[k] is the index digit stored k-th most significant; a permutation of 0 .. radices - 1
    // (throws std::invalid_argument otherwise).
    DigitOrder(std::vector<uint64_t> radices, std::vector<uint8_t> order);

    bool natural() const { return order_.empty(); }
    const std::vector<uint8_t>& order() const { return order_; }

    // The position at which entry idx is stored.
    uint64_t stored_of(uint64_t idx) const {
        if (natural()) return idx;
        uint64_t stored = 0;
        for (size_t d = radix_.size(); d-- > 0;) {
            stored += (idx % radix_[d]) * stored_stride_[d];
            idx /= radix_[d];
        }
        return stored;
    }

    // Calls f(k, idx) for the entries stored at positions first + k, k = 0 .. n - 1, in that order:
    // the stored digits count up like an odometer, so each step costs an addition or two.
    template <class F>
    void for_each_index(uint64_t first, uint64_t n, F&& f) const {
        if (natural()) {
            for (uint64_t k = 0; k < n; ++k) f(k, first + k);
            return;
        }
        for_each_digits(first, n, [&](uint64_t k, uint64_t idx, const uint64_t*) { f(k, idx); });
    }

    // The same, with the digits of idx too: f(k, idx, digit), digit[d] the index digit d (0 the
    // king pair, as IndexScheme::digit_radices counts them). Needs the radices: not for the
    // natural order of the default constructor.
    template <class F>
    void for_each_digits(uint64_t first, uint64_t n, F&& f) const {
        assert(!radix_.empty());
        const size_t digits = radix_.size();
        const auto stored = [&](size_t k) { return natural() ? k : size_t(order_[k]); };
        uint64_t digit[MAX_DIGITS], idx = 0, rest = first;
        for (size_t k = digits; k-- > 0;) {  // stored digits, least significant first
            const size_t d = stored(k);
            digit[d] = rest % radix_[d];
            rest /= radix_[d];
            idx += digit[d] * index_stride_[d];
        }
        for (uint64_t k = 0; k < n; ++k) {
            f(k, idx, static_cast<const uint64_t*>(digit));
            for (size_t s = digits; s-- > 0;) {
                const size_t d = stored(s);
                idx += index_stride_[d];
                if (++digit[d] < radix_[d]) break;
                digit[d] = 0;
                idx -= radix_[d] * index_stride_[d];
            }
        }
    }

    static constexpr size_t MAX_DIGITS = 12;

private:
    std::vector<uint8_t> order_;           // empty: natural
    std::vector<uint64_t> radix_;          // by index digit, most significant first
    std::vector<uint64_t> index_stride_;   // by index digit: its weight in the index
    std::vector<uint64_t> stored_stride_;  // by index digit: its weight in the stored position
};

}  // namespace retro
