// The table file header (format v1; v2 for distances past 254 plies; v3 for entries stored in another
// digit order; v4 for the shipping form, one side to move only; v5 for values settled by exits; v6
// for blocks that rank their codes again):
// layout, parsing and checks.
// docs/format.md is the reference; the constants and the byte offsets here follow it.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "index/material.hpp"
#include "store/codec.hpp"
#include "store/dtm.hpp"
#include "store/store_error.hpp"

namespace retro::format {

inline constexpr char MAGIC[8] = {'R', 'E', 'T', 'R', 'O', 'T', 'B', '\0'};
// Version 1 stores dictionary values in a byte (every table of up to 5 men); version 2 in 16 bits, and
// allows 16-bit codes, for tables with distances past 254 plies. The writer picks the lowest that fits.
inline constexpr uint32_t VERSION_BYTE_VALUES = 1;
inline constexpr uint32_t VERSION_WIDE_VALUES = 2;
// Version 3 is version 2 (16-bit dictionary values and codes) with the entries stored in the digit
// order named in the header's formerly reserved bytes (store/digit_order.hpp).
inline constexpr uint32_t VERSION_DIGIT_ORDER = 3;
// Version 4, the shipping form, is version 3 (the digit order always written, natural or not) with
// one side to move dropped: its values are rebuilt by a one-ply search over the kept side.
inline constexpr uint32_t VERSION_ONE_SIDE = 4;
// Version 5 is version 4 whose byte 35 may also be 0 (both sides kept) and whose stored values are
// settled by exits: where a capture or a promotion achieves an entry's value, the file may store any
// value not better, and a reader takes the better of the stored value and the best such move.
inline constexpr uint32_t VERSION_EXITS_SETTLED = 5;
// Version 6 is version 5 whose blocks may rank their codes again, narrower (store/block_ranks.hpp).
inline constexpr uint32_t VERSION_BLOCKS_RANKED = 6;
inline constexpr uint32_t NEWEST_VERSION = VERSION_BLOCKS_RANKED;
// Whether a DTM value fits a version 1 dictionary byte: distances up to 254 plies, and the draw.
constexpr bool fits_byte_values(Dtm v) { return v <= 254 || v == DTM_DRAW; }
inline constexpr uint8_t INDEX_SCHEME = 1;  // lib/index/index_scheme.hpp, docs/index.md
inline constexpr size_t FIXED_HEADER_BYTES = 64;
inline constexpr size_t MATERIAL_BYTES = 16;
inline constexpr uint32_t MIN_BLOCK_ENTRIES = 1u << 10;
inline constexpr uint32_t MAX_BLOCK_ENTRIES = 1u << 24;
// Entries per block a file may have: a power of two from MIN_BLOCK_ENTRIES to MAX_BLOCK_ENTRIES.
constexpr bool valid_block_entries(uint32_t n) {
    return n >= MIN_BLOCK_ENTRIES && n <= MAX_BLOCK_ENTRIES && (n & (n - 1)) == 0;
}

enum class Metric : uint8_t { Dtm = 1, Wdl = 2 };
std::string metric_name(Metric m);  // "DTM table", "WDL bitbase"

struct Side {
    uint8_t bits = 0;                  // 0, 1, 2, 4, 8 (or 16 from version 2 on) bits per entry
    std::vector<uint16_t> dictionary;  // value of code c; 1 to 2^bits entries
};

struct Header {
    uint32_t version = VERSION_BYTE_VALUES;
    Metric metric = Metric::Dtm;
    Codec codec = Codec::Xz;
    Material material;
    uint64_t entries_per_side = 0;
    uint32_t block_entries = 0;       // a power of two
    uint32_t block_count = 0;         // both sides: white's blocks, then black's (version 4: the kept side's)
    std::array<Side, 2> sides;        // version 4: the dropped side's has no bits and no dictionary
    std::vector<uint64_t> offsets;    // block_count + 1 absolute file offsets; the last is the file size
    std::vector<uint32_t> block_crc;  // CRC-32 of each block's stored bytes
    // Version 3: order[k] is the index digit stored k-th most significant; empty before (natural).
    std::vector<uint8_t> digit_order;
    // Versions 4 and 5: the side to move whose values the file does not hold.
    std::optional<Color> dropped;

    uint32_t blocks_per_side() const {
        return uint32_t((entries_per_side + block_entries - 1) / block_entries);
    }
    bool stores(Color side) const { return dropped != side; }
    // Whether a stored value stands for the better of itself and the entry's best exit (version 5).
    bool exits_settled() const { return version >= VERSION_EXITS_SETTLED; }
    // Whether each block's codes come in the stored form of store/block_ranks.hpp (version 6).
    bool blocks_ranked() const { return version >= VERSION_BLOCKS_RANKED; }
    // The side to move of block b's entries, and the first block of a stored side.
    Color side_of_block(uint32_t b) const { return dropped ? ~*dropped : Color(b / blocks_per_side()); }
    uint32_t first_block(Color side) const { return dropped ? 0 : uint32_t(side) * blocks_per_side(); }
    // Entries in block b (the last block of a side may be short).
    uint32_t entries_in_block(uint32_t b) const;
    // Bytes of the unpacked codes of block b.
    size_t unpacked_bytes(uint32_t b) const;
    // Bytes from the start of the file to the first block: fixed part, sides, offsets, CRCs, header CRC.
    uint64_t header_bytes() const;
    // Bytes of one dictionary value: 1 in version 1, 2 from version 2 on.
    int value_bytes() const { return version >= VERSION_WIDE_VALUES ? 2 : 1; }
};

// Serialises the header, its CRC included (offsets and block CRCs must be filled in).
std::vector<uint8_t> serialize(const Header& h);

// Checks the fixed part of a header (the first `size` bytes of a file of `file_size` bytes, size =
// min(file_size, FIXED_HEADER_BYTES)): magic, length, version (1 to 6). Returns the length of the whole
// header. Throws StoreError("<name>: ...").
uint64_t header_length(const uint8_t* bytes, size_t size, uint64_t file_size, const std::string& name);

// Parses and checks a whole header (`size` = header_length bytes): its CRC first, then every field
// against the others, the material against the file name stem (`expected_stem`, e.g. "KQvKR"; empty
// skips it), the metric, and the block offsets against the file size. Throws StoreError.
Header parse(const uint8_t* bytes, size_t size, uint64_t file_size, const std::string& name,
             const std::string& expected_stem, Metric expected_metric);

}  // namespace retro::format
