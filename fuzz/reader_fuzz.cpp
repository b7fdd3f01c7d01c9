// libFuzzer target: the table file reader on arbitrary bytes. Any input must either open and read
// consistently or be refused with StoreError; crashes, sanitizer reports, other exceptions and
// out-of-memory are bugs. See docs/format.md ("Fuzzing") for how to build and run it.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "store/codec.hpp"
#include "store/table_reader.hpp"

using namespace retro;

namespace {

// Everything a reader offers, on a table that opened.
void exercise(const TableReader& reader, const uint8_t* data, size_t size) {
    const format::Header& h = reader.header();
    const uint64_t entries = h.entries_per_side;
    // Probes at a few indices taken from the input, then every block once.
    for (size_t i = 0; i + 8 <= size && i < 64; i += 8) {
        uint64_t idx = 0;
        for (int k = 0; k < 8; ++k) idx = idx << 8 | data[i + size_t(k)];
        try {
            reader.value(Color(idx & 1), (idx >> 1) % entries);
        } catch (const StoreError&) {
        }
    }
    try {
        reader.verify_all();
    } catch (const StoreError&) {
        return;
    }
    // A file that verified reads whole the same as block by block.
    if (entries > (uint64_t(1) << 22)) return;
    std::array<std::vector<uint16_t>, 2> values;
    for (auto& v : values) v.resize(entries);
    reader.read_all([&](uint32_t, Color side, uint64_t first, std::span<const uint16_t> block) {
        reader.digit_order().for_each_index(first, block.size(),
                                            [&](uint64_t k, uint64_t idx) { values[side][idx] = block[k]; });
    });
    for (Color side : {WHITE, BLACK})
        if (reader.stores(side))  // the shipping form's dropped side has no values to compare
            for (uint64_t i = 0; i < entries; i += 1 + entries / 64)
                if (reader.value(side, i) != values[side][i]) std::abort();
}

uint64_t get(const std::string& b, size_t at, int n) {
    uint64_t v = 0;
    for (int i = n; i-- > 0;) v = v << 8 | uint8_t(b[at + size_t(i)]);
    return v;
}

void put(std::string& b, size_t at, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b[at + size_t(i)] = char(v >> (8 * i));
}

// The input with its block CRCs and header CRC recomputed where the layout allows (docs/format.md),
// so that mutations reach the checks behind the checksums: header fields, the decoders, the codes.
// Empty when the header's own layout does not fit the input.
std::string with_fixed_checksums(std::string b) {
    size_t at = format::FIXED_HEADER_BYTES;
    if (b.size() < at) return {};
    const uint64_t blocks = get(b, 48, 4);
    for (int side = 0; side < 2; ++side) {
        if (at + 4 > b.size()) return {};
        at += 4 + get(b, at + 2, 2);
    }
    const size_t offsets = at, crcs = offsets + 8 * (blocks + 1), header_end = crcs + 4 * blocks + 4;
    if (blocks > b.size() || header_end > b.size()) return {};
    for (uint64_t k = 0; k < blocks; ++k) {
        const uint64_t first = get(b, offsets + 8 * k, 8), last = get(b, offsets + 8 * (k + 1), 8);
        if (first <= last && last <= b.size())
            put(b, crcs + 4 * k, crc32_of(b.data() + first, last - first), 4);
    }
    put(b, header_end - 4, crc32_of(b.data(), header_end - 4), 4);
    return b;
}

void read(const std::string& bytes, const uint8_t* data, size_t size) {
    for (format::Metric metric : {format::Metric::Dtm, format::Metric::Wdl}) {
        try {
            // An empty path: no file-name check, so any material in the header can be reached.
            const TableReader reader(bytes, "", metric, std::make_shared<BlockCache>(1 << 20));
            exercise(reader, data, size);
        } catch (const StoreError&) {
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    read(bytes, data, size);
    const std::string fixed = with_fixed_checksums(bytes);
    if (!fixed.empty() && fixed != bytes) read(fixed, data, size);
    return 0;
}
