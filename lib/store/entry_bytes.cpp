#include "store/entry_bytes.hpp"

#include <tbb/blocked_range.h>

#include <algorithm>
#include <cstring>

#include "parallel/parallel_for.hpp"

namespace retro {

EntryBytes filled_entry_bytes(uint64_t n, uint8_t fill) {
    constexpr uint64_t PAGE = uint64_t(2) << 20;
    EntryBytes bytes;
    bytes.resize(n);  // allocated, not yet touched
    uint8_t* data = bytes.data();
    // Piece 0 runs up to the first page boundary, each next one to the next boundary.
    const uint64_t lead = (PAGE - reinterpret_cast<uintptr_t>(data) % PAGE) % PAGE;
    const auto edge = [&](uint64_t k) { return k == 0 ? 0 : std::min(n, lead + (k - 1) * PAGE); };
    const uint64_t pieces = n <= lead ? 1 : 2 + (n - lead - 1) / PAGE;
    par::parallel_for(tbb::blocked_range<uint64_t>(0, pieces, 1), [&](const auto& r) {
        std::memset(data + edge(r.begin()), fill, edge(r.end()) - edge(r.begin()));
    });
    return bytes;
}

}  // namespace retro
