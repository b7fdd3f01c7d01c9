// What table files could weigh: re-encodes existing tables (.rtb) with other hole fillings, block
// sizes and codecs (zstd with a dictionary trained per table and side) and prints the bytes, the
// CPU time to compress and the median time to decode one block. Nothing is written.
//
//   compress_study FILE.rtb...            every variant
//   compress_study --only NAME FILE.rtb   one variant (see the table printed), or one study:
//                                         order, lzma, conditional, entropy, predict
//   LZMA_VARIANT=TEXT compress_study --only lzma FILE.rtb   the LZMA rows whose name holds TEXT (or
//                                         one of several, comma-separated; STORED_VARIANT too)
//   STORED_VARIANT=TEXT compress_study --only stored FILE.rtb   codecs and block sizes over the codes
//                                         the file stores (any version, settled ones too), those
//                                         rows whose name holds TEXT (STORED_SAMPLE=N: over a sample,
//                                         to project a set: see sampled())
//   compress_study --only predict FILE.rtb   zstd levels over the stored codes with the neighbours'
//                                         predictions taken out first
#include <lzma.h>
#include <tbb/combinable.h>
#include <time.h>
#define ZSTD_STATIC_LINKING_ONLY  // the advanced dictionary API
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "index/legal_entries.hpp"
#include "parallel/parallel_for.hpp"
#include "store/block_ranks.hpp"
#include "store/codec.hpp"
#include "store/table_file.hpp"
#include "store/table_reader.hpp"
#include "study_main.hpp"

using namespace retro;

namespace {

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// One side of a table as byte codes (values ranked by falling frequency over legal entries) with
// its holes marked.
struct SideCodes {
    std::vector<uint8_t> code;
    std::vector<bool> hole;
};

SideCodes side_codes(const Table& t, Color side) {
    const uint64_t n = t.scheme.size();
    SideCodes s;
    s.code.resize(n);
    s.hole.resize(n);
    std::vector<uint64_t> count(65536);
    Position pos;
    for (uint64_t i = 0; i < n; ++i) {
        s.hole[i] = t.bytes(side)[i] == Table::DRAW_BYTE && !decode_legal(t.scheme, i, side, pos);
        if (!s.hole[i]) ++count[t.value(side, i)];
    }
    std::vector<uint32_t> order(count.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return count[a] > count[b]; });
    std::vector<uint8_t> rank(count.size());
    for (size_t r = 0; r < order.size() && r < 256; ++r) rank[order[r]] = uint8_t(r);
    for (uint64_t i = 0; i < n; ++i) s.code[i] = s.hole[i] ? 0 : rank[t.value(side, i)];
    return s;
}

// Hole fillings: what the entries of no legal position hold.
enum class Fill { BlockMode, Previous };

std::vector<uint8_t> filled_block(const SideCodes& s, uint64_t first, uint64_t n, Fill fill) {
    std::vector<uint8_t> out(s.code.begin() + int64_t(first), s.code.begin() + int64_t(first + n));
    if (fill == Fill::BlockMode) {
        std::array<uint64_t, 256> count{};
        for (uint64_t i = 0; i < n; ++i)
            if (!s.hole[first + i]) ++count[out[i]];
        const uint8_t mode = uint8_t(std::max_element(count.begin(), count.end()) - count.begin());
        for (uint64_t i = 0; i < n; ++i)
            if (s.hole[first + i]) out[i] = mode;
    } else {
        uint8_t last = 0;
        for (uint64_t i = 0; i < n; ++i) out[i] = s.hole[first + i] ? last : (last = out[i]);
    }
    return out;
}

struct Variant {
    std::string name;
    Fill fill;
    uint64_t block;  // entries
    Codec codec;     // Xz, or Zstd with or without a dictionary
    int level;
    size_t dictionary;            // bytes; 0: none
    bool raw_dictionary = false;  // pieces of the table itself instead of a trained dictionary
    bool block_ranked = false;    // codes ranked again per block, as format version 6 stores them
    bool xz_extreme = false;      // xz's extreme preset (6e)
};

struct Result {
    uint64_t bytes = 0;
    double compress_cpu = 0;
    std::vector<double> decode_us;
};

// One row of the printed table: bytes, compression CPU seconds and the median block decode.
void print_row(const std::string& table, const std::string& variant, Result r) {
    std::nth_element(r.decode_us.begin(), r.decode_us.begin() + int64_t(r.decode_us.size() / 2),
                     r.decode_us.end());
    std::printf("%-10s %-22s %14lu %10.2f %12.1f\n", table.c_str(), variant.c_str(), r.bytes, r.compress_cpu,
                r.decode_us[r.decode_us.size() / 2]);
    std::fflush(stdout);
}

// A raw-content dictionary: `capacity` bytes taken in pieces of 4 KiB evenly from the blocks.
std::vector<uint8_t> sample_dictionary(const std::vector<std::vector<uint8_t>>& blocks, size_t capacity) {
    const size_t piece = 4096;
    std::vector<std::pair<size_t, size_t>> pieces;  // block, offset
    for (size_t b = 0; b < blocks.size(); ++b)
        for (size_t off = 0; off + piece <= blocks[b].size(); off += piece) pieces.emplace_back(b, off);
    std::vector<uint8_t> dict;
    const size_t want = capacity / piece;
    for (size_t k = 0; k < want && k < pieces.size(); ++k) {
        const auto [b, off] = pieces[k * pieces.size() / want];
        dict.insert(dict.end(), blocks[b].begin() + int64_t(off), blocks[b].begin() + int64_t(off + piece));
    }
    return dict;
}

std::vector<uint8_t> train_dictionary(const std::vector<std::vector<uint8_t>>& blocks, size_t capacity) {
    // Samples of 4 KiB spread over the blocks, at most 100 times the dictionary.
    std::vector<uint8_t> samples;
    std::vector<size_t> sizes;
    const size_t piece = 4096, budget = 100 * capacity;
    size_t total = 0;
    for (const auto& b : blocks) total += b.size();
    const size_t step = std::max<size_t>(1, total / budget);
    size_t at = 0;
    for (const auto& b : blocks)
        for (size_t off = 0; off + piece <= b.size(); off += piece, at += piece)
            if ((at / piece) % step == 0) {
                samples.insert(samples.end(), b.begin() + int64_t(off), b.begin() + int64_t(off + piece));
                sizes.push_back(piece);
            }
    std::vector<uint8_t> dict(capacity);
    const size_t got =
        ZDICT_trainFromBuffer(dict.data(), dict.size(), samples.data(), sizes.data(), unsigned(sizes.size()));
    if (ZDICT_isError(got)) return {};
    dict.resize(got);
    return dict;
}

Result run(const std::array<SideCodes, 2>& sides, const Variant& v) {
    Result r;
    tbb::combinable<double> cpu;
    for (int side = 0; side < 2; ++side) {
        const SideCodes& s = sides[side];
        const uint64_t n = s.code.size(), blocks = (n + v.block - 1) / v.block;
        std::vector<std::vector<uint8_t>> raw(blocks), stored(blocks);
        par::parallel_for(uint64_t(0), blocks, [&](uint64_t b) {
            raw[b] = filled_block(s, b * v.block, std::min(v.block, n - b * v.block), v.fill);
            if (v.block_ranked) raw[b] = ranked_block(raw[b], uint32_t(raw[b].size()), 8);
        });
        std::vector<uint8_t> dict;
        ZSTD_CDict* cdict = nullptr;
        ZSTD_DDict* ddict = nullptr;
        if (v.dictionary) {
            const double start = thread_cpu_seconds();
            dict =
                v.raw_dictionary ? sample_dictionary(raw, v.dictionary) : train_dictionary(raw, v.dictionary);
            cpu.local() += thread_cpu_seconds() - start;
            // Stored compressed (a reader unpacks it once per table).
            r.bytes +=
                v.raw_dictionary ? compress(Codec::Xz, 6, dict.data(), dict.size()).size() : dict.size();
            const auto type = v.raw_dictionary ? ZSTD_dct_rawContent : ZSTD_dct_auto;
            cdict =
                ZSTD_createCDict_advanced(dict.data(), dict.size(), ZSTD_dlm_byRef, type,
                                          ZSTD_getCParams(v.level, 1 << 15, dict.size()), ZSTD_defaultCMem);
            ddict =
                ZSTD_createDDict_advanced(dict.data(), dict.size(), ZSTD_dlm_byRef, type, ZSTD_defaultCMem);
        }
        par::parallel_for(uint64_t(0), blocks, [&](uint64_t b) {
            const double start = thread_cpu_seconds();
            if (v.codec == Codec::Zstd) {
                std::vector<uint8_t> out(ZSTD_compressBound(raw[b].size()));
                ZSTD_CCtx* cctx = ZSTD_createCCtx();
                const size_t got = cdict ? ZSTD_compress_usingCDict(cctx, out.data(), out.size(),
                                                                    raw[b].data(), raw[b].size(), cdict)
                                         : ZSTD_compressCCtx(cctx, out.data(), out.size(), raw[b].data(),
                                                             raw[b].size(), v.level);
                ZSTD_freeCCtx(cctx);
                out.resize(got);
                stored[b] = std::move(out);
            } else {
                stored[b] = compress(v.codec, v.level, raw[b].data(), raw[b].size(), v.xz_extreme);
            }
            cpu.local() += thread_cpu_seconds() - start;
        });
        // Decode a sample of blocks, one at a time, each into a fresh buffer (a cold probe's work).
        ZSTD_DCtx* dctx = ZSTD_createDCtx();
        for (uint64_t b = 0; b < blocks; b += std::max<uint64_t>(1, blocks / 64)) {
            std::vector<uint8_t> out(raw[b].size());
            const double start = thread_cpu_seconds();
            if (v.codec == Codec::Zstd)
                ZSTD_decompress_usingDDict(dctx, out.data(), out.size(), stored[b].data(), stored[b].size(),
                                           ddict);
            else
                decompress(v.codec, stored[b].data(), stored[b].size(), out.data(), out.size());
            r.decode_us.push_back(1e6 * (thread_cpu_seconds() - start));
            if (out != raw[b]) std::fprintf(stderr, "%s: block %lu does not round-trip\n", v.name.c_str(), b);
        }
        ZSTD_freeDCtx(dctx);
        ZSTD_freeCDict(cdict);
        ZSTD_freeDDict(ddict);
        for (const auto& b : stored) r.bytes += b.size();
    }
    r.compress_cpu = cpu.combine(std::plus<>());
    return r;
}

// Raw LZMA2 (no xz container) with explicit literal context (lc), literal position (lp) and
// position (pb) bits, over the side's codes in blocks of `block` entries, each code first passed
// through `transform`. LZMA's literal context is the top lc bits of the previous byte, which for
// codes ranked by frequency (small numbers common) says almost nothing unless the bits are moved.
struct LzmaVariant {
    std::string name;
    uint32_t lc, lp, pb, preset;
    uint8_t (*transform)(uint8_t);
    // The match finder, when not the preset's: its kind, the match length that ends a search and
    // how many candidates a search may visit (0: the match finder's default).
    lzma_match_finder mf = lzma_match_finder(0);
    uint32_t nice_len = 0, depth = 0;
    bool run_lengths = false;  // runs shortened first (rle_pack), so LZMA sees fewer bytes
};

// bzip2's first stage: after four equal bytes, one byte counts the further repeats (0-251).
std::vector<uint8_t> rle_pack(const std::vector<uint8_t>& raw) {
    std::vector<uint8_t> out;
    out.reserve(raw.size());
    for (size_t i = 0; i < raw.size();) {
        size_t run = 1;
        while (i + run < raw.size() && raw[i + run] == raw[i] && run < 255) ++run;
        out.insert(out.end(), std::min<size_t>(run, 4), raw[i]);
        if (run >= 4) out.push_back(uint8_t(run - 4));
        i += run;
    }
    return out;
}
std::vector<uint8_t> rle_unpack(const uint8_t* p, size_t n, size_t expected) {
    std::vector<uint8_t> out;
    out.reserve(expected);
    for (size_t i = 0, same = 0; i < n; ++i) {
        if (same == 4) {
            out.insert(out.end(), p[i], out.back());
            same = 0;
            continue;
        }
        same = !out.empty() && out.back() == p[i] ? same + 1 : 1;
        out.push_back(p[i]);
    }
    return out;
}

lzma_options_lzma lzma_options(const LzmaVariant& v, size_t dict_size) {
    lzma_options_lzma o;
    lzma_lzma_preset(&o, v.preset);
    o.lc = v.lc, o.lp = v.lp, o.pb = v.pb;
    if (v.mf) o.mf = v.mf, o.nice_len = v.nice_len, o.depth = v.depth;
    o.dict_size = uint32_t(std::max<size_t>(dict_size, LZMA_DICT_SIZE_MIN));
    return o;
}

uint8_t identity_code(uint8_t c) { return c; }
uint8_t swap_nibbles(uint8_t c) { return uint8_t((c << 4) | (c >> 4)); }
uint8_t reverse_bits(uint8_t c) {
    uint8_t r = 0;
    for (int b = 0; b < 8; ++b) r = uint8_t(r | (((c >> b) & 1) << (7 - b)));
    return r;
}

Result run_lzma(const std::array<SideCodes, 2>& sides, uint64_t block, const LzmaVariant& v) {
    Result r;
    tbb::combinable<double> cpu;
    tbb::combinable<uint64_t> bytes;
    for (int side = 0; side < 2; ++side) {
        const SideCodes& s = sides[side];
        const uint64_t n = s.code.size(), blocks = (n + block - 1) / block;
        std::vector<std::vector<uint8_t>> stored(blocks);
        par::parallel_for(uint64_t(0), blocks, [&](uint64_t b) {
            std::vector<uint8_t> raw =
                filled_block(s, b * block, std::min(block, n - b * block), Fill::BlockMode);
            for (auto& c : raw) c = v.transform(c);
            const double start = thread_cpu_seconds();
            if (v.run_lengths) raw = rle_pack(raw);
            lzma_options_lzma o = lzma_options(v, raw.size());
            const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &o}, {LZMA_VLI_UNKNOWN, nullptr}};
            std::vector<uint8_t> out(raw.size() + raw.size() / 2 + 1024);
            size_t pos = 0;
            if (lzma_raw_buffer_encode(filters, nullptr, raw.data(), raw.size(), out.data(), &pos,
                                       out.size()) != LZMA_OK)
                std::fprintf(stderr, "%s: lzma failed\n", v.name.c_str());
            out.resize(pos);
            cpu.local() += thread_cpu_seconds() - start;
            bytes.local() += pos;
            stored[b] = std::move(out);
        });
        lzma_options_lzma o = lzma_options(v, block);
        const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &o}, {LZMA_VLI_UNKNOWN, nullptr}};
        for (uint64_t b = 0; b < blocks; b += std::max<uint64_t>(1, blocks / 64)) {
            const uint64_t entries = std::min(block, n - b * block);
            std::vector<uint8_t> out(entries + entries / 4 + 16);
            size_t in_pos = 0, out_pos = 0;
            const double start = thread_cpu_seconds();
            lzma_raw_buffer_decode(filters, nullptr, stored[b].data(), &in_pos, stored[b].size(), out.data(),
                                   &out_pos, out.size());
            out.resize(out_pos);
            if (v.run_lengths) out = rle_unpack(out.data(), out.size(), entries);
            r.decode_us.push_back(1e6 * (thread_cpu_seconds() - start));
            std::vector<uint8_t> want = filled_block(s, b * block, entries, Fill::BlockMode);
            for (auto& c : want) c = v.transform(c);
            if (out != want) std::fprintf(stderr, "%s: block %lu does not round-trip\n", v.name.c_str(), b);
        }
    }
    r.bytes = bytes.combine(std::plus<>());
    r.compress_cpu = cpu.combine(std::plus<>());
    return r;
}

// Bytes an ideal coder with static per-table statistics would need, for contexts made of the
// codes `back` entries before (holes filled with the previous code): a bound for context modelling.
double entropy_bytes(const SideCodes& s, const std::vector<uint64_t>& back) {
    const uint64_t n = s.code.size();
    const std::vector<uint8_t> filled = filled_block(s, 0, n, Fill::Previous);
    std::unordered_map<uint64_t, std::array<uint32_t, 256>> counts;
    for (uint64_t i = 0; i < n; ++i) {
        if (s.hole[i]) continue;
        uint64_t ctx = 0;
        for (uint64_t b : back) ctx = ctx * 256 + (i >= b ? filled[i - b] : 0);
        auto [it, fresh] = counts.try_emplace(ctx);
        if (fresh) it->second.fill(0);
        ++it->second[filled[i]];
    }
    double bits = 0;
    for (const auto& [ctx, c] : counts) {
        double total = 0;
        for (uint32_t k : c) total += k;
        for (uint32_t k : c)
            if (k) bits -= double(k) * std::log2(double(k) / total);
    }
    return bits / 8;
}

// The radices of the index's digits, most significant first: the king pair, then each group.
std::vector<uint64_t> index_radices(const IndexScheme& scheme) {
    auto choose = [](uint64_t n, int k) {
        uint64_t c = 1;
        for (int i = 0; i < k; ++i) c = c * (n - uint64_t(i)) / uint64_t(i + 1);
        return c;
    };
    std::vector<uint64_t> groups;
    uint64_t product = 1;
    for (Color c : {WHITE, BLACK})
        for (PieceType t : {QUEEN, ROOK, BISHOP, KNIGHT, PAWN})
            if (const int k = scheme.material().count(c, t)) {
                groups.push_back(choose(t == PAWN ? 48 : 62, k));
                product *= groups.back();
            }
    groups.insert(groups.begin(), scheme.size() / product);
    return groups;
}

// The side's codes laid out with the digits in another order: order[k] is the old digit that
// becomes the k-th most significant.
SideCodes permuted(const SideCodes& s, const std::vector<uint64_t>& radix, const std::vector<int>& order) {
    const size_t d = radix.size();
    std::vector<uint64_t> new_stride(d);  // by old digit
    uint64_t stride = 1;
    for (size_t k = d; k-- > 0;) {
        new_stride[size_t(order[k])] = stride;
        stride *= radix[size_t(order[k])];
    }
    SideCodes out;
    out.code.resize(s.code.size());
    out.hole.resize(s.code.size());
    for (uint64_t i = 0; i < s.code.size(); ++i) {
        uint64_t rest = i, j = 0;
        for (size_t k = d; k-- > 0;) {
            j += (rest % radix[k]) * new_stride[k];
            rest /= radix[k];
        }
        out.code[j] = s.code[i];
        out.hole[j] = s.hole[i];
    }
    return out;
}

// The codes of every side a file stores, as its blocks hold them (any format version: settled
// entries and holes already hold their block's fill, in the file's digit order), for 8-bit codes.
std::vector<SideCodes> stored_codes(const std::string& path) {
    const TableReader reader(path, format::Metric::Dtm);
    const format::Header& h = reader.header();
    std::vector<SideCodes> out;
    for (Color side : {WHITE, BLACK}) {
        if (!reader.stores(side)) continue;
        if (h.sides[side].bits != 8) throw std::runtime_error(path + ": the study takes 8-bit codes only");
        SideCodes s;
        const uint32_t first = h.first_block(side), blocks = h.blocks_per_side();
        for (uint32_t b = first; b < first + blocks; ++b) {
            const BlockCache::Ptr codes = reader.block(b);
            s.code.insert(s.code.end(), codes->begin(), codes->end());
        }
        s.hole.assign(s.code.size(), false);
        out.push_back(std::move(s));
    }
    return out;
}

// Whether a row is wanted: no filter, or its name holds one of the filter's comma-separated texts.
bool wanted(const std::string& name, const char* filter) {
    if (!filter) return true;
    for (std::string_view texts = filter;;) {
        const size_t comma = texts.find(',');
        if (name.find(texts.substr(0, comma)) != std::string::npos) return true;
        if (comma == std::string_view::npos) return false;
        texts.remove_prefix(comma + 1);
    }
}

// Every step-th run of `run` entries of a side, with step at most `most` and at least 16 runs kept
// when the side has them. Blocks are compressed on their own and a run holds whole blocks of every
// size studied, so a setting's bytes over the sample, divided by the file's own setting's, scale
// the file to that setting: a whole set is projected from a small part of it.
SideCodes sampled(const SideCodes& s, uint64_t run, uint64_t most) {
    const uint64_t runs = (s.code.size() + run - 1) / run, step = std::clamp<uint64_t>(runs / 16, 1, most);
    SideCodes out;
    for (uint64_t r = step / 2; r < runs; r += step) {
        const auto first = int64_t(r * run), last = int64_t(std::min(s.code.size(), (r + 1) * run));
        out.code.insert(out.code.end(), s.code.begin() + first, s.code.begin() + last);
        out.hole.insert(out.hole.end(), s.hole.begin() + first, s.hole.begin() + last);
    }
    return out;
}

// Codecs and block sizes over a file's stored codes: what the writer's compression would cost and
// give with its fills, orders and settled entries as they are. STORED_SAMPLE=N: over sampled()
// codes only, in runs of the largest block studied.
void stored_study(const std::string& path) {
    // Codec, level, log2 of the block's entries, whether the codes are ranked again per block, and
    // xz's extreme preset.
    const struct {
        Codec codec;
        int level, log_block;
        bool block_ranked = false, xz_extreme = false;
    } settings[] = {{Codec::Xz, 6, 17},
                    {Codec::Xz, 6, 19},
                    {Codec::Xz, 6, 20},
                    {Codec::Xz, 4, 17},
                    {Codec::Xz, 2, 17},
                    {Codec::Xz, 2, 20},
                    {Codec::Zstd, 3, 17},
                    {Codec::Zstd, 9, 17},
                    {Codec::Zstd, 9, 20},
                    {Codec::Zstd, 15, 17},
                    {Codec::Zstd, 15, 20},
                    {Codec::Zstd, 19, 17},
                    {Codec::Zstd, 19, 20},
                    {Codec::Xz, 6, 17, true},
                    {Codec::Xz, 6, 18, true},
                    {Codec::Xz, 6, 19, true},
                    {Codec::Xz, 6, 20, true},
                    {Codec::Zstd, 15, 17, true},
                    {Codec::Zstd, 19, 17, true},
                    {Codec::Zstd, 6, 17, true},
                    {Codec::Zstd, 9, 17, true},
                    {Codec::Zstd, 12, 17, true},
                    {Codec::Zstd, 13, 17, true},
                    {Codec::Xz, 6, 19, true, true},
                    {Codec::Xz, 6, 20, true, true}};
    std::vector<Variant> variants;
    for (const auto& [codec, level, log_block, ranked, extreme] : settings) {
        const Variant v{.name = codec_name(codec) + std::to_string(level) + (extreme ? "e" : "") + " 2^" +
                                std::to_string(log_block) + (ranked ? " ranked" : ""),
                        .fill = Fill::BlockMode,
                        .block = uint64_t(1) << log_block,
                        .codec = codec,
                        .level = level,
                        .dictionary = 0,
                        .block_ranked = ranked,
                        .xz_extreme = extreme};
        if (wanted(v.name, std::getenv("STORED_VARIANT"))) variants.push_back(v);
    }
    if (variants.empty()) return;
    std::vector<SideCodes> stored = stored_codes(path);
    if (const char* most = std::getenv("STORED_SAMPLE")) {
        uint64_t run = 0;
        for (const Variant& v : variants) run = std::max(run, v.block);
        for (SideCodes& s : stored) s = sampled(s, run, std::max(1, std::atoi(most)));
    }
    const std::array<SideCodes, 2> sides = {stored.front(), stored.size() > 1 ? stored[1] : SideCodes{}};
    const std::string name = std::filesystem::path(path).stem().string();
    for (const Variant& v : variants) print_row(name, v.name, run(sides, v));
}

// Each code replaced by k when it equals the code strides[k] entries back in its block (the first
// such k), else by the code plus the number of strides: what a codec sees once the neighbours'
// predictions are taken out. Empty when a code would overflow a byte.
std::vector<uint8_t> predicted(const std::vector<uint8_t>& c, const std::vector<uint64_t>& strides) {
    std::vector<uint8_t> out(c.size());
    const unsigned k = unsigned(strides.size());
    for (size_t i = 0; i < c.size(); ++i) {
        unsigned o = c[i] + k;
        for (unsigned j = 0; j < k; ++j)
            if (i >= strides[j] && c[i] == c[i - strides[j]]) {
                o = j;
                break;
            }
        if (o > 255) return {};
        out[i] = uint8_t(o);
    }
    return out;
}

// zstd levels over a file's stored codes, ranked per block as version 6 stores them, with and
// without the neighbours' predictions taken out first: the entry with the second-last stored digit
// one less ("up", the last digit's radix back), the entry before ("left": the last digit one less),
// and the entry with the third-last digit one less ("up2").
void predict_study(const std::string& path) {
    const TableReader reader(path, format::Metric::Dtm);
    const format::Header& h = reader.header();
    std::vector<uint64_t> radix = reader.scheme().digit_radices();
    if (!h.digit_order.empty()) {
        std::vector<uint64_t> stored(radix.size());
        for (size_t k = 0; k < radix.size(); ++k) stored[k] = radix[h.digit_order[k]];
        radix = stored;
    }
    const uint64_t last = radix.back(), last_two = radix.back() * radix[radix.size() - 2];
    const std::vector<SideCodes> sides = stored_codes(path);
    const uint64_t block = h.block_entries;
    const struct {
        const char* name;
        std::vector<uint64_t> strides;
    } transforms[] = {
        {"none", {}}, {"up", {last}}, {"up,left", {last, 1}}, {"up,left,up2", {last, 1, last_two}}};
    const std::string name = std::filesystem::path(path).stem().string();
    for (const auto& t : transforms)
        for (int level : {6, 9, 12, 15}) {
            tbb::combinable<double> cpu;
            tbb::combinable<uint64_t> bytes, narrow;
            for (const SideCodes& s : sides) {
                const uint64_t blocks = (s.code.size() + block - 1) / block;
                par::parallel_for(uint64_t(0), blocks, [&](uint64_t b) {
                    const auto first = s.code.begin() + int64_t(b * block);
                    std::vector<uint8_t> raw(first,
                                             first + int64_t(std::min(block, s.code.size() - b * block)));
                    if (!t.strides.empty())
                        if (std::vector<uint8_t> p = predicted(raw, t.strides); !p.empty())
                            raw = std::move(p);
                    raw = ranked_block(raw, uint32_t(raw.size()), 8);
                    if (raw[0] < 8) ++narrow.local();
                    const double start = thread_cpu_seconds();
                    bytes.local() += compress(Codec::Zstd, level, raw.data(), raw.size()).size();
                    cpu.local() += thread_cpu_seconds() - start;
                });
            }
            // Aligned with the bytes and CPU columns of the header study() prints.
            std::printf("%-10s %-12s zstd%-5d %14lu %10.2f  (%lu blocks narrower than a byte)\n",
                        name.c_str(), t.name, level, bytes.combine(std::plus<>()), cpu.combine(std::plus<>()),
                        narrow.combine(std::plus<>()));
            std::fflush(stdout);
        }
}

int study(int argc, char** argv) {
    std::vector<Variant> variants = {
        {"xz6-128K-mode", Fill::BlockMode, 1 << 17, Codec::Xz, 6, 0},
        {"xz6-128K-prev", Fill::Previous, 1 << 17, Codec::Xz, 6, 0},
        {"xz6-32K-prev", Fill::Previous, 1 << 15, Codec::Xz, 6, 0},
        {"zstd19-32K-prev", Fill::Previous, 1 << 15, Codec::Zstd, 19, 0},
        {"zstd19-32K-prev-dict", Fill::Previous, 1 << 15, Codec::Zstd, 19, 112 << 10},
        {"zstd12-32K-prev-dict", Fill::Previous, 1 << 15, Codec::Zstd, 12, 112 << 10},
        {"zstd19-64K-prev-dict", Fill::Previous, 1 << 16, Codec::Zstd, 19, 112 << 10},
        {"zstd19-16K-prev-dict", Fill::Previous, 1 << 14, Codec::Zstd, 19, 112 << 10},
        {"zstd19-32K-raw256K", Fill::Previous, 1 << 15, Codec::Zstd, 19, 256 << 10, true},
        {"zstd19-32K-raw1M", Fill::Previous, 1 << 15, Codec::Zstd, 19, 1 << 20, true},
        {"zstd19-32K-raw4M", Fill::Previous, 1 << 15, Codec::Zstd, 19, 4 << 20, true},
    };
    std::string only;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else
            files.push_back(argv[i]);
    }
    std::printf("%-10s %-22s %14s %10s %12s\n", "table", "variant", "bytes", "cpu s", "decode us");
    for (const auto& f : files) {
        if (only == "predict") {
            predict_study(f);
            continue;
        }
        if (only == "stored") {
            stored_study(f);
            continue;
        }
        const auto table = read_table(f);
        std::array<SideCodes, 2> sides = {side_codes(*table, WHITE), side_codes(*table, BLACK)};
        if (only == "order") {
            const auto radix = index_radices(table->scheme);
            std::vector<int> order(radix.size());
            std::iota(order.begin(), order.end(), 0);
            const Variant xz{"xz6-128K-mode", Fill::BlockMode, 1 << 17, Codec::Xz, 6, 0};
            do {
                const std::array<SideCodes, 2> p = {permuted(sides[0], radix, order),
                                                    permuted(sides[1], radix, order)};
                std::string name = "digits";
                for (int k : order) {
                    name += ' ';
                    name += std::to_string(k);
                }
                // Cheap predictors of the size, for a search when writing: the code changes between
                // neighbours (holes skipped), and xz over every 16th block.
                uint64_t breaks = 0, sample = 0;
                for (const SideCodes& side : p) {
                    int last = -1;
                    for (uint64_t i = 0; i < side.code.size(); ++i)
                        if (!side.hole[i]) {
                            breaks += last >= 0 && side.code[i] != last;
                            last = side.code[i];
                        }
                    for (uint64_t first = 0; first < side.code.size(); first += 16 * xz.block) {
                        const auto b = filled_block(side, first, std::min(xz.block, side.code.size() - first),
                                                    Fill::BlockMode);
                        sample += compress(Codec::Xz, 6, b.data(), b.size()).size();
                    }
                }
                std::printf("%-10s %-22s %14lu %12lu %12lu\n", table->material().name().c_str(), name.c_str(),
                            run(p, xz).bytes, breaks, sample);
                std::fflush(stdout);
            } while (std::next_permutation(order.begin(), order.end()));
            continue;
        }
        if (only == "lzma") {
            const std::vector<LzmaVariant> lz = {
                {"lc3lp0pb2 (xz's)", 3, 0, 2, 6, identity_code},
                {"lc3lp0pb0", 3, 0, 0, 6, identity_code},
                {"lc0lp0pb0", 0, 0, 0, 6, identity_code},
                {"lc4lp0pb0", 4, 0, 0, 6, identity_code},
                {"lc4lp0pb0 nibbles", 4, 0, 0, 6, swap_nibbles},
                {"lc4lp0pb0 reversed", 4, 0, 0, 6, reverse_bits},
                {"lc3lp0pb0 reversed", 3, 0, 0, 6, reverse_bits},
                {"lc4 reversed 9e", 4, 0, 0, 9 | LZMA_PRESET_EXTREME, reverse_bits},
                {"preset 1", 3, 0, 2, 1, identity_code},
                {"preset 3", 3, 0, 2, 3, identity_code},
                {"bt4 nice 273", 3, 0, 2, 6, identity_code, LZMA_MF_BT4, 273, 0},
                {"bt4 nice 128", 3, 0, 2, 6, identity_code, LZMA_MF_BT4, 128, 0},
                {"bt4 nice 32", 3, 0, 2, 6, identity_code, LZMA_MF_BT4, 32, 0},
                {"bt4 nice 64 depth 8", 3, 0, 2, 6, identity_code, LZMA_MF_BT4, 64, 8},
                {"hc4 nice 273 depth 16", 3, 0, 2, 6, identity_code, LZMA_MF_HC4, 273, 16},
                {"runs, then xz's", 3, 0, 2, 6, identity_code, lzma_match_finder(0), 0, 0, true},
                {"runs, then lc0lp0pb0", 0, 0, 0, 6, identity_code, lzma_match_finder(0), 0, 0, true},
            };
            for (const LzmaVariant& v : lz) {
                if (!wanted(v.name, std::getenv("LZMA_VARIANT"))) continue;
                print_row(table->material().name(), v.name, run_lzma(sides, 1 << 17, v));
            }
            continue;
        }
        if (only == "conditional") {
            // Black's codes ranked by their frequency given white's stored code of the same entry.
            const uint64_t n = sides[0].code.size(), block = 1 << 17;
            std::vector<uint8_t> white(n);
            for (uint64_t first = 0; first < n; first += block) {
                const auto b = filled_block(sides[0], first, std::min(block, n - first), Fill::BlockMode);
                std::copy(b.begin(), b.end(), white.begin() + int64_t(first));
            }
            std::vector<std::array<uint64_t, 256>> count(256);
            for (auto& c : count) c.fill(0);
            for (uint64_t i = 0; i < n; ++i)
                if (!sides[1].hole[i]) ++count[white[i]][sides[1].code[i]];
            std::vector<std::array<uint8_t, 256>> rank(256);
            for (int w = 0; w < 256; ++w) {
                std::array<int, 256> order;
                std::iota(order.begin(), order.end(), 0);
                std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
                    return count[size_t(w)][size_t(a)] > count[size_t(w)][size_t(b)];
                });
                for (int r = 0; r < 256; ++r) rank[size_t(w)][size_t(order[size_t(r)])] = uint8_t(r);
            }
            std::array<SideCodes, 2> cond = sides;
            for (uint64_t i = 0; i < n; ++i)
                if (!sides[1].hole[i]) cond[1].code[i] = rank[white[i]][sides[1].code[i]];
            const LzmaVariant v{"lc0lp0pb0", 0, 0, 0, 6, identity_code};
            for (const auto* which : {&sides, &cond}) {
                std::array<SideCodes, 2> black_only = {(*which)[1], (*which)[1]};
                const Result all = run_lzma(*which, block, v), black = run_lzma(black_only, block, v);
                std::printf("%-10s %-22s %14lu  black %lu\n", table->material().name().c_str(),
                            which == &sides ? "plain" : "black | white", all.bytes, black.bytes / 2);
            }
            continue;
        }
        if (only == "entropy") {
            for (const auto& back :
                 std::vector<std::vector<uint64_t>>{{}, {1}, {1, 8}, {1, 62}, {1, 8, 62}}) {
                std::string name = "H(x";
                for (size_t k = 0; k < back.size(); ++k) {
                    name += k ? ',' : '|';
                    name += std::to_string(back[k]);
                }
                name += ")";
                std::printf("%-10s %-22s %14.0f\n", table->material().name().c_str(), name.c_str(),
                            entropy_bytes(sides[0], back) + entropy_bytes(sides[1], back));
            }
            continue;
        }
        for (const Variant& v : variants) {
            if (!only.empty() && v.name != only) continue;
            print_row(table->material().name(), v.name, run(sides, v));
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return study_main("compress_study",
                      "usage: compress_study FILE.rtb...            every variant\n"
                      "       compress_study --only NAME FILE.rtb   one variant, or one study: order, lzma,\n"
                      "                                             conditional, entropy, stored, predict\n"
                      "(LZMA_VARIANT=TEXT and STORED_VARIANT=TEXT keep the rows whose name holds TEXT, or "
                      "one of TEXT,TEXT,...)\n",
                      argc, argv, study);
}
