#include "store/dictionary.hpp"

#include <algorithm>

#include "parallel/parallel_for.hpp"
#include "store/table.hpp"
#include "store/wdl.hpp"

namespace retro {

namespace {

// Code widths: 1, 2, 4, 8 or 16 bits (16 only for dictionaries of more than 256 values).
int bits_for(size_t dictionary_size, int min_bits) {
    if (dictionary_size <= 1) return 0;
    int bits = 1;
    while ((size_t(1) << bits) < dictionary_size || bits < min_bits) bits *= 2;
    return bits;
}

}  // namespace

// Counted by byte, and the rare values past a byte apart, over chunks of 2^20 entries.
ValueCounts count_values(const TableValues& t, bool skip_holes) {
    struct Histogram {
        std::array<uint64_t, 256> bytes;
        std::vector<Dtm> long_values;
    };
    const IndexScheme& scheme = t.scheme();
    const uint64_t entries = scheme.size();
    constexpr uint64_t CHUNK = 1 << 20;
    const uint64_t chunks = (entries + CHUNK - 1) / CHUNK;
    std::vector<Histogram> chunk_histogram(2 * chunks);
    const DigitOrder pass_order = t.natural_order();
    par::parallel_for(uint64_t(0), 2 * chunks, [&](uint64_t c) {
        const Color side = Color(c / chunks);
        const uint64_t first = (c % chunks) * CHUNK, n = std::min(entries, first + CHUNK) - first;
        Histogram& hist = chunk_histogram[c];
        hist.bytes.fill(0);
        std::vector<Dtm> values(n);
        t.read(side, pass_order, first, n, values.data());
        const auto count = [&](Dtm v) {
            const uint8_t byte = Table::byte_of(v);
            ++hist.bytes[byte];
            if (byte == Table::LONG_BYTE) hist.long_values.push_back(v);
        };
        if (!skip_holes) {  // no entry to place
            for (uint64_t i = 0; i < n; ++i) count(values[i]);
            return;
        }
        IndexCursor at(scheme, first, pass_order.order());
        for (uint64_t i = 0; i < n; ++i, at.next())
            if (!is_hole(scheme, side, values[i], at)) count(values[i]);
    });
    ValueCounts counts;
    for (int side = 0; side < 2; ++side) {
        std::vector<uint64_t>& total = counts[size_t(side)];
        total.assign(size_t(1) << 16, 0);
        for (uint64_t c = uint64_t(side) * chunks; c < uint64_t(side + 1) * chunks; ++c) {
            for (int byte = 0; byte < 256; ++byte)
                if (byte != Table::LONG_BYTE)
                    total[byte == Table::DRAW_BYTE ? DTM_DRAW : size_t(byte)] +=
                        chunk_histogram[c].bytes[size_t(byte)];
            for (const Dtm v : chunk_histogram[c].long_values) ++total[v];
        }
    }
    return counts;
}

void set_dictionaries(format::Header& h, ValueCounts counts, int min_bits) {
    const format::Metric metric = h.metric;
    for (int side = 0; side < 2; ++side) {
        std::vector<uint64_t>& total = counts[size_t(side)];
        if (metric == format::Metric::Wdl) {  // the same counts, by win/draw/loss
            std::vector<uint64_t> by_wdl(total.size());
            for (size_t v = 0; v < total.size(); ++v) by_wdl[size_t(wdl_of(Dtm(v)))] += total[v];
            total = std::move(by_wdl);
        }
        std::vector<uint16_t>& dict = h.sides[size_t(side)].dictionary;
        for (size_t v = 0; v < total.size(); ++v)
            if (total[v]) dict.push_back(uint16_t(v));
        std::stable_sort(dict.begin(), dict.end(),
                         [&](uint16_t a, uint16_t b) { return total[a] > total[b]; });
        if (dict.empty()) dict.push_back(metric == format::Metric::Dtm ? DTM_DRAW : uint16_t(Wdl::Draw));
        h.sides[size_t(side)].bits = uint8_t(bits_for(dict.size(), min_bits));
        for (uint16_t v : dict)
            if (metric == format::Metric::Dtm && !format::fits_byte_values(v))
                h.version = format::VERSION_WIDE_VALUES;
    }
}

}  // namespace retro
