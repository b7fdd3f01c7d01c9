// Table files (format v1 to v6, docs/format.md): a DTM table KQvKR.rtb and, on request, a WDL bitbase
// KQvKR.rtw beside it. Values are packed into codes, cut into blocks of entries, and each block is
// compressed on its own, so a probe decompresses one block (store/table_reader.hpp).
#pragma once

#include <array>
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "index/dependencies.hpp"
#include "store/codec.hpp"
#include "store/control.hpp"
#include "store/store_error.hpp"
#include "store/survey_source.hpp"
#include "store/table.hpp"
#include "store/table_paths.hpp"
#include "store/table_values.hpp"
#include "store/wdl.hpp"

namespace retro {

// Whether m's exact copy is in copy_dir (default: dir), not older than m's file in dir (a copy
// older than its file was left by an earlier solve) and holds the values of `sides` to move (a copy
// of a table read for one side keeps that side only). Its contents are checked when it is read.
bool exact_copy_current(const std::filesystem::path& dir, const Material& m,
                        const std::filesystem::path& copy_dir = {}, SideSet sides = BOTH_SIDES);
// The names of the DTM table files (*.rtb) in dir, sorted ("KQvK", "KQvKR"). Throws
// std::filesystem::filesystem_error when dir cannot be read.
std::set<std::string> table_file_names(const std::filesystem::path& dir);

// The shipping form's blocks, as the apps write it unless told otherwise: 1 MiB of byte codes, 5.2%
// fewer bytes than blocks of 2^17 entries on six 5-man tables, blocks decoding in 1.4-12 ms instead of
// 0.2-1.6 (docs/guide.md, "Shipping a set").
constexpr uint32_t SHIPPING_BLOCK_ENTRIES = 1 << 20;

struct WriteOptions {
    Codec codec = Codec::Xz;
    int level = -1;  // -1: the codec's default (codec_default_level)
    // xz only: the extreme preset of that level (xz -6e). The apps write the shipping form with it.
    bool xz_extreme = false;
    // Entries per block: a power of two, 2^10 to 2^24; 0 picks blocks of 128 KiB of codes
    // (2^17 entries of 8-bit codes, 2^19 of 2-bit codes). See docs/format.md for the measurements.
    // The apps write the shipping form in SHIPPING_BLOCK_ENTRIES.
    uint32_t block_entries = 0;
    // Give holes (entries that are no legal position for their side to move) the most common value of
    // their block instead of keeping theirs. Costs a decode of every drawn entry; saves 0-3%.
    bool fill_holes = true;
    // At least this many bits per code, rounded up to 1, 2, 4 or 8 (a side with a single value takes
    // none). -1: 8 for DTM (byte codes compress best), 2 for WDL.
    int min_bits = -1;
    // Store the entries in the digit order (store/digit_order.hpp) whose sample of blocks compresses
    // smallest, trying every order of the index's digits (the natural one first). Costs about a tenth
    // more compression on a 5-man table; saves 0-25% (docs/format.md).
    bool search_digit_order = true;
    // This order instead (order[k]: the index digit stored k-th most significant), when not empty.
    std::vector<uint8_t> digit_order{};
    // A pawn table's pawn digits first (any order among themselves): the entries with the same pawns
    // then stand together, and a table that promotes into this one reads only those it reaches
    // (solve/promotions.hpp). Costs 0-10% of the bytes of 4-man pawn tables (docs/format.md).
    bool pawn_digits_first = false;
    // The shipping form (format version 4, DTM tables only) keeps the values of one side to move;
    // Tablebase rebuilds the other's by a one-ply search over the kept side and the sub-tables.
    // Smaller keeps the side whose sample of blocks compresses smaller.
    enum class Sides : uint8_t { Both, Smaller, WhiteToMove, BlackToMove };
    Sides keep = Sides::Both;
    // Whether write_settled_table (solve/exit_settled.hpp, which has the sub-tables: tbgen, tbpack)
    // settles values by exits (format version 5). write_table itself looks at its `settled` argument.
    bool settle_exits = true;
    // A file settled by exits ranks each block's codes again, narrower where the block holds few
    // (format version 6, store/block_ranks.hpp: 1-5% fewer bytes, and 2.6 times less xz time on
    // tables of few distances); false writes version 5, for readers of versions 1 to 5.
    bool rank_blocks = true;
    // Its stop ends the write at the next block in Stopped; its progress is told the blocks
    // written (Control::Count::BlocksWritten) and, by write_settled_table, the exits searched.
    Control control{};
    // How often the blocks written so far are flushed to disk and journaled, so that a write killed
    // halfway goes on from them (store/write_journal.hpp): a kill loses at most this much compression.
    double sync_seconds = 10;
};

// How an exact copy is written: zstd 1, every value as solved, in the natural order of the entries
// (or the pawn digits first, as a slice store reads), holes as they are; the values of `sides` to
// move only (a table read for one side).
WriteOptions exact_copy_options(SideSet sides = BOTH_SIDES);

// Writes to a temporary name in the same directory, flushes it to disk (fsync), then renames it, so
// a file with the final name is always complete. Throws StoreError (unwritable directory, full disk:
// no file with the final name is left behind). Blocks are compressed in parallel (TBB).
// With a `survey` (solve/exit_settled.hpp), the writer takes the holes and the counts of values from
// it instead of telling holes from legal entries itself, and the entries it settles may store any
// value no better than their own (format version 5, or 6 with options.rank_blocks), which makes
// files far smaller; readers need the sub-tables then.
void write_table(const Table& table, const std::filesystem::path& path, const WriteOptions& options = {},
                 const WriteSurvey* survey = nullptr);
// The same from values read a run at a time (a pawn table from its slice store, with the digit
// orders it reads in: the pawn digits first), with a survey read so.
void write_table(const TableValues& values, const std::filesystem::path& path,
                 const WriteOptions& options = {}, const SurveySource* survey = nullptr);

// Reads and checks a whole table file (header, every block's checksum and codes). Holes (entries of
// no legal position) may hold any value. Throws StoreError, also for the shipping form (one side to
// move only: Tablebase::find reads it and rebuilds the other side) and for values settled by exits
// (version 5, which need the sub-tables).
std::unique_ptr<Table> read_table(const std::filesystem::path& path);

// The same for any file, reading the values of `sides` to move only (the table holds no other):
// the entries of a side the file does not store are draws, and `dropped` names that side; with
// `exits_settled` (format version 5) the stored values still lack the exits that settle them
// (Tablebase::find applies them). Throws Stopped once `stop` is raised.
struct TableAsStored {
    std::unique_ptr<Table> table;
    std::optional<Color> dropped;
    bool exits_settled = false;
};
TableAsStored read_table_as_stored(const std::filesystem::path& path, SideSet sides = BOTH_SIDES,
                                   const std::atomic<bool>* stop = nullptr);

// True when the file exists, its header passes every check and every block its CRC (used to skip
// finished work; reads the whole file but decompresses nothing).
bool table_file_valid(const std::filesystem::path& path);
// Whether the values of a valid table file are complete only with its sub-tables beside it: it settles
// values by exits or drops a side to move, and a reader completes it when it reads it whole.
bool table_file_needs_subtables(const std::filesystem::path& path);

// The WDL bitbase of a solved table: win/draw/loss for the side to move, written like write_table
// but always with both sides (options.keep is ignored).
void write_wdl(const Table& table, const std::filesystem::path& path, const WriteOptions& options = {});
void write_wdl(const TableValues& values, const std::filesystem::path& path,
               const WriteOptions& options = {});

struct WdlTable {
    explicit WdlTable(const Material& m) : scheme(m) {}
    const Material& material() const { return scheme.material(); }
    Wdl value(Color side, uint64_t idx) const { return Wdl(values[side][idx]); }

    IndexScheme scheme;
    std::array<std::vector<uint8_t>, 2> values;  // Wdl per [side to move][index]
};

// Reads and checks a whole WDL bitbase. Throws StoreError. For probing single positions without
// reading everything, open a TableReader(path, format::Metric::Wdl) (store/table_reader.hpp).
std::unique_ptr<WdlTable> read_wdl(const std::filesystem::path& path);

}  // namespace retro
