#include "store/format.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "index/index_scheme.hpp"
#include "store/digit_order.hpp"
#include "store/packed_codes.hpp"
#include "store/wdl.hpp"

namespace retro::format {

namespace {

// Little-endian writer and reader.
struct Out {
    std::vector<uint8_t> bytes;
    void u8(uint8_t v) { bytes.push_back(v); }
    void u16(uint16_t v) { put(v, 2); }
    void u32(uint32_t v) { put(v, 4); }
    void u64(uint64_t v) { put(v, 8); }
    void raw(const void* p, size_t n) {
        const auto* b = static_cast<const uint8_t*>(p);
        bytes.insert(bytes.end(), b, b + n);
    }
    void put(uint64_t v, int n) {
        for (int i = 0; i < n; ++i) bytes.push_back(uint8_t(v >> (8 * i)));
    }
};

uint64_t get(const uint8_t* p, int n) {
    uint64_t v = 0;
    for (int i = n; i-- > 0;) v = (v << 8) | p[i];
    return v;
}

struct In {
    const uint8_t* p;
    size_t size;
    size_t pos = 0;
    uint64_t take(int n) {
        const uint64_t v = get(p + pos, n);
        pos += size_t(n);
        return v;
    }
};

// Version 1 stores a DTM draw as 255; in memory it is DTM_DRAW.
constexpr uint8_t BYTE_DRAW = 255;

bool valid_value(const Header& h, uint16_t v) {
    if (h.metric == Metric::Wdl) return v <= uint8_t(Wdl::Win);
    return h.version >= VERSION_WIDE_VALUES || fits_byte_values(v);
}

// The widest code a version allows.
unsigned widest_code(uint32_t version) { return version >= VERSION_WIDE_VALUES ? 16 : 8; }

// The 12 bytes after the block count: reserved (zero) before version 3; from it, the number of index
// digits and the digit order, then zeros.
constexpr size_t ORDER_BYTES = 12;

}  // namespace

std::string metric_name(Metric m) {
    return m == Metric::Dtm ? "DTM table" : m == Metric::Wdl ? "WDL bitbase" : "unknown metric";
}

uint32_t Header::entries_in_block(uint32_t b) const {
    const uint32_t per_side = blocks_per_side();
    const uint64_t first = uint64_t(b % per_side) * block_entries;
    return uint32_t(std::min<uint64_t>(block_entries, entries_per_side - first));
}

size_t Header::unpacked_bytes(uint32_t b) const {
    const Side& s = sides[side_of_block(b)];
    return packed_bytes(entries_in_block(b), s.bits);
}

uint64_t Header::header_bytes() const {
    uint64_t n = FIXED_HEADER_BYTES;
    for (const Side& s : sides) n += 4 + s.dictionary.size() * size_t(value_bytes());
    return n + 8 * (uint64_t(block_count) + 1) + 4 * uint64_t(block_count) + 4;
}

std::vector<uint8_t> serialize(const Header& h) {
    Out o;
    o.raw(MAGIC, sizeof MAGIC);
    o.u32(h.version);
    o.u32(uint32_t(h.header_bytes()));
    char material[MATERIAL_BYTES] = {};
    const std::string name = h.material.name();
    std::memcpy(material, name.data(), std::min(name.size(), MATERIAL_BYTES - 1));
    o.raw(material, MATERIAL_BYTES);
    o.u8(uint8_t(h.metric));
    o.u8(uint8_t(h.codec));
    o.u8(INDEX_SCHEME);
    o.u8(h.dropped ? uint8_t(*h.dropped + 1) : 0);  // reserved (0) before version 4
    o.u32(h.block_entries);
    o.u64(h.entries_per_side);
    o.u32(h.block_count);
    std::array<uint8_t, ORDER_BYTES> order{};
    if (!h.digit_order.empty()) {
        order[0] = uint8_t(h.digit_order.size());
        std::copy(h.digit_order.begin(), h.digit_order.end(), order.begin() + 1);
    }
    o.raw(order.data(), order.size());
    for (const Side& s : h.sides) {
        o.u8(s.bits);
        o.u8(0);
        o.u16(uint16_t(s.dictionary.size()));
        for (uint16_t v : s.dictionary) {
            if (h.version >= VERSION_WIDE_VALUES)
                o.u16(v);
            else
                o.u8(v == DTM_DRAW && h.metric == Metric::Dtm ? BYTE_DRAW : uint8_t(v));
        }
    }
    for (uint64_t off : h.offsets) o.u64(off);
    for (uint32_t crc : h.block_crc) o.u32(crc);
    o.u32(crc32_of(o.bytes.data(), o.bytes.size()));
    return std::move(o.bytes);
}

uint64_t header_length(const uint8_t* bytes, size_t size, uint64_t file_size, const std::string& name) {
    const size_t magic = std::min(size, sizeof MAGIC);
    if (file_size == 0 || size == 0 || std::memcmp(bytes, MAGIC, magic) != 0)
        throw StoreError(name + ": not a retrograde table file (wrong magic bytes)");
    if (file_size < FIXED_HEADER_BYTES)
        throw StoreError(name + ": truncated: " + std::to_string(file_size) + " bytes, shorter than the " +
                         std::to_string(FIXED_HEADER_BYTES) + "-byte header");
    const uint32_t version = uint32_t(get(bytes + 8, 4));
    if (version < VERSION_BYTE_VALUES || version > NEWEST_VERSION)
        throw StoreError(name + ": unsupported format version " + std::to_string(version) +
                         " (this reader reads versions 1 to " + std::to_string(NEWEST_VERSION) +
                         "; or the file is corrupted)");
    const uint64_t length = get(bytes + 12, 4);
    if (length < FIXED_HEADER_BYTES + 2 * 5 + 8 + 4)
        throw StoreError(name + ": corrupted header (header length " + std::to_string(length) +
                         " is too short)");
    // The header is mostly the offsets and CRCs of the blocks: check its length against the block
    // count before reading it (both unverified yet, but a damaged file must not make us read gigabytes).
    const uint64_t blocks = get(bytes + 48, 4);
    const uint64_t fixed_part = FIXED_HEADER_BYTES + 8 * (blocks + 1) + 4 * blocks + 4;
    const uint64_t largest_dictionary = version >= VERSION_WIDE_VALUES ? 2 * 0xFFFF : 256;
    if (length < fixed_part + 2 * 5 || length > fixed_part + 2 * (4 + largest_dictionary))
        throw StoreError(name + ": corrupted header (header length " + std::to_string(length) +
                         " does not fit " + std::to_string(blocks) + " blocks)");
    if (length > file_size)
        throw StoreError(name + ": truncated or corrupted: the header alone needs " + std::to_string(length) +
                         " bytes, the file has " + std::to_string(file_size));
    return length;
}

Header parse(const uint8_t* bytes, size_t size, uint64_t file_size, const std::string& name,
             const std::string& expected_stem, Metric expected_metric) {
    auto fail = [&](const std::string& what) { return StoreError(name + ": " + what); };
    if (size < FIXED_HEADER_BYTES + 4) throw fail("corrupted header (too short)");
    const uint32_t stored_crc = uint32_t(get(bytes + size - 4, 4));
    if (crc32_of(bytes, size - 4) != stored_crc) throw fail("header checksum mismatch (corrupted file)");

    Header h;
    h.version = uint32_t(get(bytes + 8, 4));  // checked by header_length
    In in{bytes, size - 4};
    in.pos = 16;
    char material[MATERIAL_BYTES + 1] = {};
    std::memcpy(material, bytes + in.pos, MATERIAL_BYTES);
    in.pos += MATERIAL_BYTES;
    if (material[MATERIAL_BYTES - 1] != 0) throw fail("bad material in header (not NUL-terminated)");
    for (size_t i = std::strlen(material); i < MATERIAL_BYTES; ++i)
        if (material[i] != 0) throw fail("bad material in header (junk after the name)");
    try {
        h.material = Material::parse(material);
    } catch (const MaterialError& e) {
        throw fail(std::string("bad material in header: ") + e.what());
    }
    if (h.material.name() != material) throw fail(std::string("bad material in header: ") + material);
    const uint8_t metric = uint8_t(in.take(1)), codec = uint8_t(in.take(1)), scheme = uint8_t(in.take(1));
    const uint8_t dropped = uint8_t(in.take(1));
    if (h.version < VERSION_ONE_SIDE && dropped != 0) throw fail("reserved header byte is not zero");
    if (h.version == VERSION_ONE_SIDE && dropped == 0) throw fail("bad dropped side 0 in a version 4 file");
    if (h.version >= VERSION_ONE_SIDE && dropped != 0) {
        if (dropped > 2)
            throw fail("bad dropped side " + std::to_string(dropped) + " in a version " +
                       std::to_string(h.version) + " file");
        h.dropped = Color(dropped - 1);
    }
    if (metric != uint8_t(Metric::Dtm) && metric != uint8_t(Metric::Wdl))
        throw fail("unknown metric " + std::to_string(metric));
    h.metric = Metric(metric);
    if (!codec_known(codec)) throw fail("unknown codec " + std::to_string(codec));
    h.codec = Codec(codec);
    if (scheme != INDEX_SCHEME) throw fail("unknown index scheme " + std::to_string(scheme));
    h.block_entries = uint32_t(in.take(4));
    h.entries_per_side = in.take(8);
    h.block_count = uint32_t(in.take(4));
    const uint8_t* order = bytes + in.pos;
    in.pos += ORDER_BYTES;
    size_t order_end = 0;  // bytes from there on must be zero
    if (h.version >= VERSION_DIGIT_ORDER) {
        const std::vector<uint64_t> radices = IndexScheme(h.material).digit_radices();
        if (order[0] != radices.size() || order[0] >= ORDER_BYTES)
            throw fail("bad digit order in header (" + std::to_string(order[0]) + " digits, " +
                       h.material.name() + " has " + std::to_string(radices.size()) + ")");
        h.digit_order.assign(order + 1, order + 1 + order[0]);
        try {
            DigitOrder(radices, h.digit_order);
        } catch (const std::invalid_argument&) {
            throw fail("bad digit order in header (not a permutation of the index's digits)");
        }
        order_end = 1 + size_t(order[0]);
    }
    for (size_t i = order_end; i < ORDER_BYTES; ++i)
        if (order[i] != 0) throw fail("reserved header bytes are not zero");

    // Sizes, before anything is allocated from them.
    if (!valid_block_entries(h.block_entries))
        throw fail("bad block size " + std::to_string(h.block_entries) + " entries");
    if (!expected_stem.empty() && h.material.name() != expected_stem)
        throw fail("the file holds " + h.material.name() + ", not " + expected_stem + " as its name says");
    if (h.metric != expected_metric)
        throw fail("the file is a " + metric_name(h.metric) + ", not a " + metric_name(expected_metric));
    const uint64_t entries = IndexScheme(h.material).size();
    if (h.entries_per_side != entries)
        throw fail("header says " + std::to_string(h.entries_per_side) + " entries per side, " +
                   h.material.name() + " has " + std::to_string(entries));
    if (h.dropped && h.metric != Metric::Dtm) throw fail("a WDL bitbase cannot drop a side");
    const uint64_t expected_blocks = (h.dropped ? 1 : 2) * uint64_t(h.blocks_per_side());
    if (h.block_count != expected_blocks)
        throw fail("header says " + std::to_string(h.block_count) + " blocks, " +
                   std::to_string(expected_blocks) + " expected");

    for (Color side : {WHITE, BLACK}) {
        Side& s = h.sides[side];
        if (in.pos + 4 > in.size) throw fail("corrupted header (ends inside the value dictionaries)");
        s.bits = uint8_t(in.take(1));
        if (in.take(1) != 0) throw fail("reserved header byte is not zero");
        const size_t n = size_t(in.take(2));
        if (s.bits != 0 && !std::has_single_bit(unsigned(s.bits)))
            throw fail("bad code width " + std::to_string(s.bits) + " bits");
        if (s.bits > widest_code(h.version))
            throw fail("bad code width " + std::to_string(s.bits) + " bits in a version " +
                       std::to_string(h.version) + " file");
        if (!h.stores(side)) {
            if (s.bits != 0 || n != 0) throw fail("the dropped side has values in the header");
            continue;
        }
        if (n == 0 || n > (size_t(1) << s.bits)) throw fail("bad dictionary size " + std::to_string(n));
        if (in.pos + n * size_t(h.value_bytes()) > in.size)
            throw fail("corrupted header (ends inside the value dictionaries)");
        std::vector<bool> seen(size_t(1) << 16);
        for (size_t i = 0; i < n; ++i) {
            uint16_t v = uint16_t(in.take(h.value_bytes()));
            if (h.version == VERSION_BYTE_VALUES && h.metric == Metric::Dtm && v == BYTE_DRAW) v = DTM_DRAW;
            if (!valid_value(h, v)) throw fail("bad value " + std::to_string(v) + " in the dictionary");
            if (seen[v]) throw fail("value " + std::to_string(v) + " twice in the dictionary");
            seen[v] = true;
            s.dictionary.push_back(v);
        }
    }
    if (h.header_bytes() != size)
        throw fail("corrupted header (its length field says " + std::to_string(size) +
                   " bytes, its fields need " + std::to_string(h.header_bytes()) + ")");
    h.offsets.resize(size_t(h.block_count) + 1);
    for (uint64_t& off : h.offsets) off = in.take(8);
    h.block_crc.resize(h.block_count);
    for (uint32_t& crc : h.block_crc) crc = uint32_t(in.take(4));
    if (h.offsets.front() != size)
        throw fail("corrupted header (the first block does not follow the header)");
    for (size_t b = 0; b + 1 < h.offsets.size(); ++b)
        if (h.offsets[b + 1] < h.offsets[b]) throw fail("corrupted header (block offsets go backwards)");
    if (h.offsets.back() > file_size)
        throw fail("truncated: " + std::to_string(file_size) + " bytes, the header says " +
                   std::to_string(h.offsets.back()));
    if (h.offsets.back() < file_size)
        throw fail(std::to_string(file_size - h.offsets.back()) + " trailing bytes after the last block");
    return h;
}

}  // namespace retro::format
