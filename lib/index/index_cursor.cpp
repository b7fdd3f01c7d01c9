#include "index/index_cursor.hpp"

#include <cassert>
#include <numeric>

namespace retro {

IndexCursor::IndexCursor(const IndexScheme& scheme, uint64_t first) : IndexCursor(scheme, first, {}) {}

IndexCursor::IndexCursor(const IndexScheme& scheme, uint64_t first, std::span<const uint8_t> order)
    : scheme_(scheme), digit_count_(1 + scheme.groups_.size()), position_(first) {
    assert(order.empty() || order.size() == digit_count_);
    radix_[0] = scheme.pair_radix_;
    for (size_t g = 0; g < scheme.groups_.size(); ++g) radix_[g + 1] = scheme.groups_[g].size;
    stride_[digit_count_ - 1] = 1;
    for (size_t d = digit_count_ - 1; d-- > 0;) stride_[d] = stride_[d + 1] * radix_[d + 1];
    if (order.empty())
        std::iota(order_, order_ + digit_count_, uint8_t(0));
    else
        std::copy(order.begin(), order.end(), order_);
    uint64_t rest = first;
    for (size_t k = digit_count_; k-- > 0;) {  // stored digits, least significant first
        const size_t d = order_[k];
        digit_[d] = rest % radix_[d];
        rest /= radix_[d];
        index_ += digit_[d] * stride_[d];
    }
    size_t fastest = digit_count_ - 1;
    while (fastest > 0 && radix_[order_[fastest]] == 1) --fastest;
    stepped_digit_ = order_[fastest];
    if (stepped_digit_ > 0) {
        const IndexScheme::Group& g = scheme.groups_[stepped_digit_ - 1];
        if (g.count == 1 && !g.fixed) stepped_slot_ = g.first_slot;
        stepped_pawn_ = g.type == PAWN;
    }
    if (first >= scheme.size()) {
        index_ = first;  // past the end, as the last next() leaves it
        return;
    }
    place_kings();
    for (size_t g = 0; g < scheme.groups_.size(); ++g) place_group(g);
    check();
}

void IndexCursor::place_kings() { scheme_.place_kings(digit_[0], placement_); }

void IndexCursor::place_group(size_t g) {
    const auto& group = scheme_.groups_[g];
    const Square wk = placement_.square[0], bk = placement_.square[1];
    scheme_.unrank(group, digit_[g + 1], std::min(wk, bk), std::max(wk, bk), placement_);
}

void IndexCursor::next() {
    if (++position_ >= scheme_.size()) {
        index_ = position_;
        return;
    }
    if (stepped_slot_ >= 0 && digit_[stepped_digit_] + 1 < radix_[stepped_digit_]) {
        ++digit_[stepped_digit_];
        index_ += stride_[stepped_digit_];
        step_man();
        return;
    }
    // An odometer over the stored digits, the least significant turning fastest: the digits stored
    // from `k` on turned, and are placed again. The groups stand on squares counted around the
    // kings, so a new king pair places them all.
    size_t k = digit_count_;
    bool kings_turned = false;
    while (k-- > 0) {
        const size_t d = order_[k];
        index_ += stride_[d];
        kings_turned |= d == 0;
        if (++digit_[d] < radix_[d]) break;
        digit_[d] = 0;
        index_ -= radix_[d] * stride_[d];
    }
    if (kings_turned) {
        place_kings();
        for (size_t g = 0; g + 1 < digit_count_; ++g) place_group(g);
    } else {
        for (; k < digit_count_; ++k) place_group(order_[k] - 1u);
    }
    check();
}

void IndexCursor::check() {
    ++placements_;
    others_ = 0;
    for (int s = 0; s < scheme_.men(); ++s)
        if (s != stepped_slot_) others_ |= square_bb(placement_.square[s]);
    plain_steps_ =
        popcount(others_) == scheme_.men() - (stepped_slot_ >= 0) && !scheme_.kings_on_diagonal(placement_);
    valid_ = is_entry(others_ | (stepped_slot_ >= 0 ? square_bb(placement_.square[stepped_slot_]) : 0));
}

bool IndexCursor::is_entry(Bitboard occupied) const {
    return popcount(occupied) == scheme_.men() && !scheme_.is_diagonal_twin(placement_);
}

void IndexCursor::step_man() {
    Square& s = placement_.square[stepped_slot_];
    s = Square(s + 1);
    // A piece's digit counts the squares the kings leave free; a pawn's does not skip them.
    if (!stepped_pawn_) {
        const Square low = std::min(placement_.square[0], placement_.square[1]),
                     high = std::max(placement_.square[0], placement_.square[1]);
        if (s == low) s = Square(s + 1);
        if (s == high) s = Square(s + 1);
    }
    valid_ = plain_steps_ ? !(others_ & square_bb(s)) : is_entry(others_ | square_bb(s));
}

}  // namespace retro
