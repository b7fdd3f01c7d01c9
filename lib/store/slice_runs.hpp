// How the writer reads a pawn table from its slice store (store/slice_store.hpp) in an order with the
// pawn digits first: a run of entries with the same pawns lies in one slice, which a small cache of
// the most recently used slices serves. Shared by the values (store/table_values.hpp) and the survey
// (store/survey_source.hpp) read so.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "chess/types.hpp"
#include "index/pawn_slices.hpp"
#include "store/digit_order.hpp"

namespace retro {

// Walks the n entries stored at [first, first + n) in `order` (the pawn digits first): run(where)
// at each run of entries with the same pawns (nullopt where they collide: holes of every slice), then
// entry(k, index) for each of its entries, k counting from 0 and index in the run's slice.
template <class Run, class Entry>
void for_each_slice_entry(const SliceLocator& locator, const DigitOrder& order, uint64_t first, uint64_t n,
                          Run&& run, Entry&& entry) {
    const auto& radix = locator.radices();
    const std::vector<uint8_t>& stored = order.order();  // stored digit s is index digit stored[s]
    const size_t digits = radix.size();
    uint64_t digit[DigitOrder::MAX_DIGITS];
    for (size_t s = digits, rest = first; s-- > 0;) {
        digit[s] = rest % radix[stored[s]];
        rest /= radix[stored[s]];
    }
    size_t pawns = 0;  // the stored digits that name the slice come first
    while (pawns < digits && locator.is_pawn_digit(stored[pawns])) ++pawns;
    uint64_t index = 0;  // the other digits' part of the slice index
    for (size_t s = pawns; s < digits; ++s) index += digit[s] * locator.slice_weight(stored[s]);
    for (uint64_t k = 0; k < n;) {
        uint64_t tuple = 0;
        for (size_t d = 0; d < digits; ++d)
            if (locator.is_pawn_digit(d))
                for (size_t s = 0; s < pawns; ++s)
                    if (stored[s] == d) tuple = tuple * radix[d] + digit[s];
        const std::optional<SliceLocator::Where> where = locator.slice_of_tuple(tuple);
        run(where);
        const uint64_t base = where ? where->index : 0;
        for (bool same_pawns = true; same_pawns && k < n; ++k) {
            entry(k, base + index);
            for (size_t s = digits; s-- > 0;) {
                if (s < pawns) {
                    same_pawns = false;
                    if (++digit[s] < radix[stored[s]]) break;
                    digit[s] = 0;
                    continue;
                }
                const uint64_t weight = locator.slice_weight(stored[s]);
                index += weight;
                if (++digit[s] < radix[stored[s]]) break;
                digit[s] = 0;
                index -= radix[stored[s]] * weight;
            }
        }
    }
}

// What was read of the most recently used slices, one side to move each, within `budget` bytes
// (`bytes` tells an item's); the item just read stays, whatever the budget. Thread-safe.
template <class T>
class SliceCache {
public:
    SliceCache(uint64_t budget, std::function<uint64_t(const T&)> bytes)
        : budget_(budget), bytes_(std::move(bytes)) {}

    // Slice k's item for `side`, from the cache or from load() (outside the lock).
    std::shared_ptr<const T> get(uint32_t k, Color side,
                                 const std::function<std::shared_ptr<const T>()>& load) const {
        {
            std::lock_guard lock(mutex_);
            for (auto it = cache_.begin(); it != cache_.end(); ++it)
                if (it->slice == k && it->side == side) {
                    cache_.splice(cache_.begin(), cache_, it);
                    return it->item;
                }
        }
        std::shared_ptr<const T> item = load();
        std::lock_guard lock(mutex_);
        cache_.push_front({k, side, item});
        uint64_t held = 0;
        for (auto it = cache_.begin(); it != cache_.end();) {
            held += bytes_(*it->item);
            it = held > budget_ && it != cache_.begin() ? cache_.erase(it) : std::next(it);
        }
        return item;
    }

private:
    struct Cached {
        uint32_t slice;
        Color side;
        std::shared_ptr<const T> item;
    };
    const uint64_t budget_;
    const std::function<uint64_t(const T&)> bytes_;
    mutable std::mutex mutex_;
    mutable std::list<Cached> cache_;  // most recent first
};

// for_each_slice_entry with each run's slice item from `cache`, loaded by load(slice) when missing:
// entry(k, item, index), item null where the pawns collide.
template <class T, class Load, class Entry>
void for_each_cached_slice_entry(const SliceLocator& locator, const SliceCache<T>& cache, Color side,
                                 const DigitOrder& order, uint64_t first, uint64_t n, Load&& load,
                                 Entry&& entry) {
    std::shared_ptr<const T> item;
    for_each_slice_entry(
        locator, order, first, n,
        [&](const std::optional<SliceLocator::Where>& where) {
            item = where ? cache.get(where->slice, side, [&] { return load(where->slice); }) : nullptr;
        },
        [&](uint64_t k, uint64_t index) { entry(k, item.get(), index); });
}

}  // namespace retro
