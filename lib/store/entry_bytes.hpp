// A byte per entry of an index and one side to move: the solver's state codes, then a table's values.
// Hundreds of megabytes and more, which the solver touches at random: they are asked for on 2 MiB
// pages (with small pages nearly every touch would also miss the TLB), and are not initialized when
// allocated, so that the threads of the pool fill them, each page first touched (and so zeroed by
// the kernel, and placed on a NUMA machine's node) by the thread that writes it.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace retro {

// std::allocator, but for the huge-page request and a default-initialized element (none written)
// where std::vector would value-initialize one.
template <class T>
struct HugePageAllocator {
    using value_type = T;

    HugePageAllocator() = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) {}

    // A request, not a guarantee: it needs transparent huge pages in "madvise" or "always" mode.
    T* allocate(size_t n) {
        T* p = std::allocator<T>().allocate(n);
        constexpr uintptr_t HUGE_PAGE = uintptr_t(2) << 20;
        const auto begin = (reinterpret_cast<uintptr_t>(p) + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        const auto end = reinterpret_cast<uintptr_t>(p + n) & ~(HUGE_PAGE - 1);
        if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
        return p;
    }
    void deallocate(T* p, size_t n) { std::allocator<T>().deallocate(p, n); }

    template <class U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }

    friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) { return true; }
};

using EntryBytes = std::vector<uint8_t, HugePageAllocator<uint8_t>>;

// n bytes, each `fill`, written in parallel by whole pages.
EntryBytes filled_entry_bytes(uint64_t n, uint8_t fill);

}  // namespace retro
