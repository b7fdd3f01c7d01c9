#include "index/index_cursor.hpp"

namespace retro {

IndexCursor::IndexCursor(const IndexScheme& scheme, uint64_t first) : scheme_(scheme), index_(first) {
    uint64_t rest = first;
    for (size_t g = scheme.groups_.size(); g-- > 0;) {
        digits_[g] = rest % scheme.groups_[g].size;
        rest /= scheme.groups_[g].size;
    }
    kings_ = int(rest);
    if (first >= scheme.size()) return;
    placement_.square[0] = scheme.kings_->squares[size_t(kings_)][0];
    placement_.square[1] = scheme.kings_->squares[size_t(kings_)][1];
    for (size_t g = 0; g < scheme.groups_.size(); ++g) place_group(g);
    check();
}

void IndexCursor::place_group(size_t g) {
    const auto& group = scheme_.groups_[g];
    const Square wk = placement_.square[0], bk = placement_.square[1];
    scheme_.unrank(group, digits_[g], std::min(wk, bk), std::max(wk, bk), placement_);
}

void IndexCursor::next() {
    ++index_;
    size_t g = scheme_.groups_.size();
    while (g-- > 0) {  // odometer: the last digit turns fastest
        if (++digits_[g] < scheme_.groups_[g].size) break;
        digits_[g] = 0;
    }
    if (g == size_t(-1)) {  // every group wrapped: the next king pair
        if (++kings_ >= scheme_.kings_->count) return;
        placement_.square[0] = scheme_.kings_->squares[size_t(kings_)][0];
        placement_.square[1] = scheme_.kings_->squares[size_t(kings_)][1];
        g = 0;
    }
    for (; g < scheme_.groups_.size(); ++g) place_group(g);
    check();
}

void IndexCursor::check() {
    Bitboard occupied = 0;
    for (int s = 0; s < scheme_.men(); ++s) occupied |= square_bb(placement_.square[s]);
    valid_ = popcount(occupied) == scheme_.men() && !scheme_.is_diagonal_twin(placement_);
}

}  // namespace retro
