#include "store/table_file.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <cassert>
#include <chrono>
#include <memory>
#include <numeric>

#include "index/legal_entries.hpp"
#include "parallel/ordered_pipeline.hpp"
#include "parallel/parallel_for.hpp"
#include "store/atomic_file.hpp"
#include "store/block_ranks.hpp"
#include "store/checksum.hpp"
#include "store/digit_order.hpp"
#include "store/format.hpp"
#include "store/layout_sample.hpp"
#include "store/packed_codes.hpp"
#include "store/table_reader.hpp"
#include "store/write_journal.hpp"

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

// Where a file puts its entries: the digit order, and the side to move it drops (shipping form).
struct Layout {
    DigitOrder order;
    std::optional<Color> dropped;
};

// The candidate order and kept sides whose sample of runs (layout_sample) compresses to the fewest
// bytes; ties go to the earlier candidate (the natural order first), then to white.
// stored_bytes(side, first, n, order, fast) compresses the n entries of a side from `first` as a
// block would be stored, or with the codec's fast level when `fast`: with more than FINALISTS
// candidates, every one is ranked fast, and the FINALISTS best are compressed as stored. Measured
// with tbpack on 39 tables of 3-5 men: the same files, byte for byte, as compressing every candidate
// as stored, in 13% less CPU time (371 -> 323 s); the fast ranking alone saved 27% but cost 1.3% more
// bytes (KRRvKR 5.3%).
// A finalist's bytes as stored are then scaled by its fast bytes over a sample WIDER times larger
// against those over the sample (a ratio estimator: the fast level's bytes follow the stored level's
// from run to run, and the wider sample holds less of the noise of a few heavy runs). Seven pawnless
// tables in blocks of 2^19 entries came out 1.0-1.4% smaller than ranked on the sample alone, within
// 0.2% of the best orders known, for about 8% more CPU time on KBNvKN's write (docs/guide.md).
template <class StoredBytes>
Layout smallest_layout(const std::vector<DigitOrder>& candidates, uint64_t entries, uint32_t block_entries,
                       WriteOptions::Sides keep, StoredBytes&& stored_bytes) {
    using Sides = WriteOptions::Sides;
    std::vector<Color> kept_sides;  // the sides a layout may keep
    if (keep != Sides::BlackToMove) kept_sides.push_back(WHITE);
    if (keep != Sides::WhiteToMove) kept_sides.push_back(BLACK);
    const auto layout = [&](size_t c, Color side) {
        return Layout{candidates[c], keep == Sides::Both ? std::nullopt : std::optional<Color>(~side)};
    };
    if (candidates.size() == 1 && keep != Sides::Smaller) return layout(0, kept_sides.front());

    constexpr size_t FINALISTS = 3;
    constexpr uint32_t WIDER = 8;
    const std::vector<SampledRun> sample = layout_sample(entries, block_entries, kept_sides);
    const std::vector<SampledRun> wide = layout_sample(entries, block_entries, kept_sides, WIDER);
    const bool widened = wide.size() > sample.size();  // else the sample is the whole table already

    // The bytes of each candidate of `which` over `runs`, by side: [w][side].
    using SideBytes = std::array<double, 2>;
    const auto sample_bytes = [&](const std::vector<SampledRun>& runs, const std::vector<size_t>& which,
                                  bool fast) {
        // One sampled run at a time, its candidates side by side: a pawn table read from its slice
        // store then holds one sampled run's slice at a time, however many the threads.
        std::vector<uint64_t> bytes(which.size() * runs.size());
        for (size_t k = 0; k < runs.size(); ++k)
            par::parallel_for(size_t(0), which.size(), [&](size_t w) {
                bytes[k * which.size() + w] =
                    stored_bytes(runs[k].side, runs[k].first, runs[k].n, candidates[which[w]], fast);
            });
        std::vector<SideBytes> per_side(which.size(), SideBytes{0, 0});
        for (size_t w = 0; w < which.size(); ++w)
            for (size_t k = 0; k < runs.size(); ++k)
                per_side[w][runs[k].side] += double(bytes[k * which.size() + w]);
        return per_side;
    };
    // The layouts (candidate, kept side; white alone stands for both sides kept) of `which`, by their
    // bytes, fewest first, ties in candidate order.
    struct Scored {
        double bytes;
        size_t candidate;
        Color side;
    };
    const auto ranked = [&](const std::vector<size_t>& which, const std::vector<SideBytes>& bytes) {
        std::vector<Scored> out;
        for (size_t w = 0; w < which.size(); ++w) {
            if (keep == Sides::Both)
                out.push_back({bytes[w][WHITE] + bytes[w][BLACK], which[w], WHITE});
            else
                for (Color side : kept_sides) out.push_back({bytes[w][side], which[w], side});
        }
        std::stable_sort(out.begin(), out.end(),
                         [](const Scored& a, const Scored& b) { return a.bytes < b.bytes; });
        return out;
    };
    std::vector<size_t> finalists(candidates.size());
    std::iota(finalists.begin(), finalists.end(), size_t(0));
    // Each candidate's bytes at the fast level over the sample, where they are needed.
    std::vector<SideBytes> fast_of(candidates.size());
    if (finalists.size() > FINALISTS) {  // keep the candidates of the best fast-ranked layouts
        fast_of = sample_bytes(sample, finalists, true);  // of every candidate: finalists holds them all
        const std::vector<Scored> by_fast = ranked(finalists, fast_of);
        finalists.clear();
        for (const Scored& s : by_fast)
            if (finalists.size() < FINALISTS &&
                std::find(finalists.begin(), finalists.end(), s.candidate) == finalists.end())
                finalists.push_back(s.candidate);
        std::sort(finalists.begin(), finalists.end());  // ties still go to the earlier candidate
    } else if (widened) {
        const std::vector<SideBytes> fast = sample_bytes(sample, finalists, true);
        for (size_t f = 0; f < finalists.size(); ++f) fast_of[finalists[f]] = fast[f];
    }
    std::vector<SideBytes> bytes = sample_bytes(sample, finalists, false);
    if (widened) {
        const std::vector<SideBytes> fast_wide = sample_bytes(wide, finalists, true);
        for (size_t f = 0; f < finalists.size(); ++f)
            for (Color side : kept_sides)
                if (const double fast = fast_of[finalists[f]][side]; fast > 0)
                    bytes[f][side] *= fast_wide[f][side] / fast;
    }
    const Scored best = ranked(finalists, bytes).front();
    return layout(best.candidate, best.side);
}

// The orders write_file tries: the one asked for, every candidate, or the natural one; only those
// the values can be read in (a pawn table from its slice store: the pawn digits first).
std::vector<DigitOrder> orders_to_try(const TableValues& t, const WriteOptions& options,
                                      const std::string& name) {
    const std::vector<uint64_t> radices = t.scheme().digit_radices();
    std::vector<DigitOrder> candidates;
    if (!options.digit_order.empty()) {
        try {
            candidates.emplace_back(radices, options.digit_order);
        } catch (const std::invalid_argument& e) {
            throw StoreError(name + ": " + e.what());
        }
    } else if (!options.search_digit_order) {
        candidates.push_back(t.natural_order());
    } else {
        for (auto& o : candidate_orders(radices.size())) candidates.emplace_back(radices, std::move(o));
    }
    const bool pawns = t.material().has_pawns();
    std::erase_if(candidates, [&](const DigitOrder& o) {
        return !t.reads_in(o) || (options.pawn_digits_first && pawns && !pawn_digits_lead(t.scheme(), o));
    });
    if (candidates.empty())
        throw StoreError(name +
                         ": no digit order to store the entries in: a table with pawns read from "
                         "its slices, or asked for its pawn digits first, stores them first");
    return candidates;
}

// Pass 1 of a write without a survey: how many entries of each side hold each value, holes aside
// when `holes` (`is_hole(side, value, cursor)`), over chunks of 2^20 entries in the order the values
// read fastest (by byte, and the rare values past a byte apart). Indexed [side][value].
template <class IsHole>
std::array<std::vector<uint64_t>, 2> counted_values(const TableValues& t, bool holes, IsHole&& is_hole) {
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
        if (!holes) {  // no entry to place
            for (uint64_t i = 0; i < n; ++i) count(values[i]);
            return;
        }
        IndexCursor at(scheme, first, pass_order.order());
        for (uint64_t i = 0; i < n; ++i, at.next())
            if (!is_hole(side, values[i], at)) count(values[i]);
    });
    std::array<std::vector<uint64_t>, 2> counts;
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

void write_file(const TableValues& t, const std::filesystem::path& path, Metric metric,
                const WriteOptions& options, const WriteSurvey* survey) {
    const std::string name = path.string();
    const uint32_t requested_block = options.block_entries;
    if (requested_block != 0 && !format::valid_block_entries(requested_block))
        throw StoreError(name +
                         ": block size must be 0 (automatic) or a power of two from 2^10 to 2^24 entries");
    const int level = options.level < 0 ? codec_default_level(options.codec) : options.level;
    if (level > codec_max_level(options.codec))
        throw StoreError(name + ": " + codec_name(options.codec) + " level " + std::to_string(level) +
                         " is above " + std::to_string(codec_max_level(options.codec)));
    if (options.xz_extreme && options.codec != Codec::Xz)
        throw StoreError(name + ": only xz has an extreme preset, not " + codec_name(options.codec));
    if (options.min_bits < -1 || options.min_bits > 8) throw StoreError(name + ": min_bits must be -1 to 8");
    const int min_bits = options.min_bits >= 0 ? options.min_bits : metric == Metric::Dtm ? 8 : 2;
    const IndexScheme& scheme = t.scheme();
    const uint64_t entries = scheme.size();

    auto value_of = [&](Dtm v) -> uint16_t { return metric == Metric::Dtm ? v : uint16_t(wdl_of(v)); };

    // Holes are entries of no legal position for their side to move; the reader never asks for them,
    // so they may take any value. A survey lists the legal entries. Without one, only drawn entries
    // can be holes, and a cursor steps to each entry's placement (decoding every drawn entry took a
    // quarter of tbpack's time on KRBvKR).
    const EntryBits* settled = survey ? &survey->settled : nullptr;
    const WriteSurvey* surveyed = options.fill_holes ? survey : nullptr;  // its holes are this write's
    auto is_hole = [&](Color side, Dtm value, const IndexCursor& at) {
        return options.fill_holes && value == DTM_DRAW &&
               (!at.valid() || !is_legal_entry(entry_position(scheme, at.placement(), side)));
    };

    // How many entries of each side hold each value, holes aside.
    assert(!survey || survey->counted());
    std::array<std::vector<uint64_t>, 2> counts =
        surveyed ? surveyed->counts : counted_values(t, options.fill_holes, is_hole);

    // The dictionary of each side: its values by falling frequency (ties: smaller value first).
    format::Header h;
    h.metric = metric;
    h.codec = options.codec;
    h.material = t.material();
    h.entries_per_side = entries;
    std::array<std::vector<uint16_t>, 2> code_of;  // [side][value]
    int widest = 0;
    for (int side = 0; side < 2; ++side) {
        std::vector<uint64_t>& total = counts[size_t(side)];
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

    // The codes of each side, the best value first.
    std::array<std::vector<uint16_t>, 2> best_first;
    for (Color side : {WHITE, BLACK}) {
        const std::vector<uint16_t>& dict = h.sides[side].dictionary;
        best_first[side].resize(dict.size());
        std::iota(best_first[side].begin(), best_first[side].end(), uint16_t(0));
        std::sort(best_first[side].begin(), best_first[side].end(),
                  [&](uint16_t a, uint16_t b) { return better(dict[a], dict[b]); });
    }
    assert(!settled || metric == Metric::Dtm);
    // A file settled by exits is version 6, whose blocks rank their codes again, unless asked for 5.
    const bool ranked = settled && options.rank_blocks;

    // The codes of the n entries of a side from `first` (a block, or a layout's sample) stored in
    // `order`, packed, not yet compressed. Holes and the entries an exit settles take the block's
    // fill: the value most entries of the block may take (their own value; any, for a hole; any not
    // better than their own, for a settled entry).
    auto run_codes = [&](Color side, uint64_t first, uint32_t n, const DigitOrder& order) {
        options.control.stop_if_requested(Stopped::Work::Writing,
                                          path.string() + ": the write was stopped; no file was left");
        const format::Side& s = h.sides[side];
        const std::vector<uint16_t>& code = code_of[side];
        enum Kind : uint8_t { KEPT, HOLE, SETTLED };
        std::vector<uint16_t> codes(n);
        std::vector<Kind> kind(n);
        std::vector<uint64_t> takers(s.dictionary.size()), settled_by_code(s.dictionary.size());
        std::vector<Dtm> values(n);
        t.read(side, order, first, n, values.data());
        const auto classify = [&](uint32_t i, uint64_t idx, bool hole) {
            kind[i] = hole ? HOLE : settled && settled->test(side, idx) ? SETTLED : KEPT;
            codes[i] = hole ? 0 : code[value_of(values[i])];
            if (kind[i] == KEPT) ++takers[codes[i]];
            if (kind[i] == SETTLED) ++settled_by_code[codes[i]];
        };
        if (surveyed) {  // the stored positions' indices alone, without placing the men (pass 2 of
                         // KBNvKB: 8.3 -> 7.2 s)
            order.for_each_index(first, n, [&](uint64_t i, uint64_t idx) {
                classify(uint32_t(i), idx, !surveyed->legal.test(side, idx));
            });
        } else if (settled || options.fill_holes) {
            IndexCursor at(scheme, first, order.order());
            for (uint32_t i = 0; i < n; ++i, at.next()) classify(i, at.index(), is_hole(side, values[i], at));
        } else {  // every entry keeps its value: none to place
            for (uint32_t i = 0; i < n; ++i) classify(i, 0, false);
        }
        // A settled entry takes any fill no better than its value: add the counts from the best down.
        uint64_t settled_not_worse = 0;
        for (const uint16_t c : best_first[side]) takers[c] += settled_not_worse += settled_by_code[c];
        const unsigned fill = unsigned(std::max_element(takers.begin(), takers.end()) - takers.begin());
        std::vector<uint8_t> packed(packed_bytes(n, s.bits), 0);
        if (s.bits > 0)
            for (uint32_t i = 0; i < n; ++i) {
                const bool takes_fill =
                    kind[i] == HOLE ||
                    (kind[i] == SETTLED && !better(s.dictionary[fill], s.dictionary[codes[i]]));
                put_code(packed.data(), s.bits, i, takes_fill ? fill : codes[i]);
            }
        return ranked ? ranked_block(packed, n, s.bits) : packed;
    };
    assert(options.keep == WriteOptions::Sides::Both || metric == Metric::Dtm);  // write_wdl keeps both
    const Layout layout = smallest_layout(
        orders_to_try(t, options, name), entries, h.block_entries, options.keep,
        [&](Color side, uint64_t first, uint32_t n, const DigitOrder& o, bool fast) {
            const auto codes = run_codes(side, first, n, o);
            return compress(h.codec, fast ? std::min(level, codec_fast_level(h.codec)) : level, codes.data(),
                            codes.size())
                .size();
        });
    const DigitOrder& order = layout.order;
    if (layout.dropped || settled) {
        h.version = ranked    ? format::VERSION_BLOCKS_RANKED
                    : settled ? format::VERSION_EXITS_SETTLED
                              : format::VERSION_ONE_SIDE;
        if (layout.dropped) {
            h.dropped = layout.dropped;
            h.sides[*layout.dropped] = {};
            h.block_count = per_side;
        }
        h.digit_order = order.order();
        if (order.natural()) {  // versions 4 and 5 always name their order
            h.digit_order.resize(scheme.digit_radices().size());
            std::iota(h.digit_order.begin(), h.digit_order.end(), uint8_t(0));
        }
    } else if (!order.natural()) {
        h.version = format::VERSION_DIGIT_ORDER;
        h.digit_order = order.order();
    }

    // Pass 2, over blocks, written as they are compressed. The header goes first, once the blocks'
    // offsets and CRCs are known. The blocks that a killed write of the same layout left on disk are
    // kept, when the last of them compresses to the same bytes again.
    h.offsets.assign(size_t(h.block_count) + 1, 0);
    h.block_crc.assign(h.block_count, 0);
    h.offsets[0] = h.header_bytes();
    const auto stored_block = [&](uint32_t b) {
        const uint32_t j = b % per_side;
        const auto codes =
            run_codes(h.side_of_block(b), uint64_t(j) * h.block_entries, h.entries_in_block(j), order);
        return compress(h.codec, level, codes.data(), codes.size(), options.xz_extreme);
    };
    const std::vector<uint8_t> layout_bytes = format::serialize(h);
    const int setting[] = {level, options.xz_extreme};  // blocks written otherwise are not resumed
    WriteJournal journal(
        path, checksum64(setting, sizeof setting, checksum64(layout_bytes.data(), layout_bytes.size())),
        h.offsets[0]);
    if (const size_t n = journal.ends().size();
        n > 0 && !journal.last_block_holds(stored_block(uint32_t(n - 1))))
        journal.forget();
    const uint32_t kept = uint32_t(journal.ends().size());
    const auto file =
        kept ? std::make_unique<AtomicFile>(path, journal.ends().back()) : std::make_unique<AtomicFile>(path);
    if (!kept) file->append(std::vector<uint8_t>(h.offsets[0]));
    for (uint32_t k = 0; k < kept; ++k) {
        h.offsets[k + 1] = journal.ends()[k];
        h.block_crc[k] = journal.crcs()[k];
    }
    auto last_sync = std::chrono::steady_clock::now();
    uint32_t written = kept;
    options.control.tell(Control::Count::BlocksWritten, written, h.block_count);
    // A stop keeps the blocks written so far for the next write; any other failure removes them.
    try {
        par::ordered_pipeline(
            h.block_count - kept, 4 * size_t(tbb::this_task_arena::max_concurrency()),
            [&](uint64_t i) { return stored_block(kept + uint32_t(i)); },
            [&](std::vector<uint8_t>&& stored) {
                file->append(stored);
                h.block_crc[written] = crc32_of(stored.data(), stored.size());
                h.offsets[written + 1] = file->size();
                journal.add(file->size(), h.block_crc[written]);
                ++written;
                if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last_sync).count() >=
                    options.sync_seconds) {
                    file->sync();
                    journal.flush();
                    last_sync = std::chrono::steady_clock::now();
                }
                options.control.tell(Control::Count::BlocksWritten, written, h.block_count);
            });
    } catch (const Stopped&) {
        file->leave_for_resume();
        journal.keep();
        throw;
    }
    file->write_at(0, format::serialize(h));
    file->commit();
}

}  // namespace

std::filesystem::path table_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".rtb");
}

std::filesystem::path wdl_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".rtw");
}

std::filesystem::path exact_copy_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".exact");
}

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
        if (e.is_regular_file() && e.path().extension() == ".rtb") names.insert(e.path().stem().string());
    return names;
}

void write_table(const TableValues& values, const std::filesystem::path& path, const WriteOptions& options,
                 const WriteSurvey* survey) {
    write_file(values, path, Metric::Dtm, options, survey);
}

void write_table(const Table& table, const std::filesystem::path& path, const WriteOptions& options,
                 const WriteSurvey* survey) {
    write_table(TableInMemory(table), path, options, survey);
}

void write_wdl(const TableValues& values, const std::filesystem::path& path, const WriteOptions& options) {
    WriteOptions both = options;
    both.keep = WriteOptions::Sides::Both;  // a bitbase is small, and its probes need no search
    write_file(values, path, Metric::Wdl, both, nullptr);
}

void write_wdl(const Table& table, const std::filesystem::path& path, const WriteOptions& options) {
    write_wdl(TableInMemory(table), path, options);
}

StoredTable read_stored_table(const std::filesystem::path& path, SideSet sides,
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
    StoredTable stored = read_stored_table(path);
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
