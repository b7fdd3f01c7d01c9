#include "store/table.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

namespace retro {

namespace {

bool by_index(const Table::LongValue& a, const Table::LongValue& b) { return a.index < b.index; }

}  // namespace

Table::Table(const Material& m) : scheme(m) {
    for (auto& b : bytes_) b = filled_entry_bytes(scheme.size(), DRAW_BYTE);
}

Table::Table(const Material& m, Bytes&& bytes, LongValues&& long_values)
    : Table(IndexScheme(m), std::move(bytes), std::move(long_values)) {}

Table::Table(const IndexScheme& scheme, Bytes&& bytes, LongValues&& long_values)
    : scheme(scheme), bytes_(std::move(bytes)), long_(std::move(long_values)) {
    for (Color side : {WHITE, BLACK}) check_side(side);
}

void Table::replace_side(Color side, EntryBytes&& bytes, std::vector<LongValue>&& long_values) {
    bytes_[side] = std::move(bytes);
    long_[side] = std::move(long_values);
    check_side(side);
}

void Table::check_side(Color side) {
    const std::string what = material().name() + ": " + color_name(side) + " to move: ";
    if (bytes_[side].empty() && long_[side].empty()) return;  // a side not held
    if (bytes_[side].size() != scheme.size()) throw std::invalid_argument(what + "wrong number of entries");
    auto& list = long_[side];
    std::sort(list.begin(), list.end(), by_index);
    for (size_t i = 0; i < list.size(); ++i) {
        const LongValue& l = list[i];
        if (l.index >= scheme.size() || bytes_[side][l.index] != LONG_BYTE ||
            byte_of(Dtm(l.value)) != LONG_BYTE || (i > 0 && list[i - 1].index == l.index))
            throw std::invalid_argument(what + "long value at " + std::to_string(l.index) +
                                        " does not match its byte");
    }
    const auto longs = uint64_t(std::count(bytes_[side].begin(), bytes_[side].end(), LONG_BYTE));
    if (longs != list.size()) throw std::invalid_argument(what + "long values missing");
}

Dtm Table::long_value(Color side, uint64_t idx) const {
    const auto& list = long_[side];
    const auto it = std::lower_bound(list.begin(), list.end(), LongValue{idx, 0}, by_index);
    assert(it != list.end() && it->index == idx);
    return Dtm(it->value);
}

void Table::set(Color side, uint64_t idx, Dtm v) {
    auto& list = long_[side];
    const auto it = std::lower_bound(list.begin(), list.end(), LongValue{idx, 0}, by_index);
    const bool listed = it != list.end() && it->index == idx;
    bytes_[side][idx] = byte_of(v);
    if (byte_of(v) == LONG_BYTE) {
        if (listed)
            it->value = v;
        else
            list.insert(it, LongValue{idx, v});
    } else if (listed) {
        list.erase(it);
    }
}

void Table::add_long_values(Color side, const std::vector<LongValue>& values) {
    auto& list = long_[side];
    const auto middle = list.insert(list.end(), values.begin(), values.end());
    std::sort(middle, list.end(), by_index);
    std::inplace_merge(list.begin(), middle, list.end(), by_index);
}

bool operator==(const Table& a, const Table& b) {
    if (!(a.material() == b.material()) || a.bytes_ != b.bytes_) return false;
    for (int side = 0; side < 2; ++side)
        if (!std::equal(
                a.long_[side].begin(), a.long_[side].end(), b.long_[side].begin(), b.long_[side].end(),
                [](const auto& x, const auto& y) { return x.index == y.index && x.value == y.value; }))
            return false;
    return true;
}

}  // namespace retro
