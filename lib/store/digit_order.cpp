#include "store/digit_order.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace retro {

namespace {

std::vector<uint8_t> identity(size_t n) {
    std::vector<uint8_t> order(n);
    std::iota(order.begin(), order.end(), uint8_t(0));
    return order;
}

}  // namespace

DigitOrder::DigitOrder(std::vector<uint64_t> radices) : DigitOrder(radices, identity(radices.size())) {}

DigitOrder::DigitOrder(std::vector<uint64_t> radices, std::vector<uint8_t> order)
    : order_(std::move(order)), radix_(std::move(radices)) {
    std::vector<uint8_t> sorted = order_;
    std::sort(sorted.begin(), sorted.end());
    if (radix_.empty() || radix_.size() > MAX_DIGITS || sorted != identity(radix_.size()))
        throw std::invalid_argument("a digit order must be a permutation of the index's " +
                                    std::to_string(radix_.size()) + " digits");
    const size_t n = radix_.size();
    index_stride_.assign(n, 1);
    stored_stride_.assign(n, 1);
    for (size_t d = n - 1; d-- > 0;) index_stride_[d] = index_stride_[d + 1] * radix_[d + 1];
    uint64_t stride = 1;
    for (size_t k = n; k-- > 0;) {
        stored_stride_[order_[k]] = stride;
        stride *= radix_[order_[k]];
    }
    if (std::is_sorted(order_.begin(), order_.end())) order_.clear();  // the identity is natural
}

}  // namespace retro
