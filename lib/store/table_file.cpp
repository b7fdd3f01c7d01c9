#include "store/table_file.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>

#include "store/block_codes.hpp"
#include "store/block_ranks.hpp"
#include "store/block_writer.hpp"
#include "store/dictionary.hpp"
#include "store/digit_order.hpp"
#include "store/estimates.hpp"
#include "store/format.hpp"
#include "store/layout_search.hpp"
#include "store/table_reader.hpp"

namespace retro {

namespace {

using format::Metric;

// Blocks hold 2^20 bits of codes (128 KiB) unless asked otherwise.
constexpr int BLOCK_CODE_BITS = 20;

// The codec level a write compresses at and the narrowest codes it stores, from options checked
// against `metric`. Throws StoreError naming `name`.
struct CheckedOptions {
    int level;
    int min_bits;
};
CheckedOptions checked_options(const WriteOptions& options, Metric metric, const std::string& name) {
    if (options.block_entries != 0 && !format::valid_block_entries(options.block_entries))
        throw StoreError(name +
                         ": block size must be 0 (automatic) or a power of two from 2^10 to 2^24 entries");
    const int level = options.level < 0 ? codec_default_level(options.codec) : options.level;
    if (level > codec_max_level(options.codec))
        throw StoreError(name + ": " + codec_name(options.codec) + " level " + std::to_string(level) +
                         " is above " + std::to_string(codec_max_level(options.codec)));
    if (options.xz_extreme && options.codec != Codec::Xz)
        throw StoreError(name + ": only xz has an extreme preset, not " + codec_name(options.codec));
    if (options.min_bits < -1 || options.min_bits > 8) throw StoreError(name + ": min_bits must be -1 to 8");
    return {level, options.min_bits >= 0 ? options.min_bits : metric == Metric::Dtm ? 8 : 2};
}

// Sets the header's version, dropped side and digit order (of `digits` digits) for `layout`.
void set_layout(format::Header& h, const Layout& layout, size_t digits, bool settled, bool ranked) {
    const DigitOrder& order = layout.order;
    if (layout.dropped || settled) {
        h.version = ranked    ? format::VERSION_BLOCKS_RANKED
                    : settled ? format::VERSION_EXITS_SETTLED
                              : format::VERSION_ONE_SIDE;
        if (layout.dropped) {
            h.dropped = layout.dropped;
            h.sides[*layout.dropped] = {};
            h.block_count = h.blocks_per_side();
        }
        h.digit_order = order.order();
        if (order.natural()) {  // versions 4 and 5 always name their order
            h.digit_order.resize(digits);
            std::iota(h.digit_order.begin(), h.digit_order.end(), uint8_t(0));
        }
    } else if (!order.natural()) {
        h.version = format::VERSION_DIGIT_ORDER;
        h.digit_order = order.order();
    }
}

// Pass 1 counts the values (or takes a survey's counts) and builds the dictionaries; the layout
// search compresses a sample of runs in each candidate layout; pass 2 writes the blocks.
void write_file(const TableValues& t, const std::filesystem::path& path, Metric metric,
                const WriteOptions& options, const SurveySource* survey) {
    const std::string name = path.string();
    // Named, not bound by a structured binding: the lambdas below use them, which Clang 14 refuses.
    const CheckedOptions checked = checked_options(options, metric, name);
    const int level = checked.level, min_bits = checked.min_bits;
    const uint64_t entries = t.scheme().size();

    format::Header h;
    h.metric = metric;
    h.codec = options.codec;
    h.material = t.material();
    h.entries_per_side = entries;
    // The survey's counts are of legal entries: holes this write fills.
    set_dictionaries(h, survey && options.fill_holes ? survey->counts() : count_values(t, options.fill_holes),
                     min_bits);
    const int widest = std::max({int(h.sides[WHITE].bits), int(h.sides[BLACK].bits), 1});
    h.block_entries = options.block_entries
                          ? options.block_entries
                          : uint32_t(1) << (BLOCK_CODE_BITS - std::countr_zero(unsigned(widest)));
    h.block_count = 2 * uint32_t((entries + h.block_entries - 1) / h.block_entries);
    // The header's length is 32 bits, and it holds 12 bytes a block: small blocks of the largest
    // 7-man tables would pass it.
    if (h.header_bytes() > UINT32_MAX)
        throw StoreError(name + ": " + std::to_string(h.block_count) + " blocks of " +
                         std::to_string(h.block_entries) +
                         " entries need a header of over 4 GiB; the format allows less: take larger blocks");

    const BlockCodes block_codes(t, h, options, survey, name);
    assert(options.keep == WriteOptions::Sides::Both || metric == Metric::Dtm);  // write_wdl keeps both
    const Layout layout = smallest_layout(
        orders_to_try(t, options, name), entries, h.block_entries, options.keep,
        [&](Color side, uint64_t first, uint32_t n, const DigitOrder& o, bool fast) {
            const auto codes = block_codes(side, first, n, o);
            return uint64_t(compress(h.codec, fast ? std::min(level, codec_fast_level(h.codec)) : level,
                                     codes.data(), codes.size())
                                .size());
        });
    set_layout(h, layout, t.scheme().digit_radices().size(), survey != nullptr, block_codes.ranked());

    write_blocks(h, path, level, options, [&](uint32_t b) {
        const uint32_t j = b % h.blocks_per_side();
        const auto codes = block_codes(h.side_of_block(b), uint64_t(j) * h.block_entries,
                                       h.entries_in_block(j), layout.order);
        return compress(h.codec, level, codes.data(), codes.size(), options.xz_extreme);
    });
}

}  // namespace

bool exact_copy_current(const std::filesystem::path& dir, const Material& m,
                        const std::filesystem::path& copy_dir, SideSet sides) {
    std::error_code ec;
    const auto copy = exact_copy_path(copy_dir.empty() ? dir : copy_dir, m);
    const auto copy_time = std::filesystem::last_write_time(copy, ec);
    if (ec) return false;
    const auto file_time = std::filesystem::last_write_time(table_path(dir, m), ec);
    if (ec || copy_time < file_time) return false;
    try {
        const std::optional<Color> dropped = TableReader(copy, Metric::Dtm).header().dropped;
        return !dropped || !(sides & side_bit(*dropped));
    } catch (const StoreError&) {  // a damaged copy: the file is read instead
        return false;
    }
}

uint64_t codec_bytes(const WriteOptions& options, int threads) {
    size_t block_bytes =
        options.block_entries ? 2 * size_t(options.block_entries) : size_t(1) << (BLOCK_CODE_BITS - 3);
    // A ranked block (version 6) may store its codes plain after a byte: zstd then sizes its context
    // for inputs above 128 KiB (4.45 MB at level 15, not 2.88).
    if (options.settle_exits && options.rank_blocks)
        block_bytes = ranked_block_capacity(uint32_t(block_bytes), 8);
    return uint64_t(threads) * codec_thread_bytes(options.codec, options.level, block_bytes);
}

namespace {

// Bytes per entry and side to move, in hundredths, and the header's room.
uint64_t file_bytes(const Material& m, uint64_t percent) {
    return 2 * IndexScheme(m).size() * percent / 100 + 65536;
}

}  // namespace

uint64_t table_file_bytes_estimate(const Material& m, FileSize size) {
    // The 5-man files take 10.8% of a byte per entry and side pawnless, 12.2% with pawns, all the
    // tables of a kind together (the 4-man 9.9% and 11.3%); one file at most 27% (KQvKNN 26.8%, KQvKR
    // 26.1%; KRBvKR 2.2%), which 40% bounds.
    if (size == FileSize::Bound) return file_bytes(m, 40);
    return file_bytes(m, m.has_pawns() ? 13 : 11);
}

uint64_t exact_copy_bytes_estimate(const Material& m, FileSize size) {
    // Self-contained at zstd 1 without the writer's searches, the copies of the tables in tables/ take
    // 12.9% of a byte per entry and side pawnless, 20.0% with pawns, together; one at most 37% (KQvKR
    // 36.8%, KRBvKR 7.2%), within the files' bound.
    if (size == FileSize::Bound) return file_bytes(m, 40);
    return file_bytes(m, m.has_pawns() ? 20 : 13);
}

WriteOptions exact_copy_options(SideSet sides) {
    assert(sides != 0);
    WriteOptions o;
    if (sides != BOTH_SIDES)
        o.keep =
            sides == side_bit(WHITE) ? WriteOptions::Sides::WhiteToMove : WriteOptions::Sides::BlackToMove;
    o.codec = Codec::Zstd;
    o.level = 1;
    o.fill_holes = false;
    o.search_digit_order = false;
    o.settle_exits = false;
    o.sync_seconds = 1e9;  // a copy lost to a kill is written again or done without
    return o;
}

std::set<std::string> table_file_names(const std::filesystem::path& dir) {
    std::set<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == TABLE_EXTENSION)
            names.insert(e.path().stem().string());
    return names;
}

void write_table(const TableValues& values, const std::filesystem::path& path, const WriteOptions& options,
                 const SurveySource* survey) {
    write_file(values, path, Metric::Dtm, options, survey);
}

void write_table(const Table& table, const std::filesystem::path& path, const WriteOptions& options,
                 const WriteSurvey* survey) {
    assert(!survey || survey->counted());
    const std::optional<MemorySurvey> source = survey ? std::optional<MemorySurvey>(*survey) : std::nullopt;
    write_table(MemoryValues(table), path, options, source ? &*source : nullptr);
}

void write_wdl(const TableValues& values, const std::filesystem::path& path, const WriteOptions& options) {
    WriteOptions both = options;
    both.keep = WriteOptions::Sides::Both;  // a bitbase is small, and its probes need no search
    write_file(values, path, Metric::Wdl, both, nullptr);
}

void write_wdl(const Table& table, const std::filesystem::path& path, const WriteOptions& options) {
    write_wdl(MemoryValues(table), path, options);
}

TableAsStored read_table_as_stored(const std::filesystem::path& path, SideSet sides,
                                   const std::atomic<bool>* stop) {
    const TableReader reader(path, Metric::Dtm);
    Table::Bytes bytes;
    for (Color side : {WHITE, BLACK})
        if (sides & side_bit(side))
            bytes[side].resize(reader.scheme().size(), reader.stores(side) ? 0 : Table::DRAW_BYTE);
    // The long values of each block, gathered in block order.
    std::vector<std::vector<Table::LongValue>> block_longs(reader.header().block_count);
    reader.read_all(
        [&](uint32_t block, Color side, uint64_t first, std::span<const uint16_t> values) {
            uint8_t* out = bytes[side].data();
            reader.digit_order().for_each_index(first, values.size(), [&](uint64_t k, uint64_t idx) {
                out[idx] = Table::byte_of(values[k]);
                if (out[idx] == Table::LONG_BYTE) block_longs[block].push_back({idx, values[k]});
            });
        },
        sides, stop);
    Table::LongValues longs;
    for (uint32_t b = 0; b < block_longs.size(); ++b) {
        auto& side = longs[reader.header().side_of_block(b)];
        side.insert(side.end(), block_longs[b].begin(), block_longs[b].end());
    }
    if (!reader.digit_order().natural())  // the list is searched by index
        for (auto& side : longs)
            std::sort(side.begin(), side.end(),
                      [](const auto& a, const auto& b) { return a.index < b.index; });
    return {std::make_unique<Table>(reader.material(), std::move(bytes), std::move(longs)),
            reader.header().dropped, reader.header().exits_settled()};
}

std::unique_ptr<Table> read_table(const std::filesystem::path& path) {
    TableAsStored stored = read_table_as_stored(path);
    if (stored.dropped)
        throw StoreError(path.string() + ": the shipping form keeps no values for " +
                         color_name(*stored.dropped) +
                         " to move; read it through a Tablebase, which rebuilds them");
    if (stored.exits_settled)
        throw StoreError(path.string() +
                         ": its values are settled by captures and promotions into the sub-tables; read it "
                         "through a Tablebase, which applies them");
    return std::move(stored.table);
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

bool table_file_needs_subtables(const std::filesystem::path& path) {
    const TableReader reader(path, Metric::Dtm);
    return reader.header().exits_settled() || reader.header().dropped.has_value();
}

}  // namespace retro
