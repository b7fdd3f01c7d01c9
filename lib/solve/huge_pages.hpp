// Large arrays on 2 MiB pages: the solver touches its value and counter arrays at random, and
// with small pages nearly every touch would also miss the TLB.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <vector>

namespace retro {

// Gives v n elements, each `fill`, asking the kernel for huge pages before the memory is touched
// (a request, not a guarantee: it needs transparent huge pages in "madvise" or "always" mode).
template <class T>
void assign_on_huge_pages(std::vector<T>& v, size_t n, T fill) {
    constexpr uintptr_t HUGE_PAGE = uintptr_t(2) << 20;
    v.clear();
    v.shrink_to_fit();
    v.reserve(n);  // allocated, not yet touched
    const auto begin = (reinterpret_cast<uintptr_t>(v.data()) + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    const auto end = (reinterpret_cast<uintptr_t>(v.data() + n)) & ~(HUGE_PAGE - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    v.assign(n, fill);
}

}  // namespace retro
