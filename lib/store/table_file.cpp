#include "store/table_file.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <numeric>

#include "index/legal_entries.hpp"
#include "parallel/ordered_pipeline.hpp"
#include "parallel/parallel_for.hpp"
#include "store/atomic_file.hpp"
#include "store/digit_order.hpp"
#include "store/format.hpp"
#include "store/table_reader.hpp"

namespace retro {

namespace {

using format::Metric;

// Code widths: 1, 2, 4, 8 or 16 bits (16 only for dictionaries of more than 256 values).
int bits_for(size_t dictionary_size, int min_bits) {
    if (dictionary_size <= 1) return 0;
    int bits = 1;
    while ((size_t(1) << bits) < dictionary_size || bits < min_bits) bits *= 2;
    return bits;
}

// Candidate digit orders: every permutation of up to 5 digits (at most 24 for 5 men, 120 for 6: the
// sample costs the same whatever the table's size), else (7 men) the natural order and each digit
// moved to the least significant place.
std::vector<std::vector<uint8_t>> candidate_orders(size_t digits) {
    std::vector<std::vector<uint8_t>> out;
    if (digits <= 5) {
        std::vector<int> p(digits);  // int, not uint8_t: GCC 12 warns falsely on next_permutation of bytes
        std::iota(p.begin(), p.end(), 0);
        do out.emplace_back(p.begin(), p.end());
        while (std::next_permutation(p.begin(), p.end()));
        return out;
    }
    std::vector<uint8_t> natural(digits);
    std::iota(natural.begin(), natural.end(), uint8_t(0));
    out.push_back(natural);
    for (size_t d = 0; d + 1 < digits; ++d) {
        std::vector<uint8_t> p = natural;
        std::rotate(p.begin() + int64_t(d), p.begin() + int64_t(d) + 1, p.end());
        out.push_back(p);
    }
    return out;
}

// The candidate order whose sample of blocks (up to SAMPLE per side, evenly spread) compresses to the
// fewest bytes; ties go to the earlier candidate, the natural order first. stored_bytes(b, order)
// compresses block b as it would be stored.
template <class StoredBytes>
DigitOrder smallest_order(const IndexScheme& scheme, uint32_t per_side, StoredBytes&& stored_bytes) {
    constexpr uint32_t SAMPLE = 8;
    const std::vector<uint64_t> radices = scheme.digit_radices();
    std::vector<DigitOrder> candidates;
    for (auto& o : candidate_orders(radices.size())) candidates.emplace_back(radices, std::move(o));
    if (candidates.size() == 1) return candidates.front();
    std::vector<uint32_t> sample;
    const uint32_t step = std::max<uint32_t>(1, per_side / SAMPLE);
    for (uint32_t side = 0; side < 2; ++side)
        for (uint32_t b = step / 2; b < per_side; b += step) sample.push_back(side * per_side + b);
    std::vector<uint64_t> bytes(candidates.size() * sample.size());
    par::parallel_for(size_t(0), bytes.size(), [&](size_t k) {
        bytes[k] = stored_bytes(sample[k % sample.size()], candidates[k / sample.size()]);
    });
    size_t best = 0;
    uint64_t best_bytes = UINT64_MAX;
    for (size_t c = 0; c < candidates.size(); ++c) {
        const uint64_t total = std::accumulate(bytes.begin() + int64_t(c * sample.size()),
                                               bytes.begin() + int64_t((c + 1) * sample.size()), uint64_t(0));
        if (total < best_bytes) best = c, best_bytes = total;
    }
    return candidates[best];
}

DigitOrder given_order(const IndexScheme& scheme, const std::vector<uint8_t>& order,
                       const std::string& name) {
    try {
        return DigitOrder(scheme.digit_radices(), order);
    } catch (const std::invalid_argument& e) {
        throw StoreError(name + ": " + e.what());
    }
}

void write_file(const Table& t, const std::filesystem::path& path, Metric metric,
                const WriteOptions& options) {
    const std::string name = path.string();
    const uint32_t requested_block = options.block_entries;
    if (requested_block != 0 && !format::valid_block_entries(requested_block))
        throw StoreError(name +
                         ": block size must be 0 (automatic) or a power of two from 2^10 to 2^24 entries");
    const int level = options.level < 0 ? codec_default_level(options.codec) : options.level;
    if (level > codec_max_level(options.codec))
        throw StoreError(name + ": " + codec_name(options.codec) + " level " + std::to_string(level) +
                         " is above " + std::to_string(codec_max_level(options.codec)));
    if (options.min_bits < -1 || options.min_bits > 8) throw StoreError(name + ": min_bits must be -1 to 8");
    const int min_bits = options.min_bits >= 0 ? options.min_bits : metric == Metric::Dtm ? 8 : 2;
    const uint64_t entries = t.scheme.size();

    auto value_of = [&](Color side, uint64_t i) -> uint16_t {
        const Dtm v = t.value(side, i);
        return metric == Metric::Dtm ? v : uint16_t(wdl_of(v));
    };

    // Holes are entries of no legal position for their side to move; the reader never asks for them,
    // so they may take any value. Only drawn entries can be holes.
    auto is_hole = [&](Color side, uint64_t idx, Position& pos) {
        return options.fill_holes && t.bytes(side)[idx] == Table::DRAW_BYTE &&
               !decode_legal(t.scheme, idx, side, pos);
    };

    // Pass 1, over chunks of 2^20 entries: count the bytes of all entries but holes (the long values
    // are counted from their list).
    using Histogram = std::array<uint64_t, 256>;
    constexpr uint64_t CHUNK = 1 << 20;
    const uint64_t chunks = (entries + CHUNK - 1) / CHUNK;
    std::vector<Histogram> chunk_histogram(2 * chunks);
    par::parallel_for(uint64_t(0), 2 * chunks, [&](uint64_t c) {
        const Color side = Color(c / chunks);
        const uint64_t first = (c % chunks) * CHUNK, last = std::min(entries, first + CHUNK);
        Histogram& hist = chunk_histogram[c];
        hist.fill(0);
        Position pos;
        for (uint64_t idx = first; idx < last; ++idx)
            if (!is_hole(side, idx, pos)) ++hist[t.bytes(side)[idx]];
    });

    // The dictionary of each side: its values by falling frequency (ties: smaller value first).
    format::Header h;
    h.metric = metric;
    h.codec = options.codec;
    h.material = t.material();
    h.entries_per_side = entries;
    std::array<std::vector<uint16_t>, 2> code_of;  // [side][value]
    int widest = 0;
    for (int side = 0; side < 2; ++side) {
        std::vector<uint64_t> total(size_t(1) << 16);
        for (uint64_t c = uint64_t(side) * chunks; c < uint64_t(side + 1) * chunks; ++c)
            for (int byte = 0; byte < 256; ++byte)
                if (byte != Table::LONG_BYTE)
                    total[byte == Table::DRAW_BYTE ? DTM_DRAW : size_t(byte)] +=
                        chunk_histogram[c][size_t(byte)];
        for (const Table::LongValue& l : t.long_values(Color(side))) ++total[l.value];
        if (metric == Metric::Wdl) {  // the same counts, by win/draw/loss
            std::vector<uint64_t> by_wdl(total.size());
            for (size_t v = 0; v < total.size(); ++v) by_wdl[size_t(wdl_of(Dtm(v)))] += total[v];
            total = std::move(by_wdl);
        }
        std::vector<uint16_t>& dict = h.sides[size_t(side)].dictionary;
        for (size_t v = 0; v < total.size(); ++v)
            if (total[v]) dict.push_back(uint16_t(v));
        std::stable_sort(dict.begin(), dict.end(),
                         [&](uint16_t a, uint16_t b) { return total[a] > total[b]; });
        if (dict.empty()) dict.push_back(metric == Metric::Dtm ? DTM_DRAW : uint16_t(Wdl::Draw));
        code_of[size_t(side)].assign(total.size(), 0);
        for (size_t c = 0; c < dict.size(); ++c) code_of[size_t(side)][dict[c]] = uint16_t(c);
        h.sides[size_t(side)].bits = uint8_t(bits_for(dict.size(), min_bits));
        widest = std::max(widest, int(h.sides[size_t(side)].bits));
        for (uint16_t v : dict)
            if (metric == Metric::Dtm && !format::fits_byte_values(v))
                h.version = format::VERSION_WIDE_VALUES;
    }
    // Blocks of 2^20 bits of codes unless asked otherwise.
    h.block_entries = requested_block ? requested_block
                                      : uint32_t(1) << (20 - std::countr_zero(unsigned(std::max(widest, 1))));
    h.block_count = 2 * uint32_t((entries + h.block_entries - 1) / h.block_entries);
    const uint32_t per_side = h.blocks_per_side();

    // The codes of block b stored in `order`: holes take the most common value of their block (the
    // side's most common when the block has none); packed, not yet compressed.
    auto block_codes = [&](uint32_t b, const DigitOrder& order) {
        const Color side = Color(b / per_side);
        const format::Side& s = h.sides[side];
        const std::vector<uint16_t>& code = code_of[side];
        const uint32_t n = h.entries_in_block(b);
        std::vector<uint16_t> codes(n);
        std::vector<bool> hole(n);
        std::vector<uint64_t> count(s.dictionary.size());
        Position pos;
        order.for_each_index(uint64_t(b % per_side) * h.block_entries, n, [&](uint64_t i, uint64_t idx) {
            hole[i] = is_hole(side, idx, pos);
            codes[i] = hole[i] ? 0 : code[value_of(side, idx)];
            if (!hole[i]) ++count[codes[i]];
        });
        const unsigned fill = unsigned(std::max_element(count.begin(), count.end()) - count.begin());
        std::vector<uint8_t> packed(h.unpacked_bytes(b), 0);
        if (s.bits > 0)
            for (uint32_t i = 0; i < n; ++i) {
                const unsigned c = hole[i] ? fill : codes[i];
                const uint64_t bit = uint64_t(i) * s.bits;
                packed[bit >> 3] |= uint8_t(c << (bit & 7));
                if (s.bits == 16) packed[(bit >> 3) + 1] = uint8_t(c >> 8);
            }
        return packed;
    };
    const DigitOrder order =
        !options.digit_order.empty() ? given_order(t.scheme, options.digit_order, name)
        : options.search_digit_order
            ? smallest_order(t.scheme, per_side,
                             [&](uint32_t b, const DigitOrder& o) {
                                 const auto codes = block_codes(b, o);
                                 return compress(h.codec, level, codes.data(), codes.size()).size();
                             })
            : DigitOrder();
    if (!order.natural()) {
        h.version = format::VERSION_DIGIT_ORDER;
        h.digit_order = order.order();
    }

    // Pass 2, over blocks, written as they are compressed. The header goes first, once the blocks'
    // offsets and CRCs are known.
    AtomicFile file(path);
    h.offsets.assign(size_t(h.block_count) + 1, 0);
    h.block_crc.assign(h.block_count, 0);
    h.offsets[0] = h.header_bytes();
    file.append(std::vector<uint8_t>(h.offsets[0]));
    uint32_t written = 0;
    par::ordered_pipeline(
        h.block_count, 4 * size_t(tbb::this_task_arena::max_concurrency()),
        [&](uint64_t b) {
            const auto codes = block_codes(uint32_t(b), order);
            return compress(h.codec, level, codes.data(), codes.size());
        },
        [&](std::vector<uint8_t>&& stored) {
            file.append(stored);
            h.block_crc[written] = crc32_of(stored.data(), stored.size());
            h.offsets[written + 1] = file.size();
            ++written;
        });
    file.write_at(0, format::serialize(h));
    file.commit();
}

}  // namespace

std::filesystem::path table_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".rtb");
}

std::filesystem::path wdl_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".rtw");
}

std::set<std::string> table_file_names(const std::filesystem::path& dir) {
    std::set<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".rtb") names.insert(e.path().stem().string());
    return names;
}

void write_table(const Table& table, const std::filesystem::path& path, const WriteOptions& options) {
    write_file(table, path, Metric::Dtm, options);
}

void write_wdl(const Table& table, const std::filesystem::path& path, const WriteOptions& options) {
    write_file(table, path, Metric::Wdl, options);
}

std::unique_ptr<Table> read_table(const std::filesystem::path& path) {
    const TableReader reader(path, Metric::Dtm);
    Table::Bytes bytes;
    for (auto& b : bytes) b.resize(reader.scheme().size());
    // The long values of each block, gathered in block order.
    std::vector<std::vector<Table::LongValue>> block_longs(reader.header().block_count);
    reader.read_all([&](uint32_t block, Color side, uint64_t first, std::span<const uint16_t> values) {
        uint8_t* out = bytes[side].data();
        reader.digit_order().for_each_index(first, values.size(), [&](uint64_t k, uint64_t idx) {
            out[idx] = Table::byte_of(values[k]);
            if (out[idx] == Table::LONG_BYTE) block_longs[block].push_back({idx, values[k]});
        });
    });
    const uint32_t per_side = reader.header().blocks_per_side();
    Table::LongValues longs;
    for (uint32_t b = 0; b < block_longs.size(); ++b)
        longs[b / per_side].insert(longs[b / per_side].end(), block_longs[b].begin(), block_longs[b].end());
    if (!reader.digit_order().natural())  // the list is searched by index
        for (auto& side : longs)
            std::sort(side.begin(), side.end(),
                      [](const auto& a, const auto& b) { return a.index < b.index; });
    return std::make_unique<Table>(reader.material(), std::move(bytes), std::move(longs));
}

std::unique_ptr<WdlTable> read_wdl(const std::filesystem::path& path) {
    const TableReader reader(path, Metric::Wdl);
    auto table = std::make_unique<WdlTable>(reader.material());
    for (auto& v : table->values) v.resize(reader.scheme().size());
    reader.read_all([&](uint32_t, Color side, uint64_t first, std::span<const uint16_t> values) {
        reader.digit_order().for_each_index(first, values.size(), [&](uint64_t k, uint64_t idx) {
            table->values[side][idx] = uint8_t(values[k]);
        });
    });
    return table;
}

bool table_file_valid(const std::filesystem::path& path) {
    try {
        TableReader(path, Metric::Dtm).verify_checksums();
        return true;
    } catch (const StoreError&) {
        return false;
    }
}

}  // namespace retro
