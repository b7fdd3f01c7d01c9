// The words for a table's values, one idea each:
//   Table           a DTM table's values held whole in memory (this file); WdlTable, a bitbase's.
//   table file      KQvKR.rtb (DTM) or KQvKR.rtw (WDL) on disk (store/table_file.hpp), read block by
//                   block by a TableReader.
//   TableAsStored   a Table read whole from its file as the file stores it: maybe without one side to
//                   move, or without the values that exits settle (read_table_as_stored).
//   TableValues     a table's values read a run at a time in the order a file stores them, never held
//                   whole: MemoryValues (from a Table), FileValues (from a table file), SliceStoreValues
//                   (from a pawn table's slice store) (store/table_values.hpp).
//   SubtableSource  where the solver finds its sub-tables (store/subtable_source.hpp).
//   Tablebase       a directory of table files, probed, completing what files leave out
//                   (probe/tablebase.hpp); a SubtableSource.
//
// A solved table in memory: the value of every index entry for each side to move.
//
// One byte per entry: distances below LONG_BYTE plies are the byte itself, DRAW_BYTE is a draw, and
// the rare longer distances are LONG_BYTE with the value in a list sorted by index beside the
// bytes, 8 bytes each (KRNvKNN, the 6-man table with the longest mate, has 43 million of its 6.7
// billion entries past 253 plies: 0.05 bytes per entry). So a table takes about as little memory as
// when one byte held every distance, and the sub-tables a solve loads stay as small.
#pragma once

#include <array>
#include <cassert>
#include <vector>

#include "index/index_scheme.hpp"
#include "store/dtm.hpp"
#include "store/entry_bytes.hpp"

namespace retro {

class Table {
public:
    static constexpr uint8_t LONG_BYTE = 254, DRAW_BYTE = 255;
    struct LongValue {
        uint64_t index : 48;  // entries per side stay far below 2^48
        uint64_t value : 16;  // a Dtm
    };
    using Bytes = std::array<EntryBytes, 2>;                   // [side to move][index]
    using LongValues = std::array<std::vector<LongValue>, 2>;  // [side to move], any order

    // Every entry a draw.
    explicit Table(const Material& m);
    // From the bytes and the values of their LONG_BYTE entries (sorted here). A side with no bytes
    // is not held (a sub-table the solver reaches with one side to move only). Throws
    // std::invalid_argument when they do not match each other or the index.
    Table(const Material& m, Bytes&& bytes, LongValues&& long_values);
    // The same over another index of the material: one slice of a pawn table (index/index_scheme.hpp),
    // whose values the solver of its table keeps on disk and reads back a slice at a time.
    Table(const IndexScheme& scheme, Bytes&& bytes, LongValues&& long_values);

    const Material& material() const { return scheme.material(); }
    uint64_t size() const { return scheme.size(); }

    // Whether the table holds the values of `side` to move (every table but a partly read one).
    bool has_side(Color side) const { return !bytes_[side].empty(); }

    Dtm value(Color side, uint64_t idx) const {
        assert(has_side(side));
        const uint8_t b = bytes_[side][idx];
        return b < LONG_BYTE ? b : b == DRAW_BYTE ? DTM_DRAW : long_value(side, idx);
    }
    // Asks the processor for the byte of entry idx ahead of a value() soon after: large tables are
    // read at random, and a few requests in flight wait together instead of one after another.
    void prefetch(Color side, uint64_t idx) const {
        if (has_side(side)) __builtin_prefetch(bytes_[side].data() + idx);
    }
    // Value for the side to move of a position with exactly this table's material and orientation.
    Dtm value(const Position& pos) const { return value(pos.side_to_move(), scheme.encode(pos)); }
    // Sets one value; a long one costs a search and an insertion in the sorted list (for tests and
    // small edits, not for filling a table).
    void set(Color side, uint64_t idx, Dtm v);
    // The bytes of one side, filled in place while a pawn table is solved slice by slice into it;
    // the LONG_BYTE entries written there take their values through add_long_values.
    EntryBytes& bytes_to_fill(Color side) { return bytes_[side]; }
    // Lists the values of entries whose byte is LONG_BYTE (a slice's, any order).
    void add_long_values(Color side, const std::vector<LongValue>& values);
    // Replaces every value of one side to move (the shipping form's rebuilt side). Throws
    // std::invalid_argument like the constructor; the table is then unusable.
    void replace_side(Color side, EntryBytes&& bytes, std::vector<LongValue>&& long_values);

    // The byte that stands for v.
    static constexpr uint8_t byte_of(Dtm v) {
        return v == DTM_DRAW ? DRAW_BYTE : v < LONG_BYTE ? uint8_t(v) : LONG_BYTE;
    }
    const EntryBytes& bytes(Color side) const { return bytes_[side]; }
    const std::vector<LongValue>& long_values(Color side) const { return long_[side]; }

    // Same material and the same value for every entry.
    friend bool operator==(const Table& a, const Table& b);

    IndexScheme scheme;

private:
    Dtm long_value(Color side, uint64_t idx) const;
    // Sorts the side's long values and checks them against its bytes and the index.
    void check_side(Color side);

    Bytes bytes_;
    std::array<std::vector<LongValue>, 2> long_;  // sorted by index
};

// Value for the side to move of pos, read from t, whose material is pos's or its colour swap.
// Ignores the en passant right: see Tablebase::probe.
inline Dtm probe_table(const Table& t, const Position& pos) {
    return Material::of(pos) == t.material() ? t.value(pos) : t.value(pos.color_flipped());
}

}  // namespace retro
