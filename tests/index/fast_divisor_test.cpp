// The reciprocal division against the processor's, up to the largest dividend it promises to divide
// exactly, for the divisors an index uses and for awkward ones.
#include "index/fast_divisor.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace retro;

TEST(FastDivisor, DividesExactlyUpToItsLargestDividend) {
    std::mt19937_64 rng(2026);
    // Group sizes (62, C(62,2), C(48,3), C(62,5)), king pairs (462, 1806), powers of two and their
    // neighbours, and divisors near 2^32 and 2^63 whose reciprocal errs the most.
    const uint64_t divisors[] = {1,
                                 2,
                                 3,
                                 7,
                                 62,
                                 1891,
                                 17296,
                                 6471002,
                                 462,
                                 1806,
                                 1ull << 20,
                                 (1ull << 20) + 1,
                                 (1ull << 32) - 1,
                                 (1ull << 32) + 1,
                                 (1ull << 63) - 25,
                                 1ull << 63,
                                 ~0ull};
    for (const uint64_t d : divisors) {
        const FastDivisor by(d);
        const uint64_t top = by.max_dividend();
        ASSERT_EQ(top, ~0ull / d);
        const auto check = [&](uint64_t n) { ASSERT_EQ(by.quotient(n), n / d) << n << " / " << d; };
        for (uint64_t n = 0; n < 4096 && n <= top; ++n) check(n);
        for (uint64_t back = 0; back < 4096 && back <= top; ++back) check(top - back);
        // Dividends just below and at the multiples of d, where a quotient too high would show.
        const auto below = [&](uint64_t bound) { return bound == ~0ull ? rng() : rng() % (bound + 1); };
        for (int trial = 0; trial < 20000; ++trial) {
            const uint64_t q = below(top / d);
            check(q * d);
            if (q > 0) check(q * d - 1);
            check(below(top));
        }
    }
}
