// Division by a divisor fixed when an index is set up, as a multiply by its reciprocal: a 64-bit
// division takes tens of cycles, and decoding an index chains one per group of men.
#pragma once

#include <cassert>
#include <cstdint>

namespace retro {

class FastDivisor {
    __extension__ using Wide = unsigned __int128;  // GCC's and Clang's, for the product's high word

public:
    FastDivisor() = default;
    explicit FastDivisor(uint64_t d) : d_(d), m_(~uint64_t(0) / d + 1) { assert(d > 0); }

    // The largest dividend divided exactly: n * d < 2^64. With m = ceil(2^64 / d) = (2^64 + e) / d,
    // 0 <= e < d, the high word of n * m is n / d + n * e / (d * 2^64), whose error stays below 1 / d
    // and so cannot carry the quotient past the next integer.
    uint64_t max_dividend() const { return ~uint64_t(0) / d_; }

    uint64_t quotient(uint64_t n) const {
        assert(n <= max_dividend());
        if (d_ == 1) return n;  // m would be 2^64
        return uint64_t(Wide(n) * m_ >> 64);
    }

private:
    uint64_t d_ = 1, m_ = 0;
};

}  // namespace retro
