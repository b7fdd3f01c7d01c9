// A directory of tables: the value and best move of any position whose table is present, whatever
// the side to move, colour orientation, symmetric image or en passant right.
#pragma once

#include <array>
#include <atomic>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "chess/move.hpp"
#include "probe/one_ply.hpp"
#include "store/block_cache.hpp"
#include "store/store_error.hpp"
#include "store/subtable_source.hpp"

namespace retro {

class BlockCache;
class TableReader;
namespace format {
struct Header;
}

class ProbeError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};
// The kinds of ProbeError an interface tells apart (an HTTP 404, a C error code).
class MissingTableError : public ProbeError {
    using ProbeError::ProbeError;
};
class TooManyMenError : public ProbeError {
    using ProbeError::ProbeError;
};
// A file that reads its values through the tables one capture or promotion away (settled by exits,
// or the shipping form) while some of them are missing: the file is there but cannot be read, so
// interfaces report it as an unreadable file (StoreError), not as a missing table.
class MissingSubtablesError : public StoreError {
    using StoreError::StoreError;
};

// Tables come from add() (whole, in memory) or from the directory's files. A file is read whole only
// by find() (the solver's sub-tables); probe() opens it with a TableReader that decompresses one
// block per probe and keeps recent blocks in a cache shared by all the directory's files. Files in
// the shipping form (one side to move only) are read transparently: the missing side's values come
// from a one-ply search, per probe or, in find(), for the whole side at once.
class Tablebase final : public SubtableSource {
public:
    // cache_bytes: the most decompressed blocks kept for probing (store/block_cache.hpp); each
    // probing thread also holds on to the last 8 blocks it read (TableReader::codes).
    explicit Tablebase(std::filesystem::path dir = {}, size_t cache_bytes = BlockCache::DEFAULT_BYTES);
    ~Tablebase();
    // The same for a directory given by a user: throws ProbeError when dir is not a directory, since
    // a mistyped path would otherwise only show as "no table" at every probe.
    static std::unique_ptr<Tablebase> open_directory(const std::filesystem::path& dir,
                                                     size_t cache_bytes = BlockCache::DEFAULT_BYTES);

    // The directory of the table files (empty for tables given by add() only).
    const std::filesystem::path& directory() const { return dir_; }

    void add(std::shared_ptr<const Table> table);
    // The table of this material or its colour swap with at least the values of `sides` to move,
    // read from the directory on first use (the blocks of those sides decompressed and checked,
    // without holding up other probes; concurrent first uses read it once; a later use that needs
    // another side reads the table again with both); nullptr when there is no such file. Throws
    // StoreError for a corrupted file or missing sub-tables (MissingSubtablesError).
    std::shared_ptr<const Table> find(const Material& m, SideSet sides) const override;
    using SubtableSource::find;
    // The materials (canonical, in order) of the tables held in memory: added, or read by find().
    std::vector<Material> held_tables() const;
    // Polled while find() reads a table whole (decompressing it, applying exits, rebuilding a
    // dropped side): once raised, find() throws Stopped instead of finishing a read that may
    // take minutes. A job's stop, so that it ends within a second also while loading sub-tables.
    void stop_reading_when(const std::atomic<bool>* stop) { stop_ = stop; }
    // find() reads a table's exact copy (store/table_file.hpp: written by a job beside a file that
    // settles values by exits, after it; by tbpack or tbdiff into copy_dir) instead of completing the file,
    // when the copy is there, not older than the file and readable. For the sub-tables of a job, a pack, or
    // of a tbdiff that found them identical itself: the verifier must read the files themselves.
    void read_exact_copies(std::filesystem::path copy_dir = {}) {
        exact_copies_ = true;
        exact_copy_dir_ = copy_dir.empty() ? dir_ : std::move(copy_dir);
    }
    // Called, from the thread of find(), after find() completed a file's values from its sub-tables
    // (exits applied, a dropped side rebuilt), also for the sub-tables that completion read: it can
    // take minutes, which a job says as it goes.
    using CompletionTold = std::function<void(const Material& m, double seconds)>;
    void tell_completions(CompletionTold told) { completion_told_ = std::move(told); }

    // A table added whole, or else the directory's file, read a run at a time (SubtableSource::values).
    std::unique_ptr<TableValues> values(const Material& m) const override;

    // Value of a legal position for its side to move. Bare kings are a draw. Throws
    // MissingTableError when the position's table is missing, TooManyMenError when it has more than
    // MAX_MEN men, and StoreError when its file is corrupted (the header when first opened, a block
    // when first needed) or reads through sub-tables that are missing (MissingSubtablesError).
    Dtm probe(const Position& pos) const override;
    // Value of each legal move for the mover, best first; equally good moves in UCI order ("a1a2"
    // before "b1b2"), so the order never depends on move generation. Throws like probe().
    std::vector<std::pair<Move, Dtm>> rank_moves(const Position& pos) const;

    // The block cache of the directory's files (for statistics, or to clear it in benchmarks).
    BlockCache& cache() const { return *cache_; }

private:
    struct Slot;
    // A Tablebase that completes one file read by load() (exits applied, a dropped side rebuilt):
    // it shares the directory, block cache and stop of `holder` and uses the tables holder holds,
    // and it frees the tables it reads itself once the file is complete. A settled sub-table's exits
    // reach tables the solve itself never needs (KBPvKP's KQBvKP: KQBvKQ, KQBvKR, ...), which would
    // raise the job's peak by gigabytes if kept.
    struct Completing {};
    Tablebase(const Tablebase& holder, Completing);
    // The table of `canonical` with at least `sides` held here or by the holder; nullptr if none.
    std::shared_ptr<const Table> held(const Material& canonical, SideSet sides) const;
    // How much of a value a probe must find: all of it, or a floor (Bounded) that the caller
    // completes only when it needs to.
    enum class Need { Exact, Floor };
    // probe(), or a floor of it: the successors of the shipping form's dropped side to move.
    Bounded probe(const Position& pos, Need need) const;
    Bounded probe_ignoring_ep(const Position& pos, Need need) const;
    // Value of a position read from its file (flipped: pos has the colour-swapped material), by a
    // one-ply search when the file does not store its side to move (the shipping form).
    Bounded value_from_file(const TableReader& reader, const Position& pos, bool flipped, Need need) const;
    // Publishes a table or a file reader (mutex_ held) in the lock-free slots that probes read.
    void publish(const Material& canonical, const Table* table, const TableReader* reader) const;
    // The slot of a material key (see tablebase.cpp), or nullptr; lock-free.
    const Slot* lookup(uint64_t key) const;
    // Throws MissingSubtablesError when the file of `canonical` (header h) reads through tables that
    // are neither held here or by the holder nor files in the directory. mutex_ held.
    void require_subtables(const Material& canonical, const format::Header& h) const;
    // The reader of a material's file, opened on first use; nullptr when there is no file.
    std::shared_ptr<const TableReader> open(const Material& canonical) const;
    // Reads the values of `sides` to move of a material's file, completed as the file's form asks
    // (exits applied, a dropped side rebuilt); nullptr when there is no file.
    std::shared_ptr<const Table> load(const Material& canonical, SideSet sides) const;

    std::filesystem::path dir_;
    mutable std::mutex mutex_;
    mutable std::map<Material, std::shared_ptr<const Table>> tables_;
    // Tables replaced by add(): kept alive, since a probe may still hold a raw pointer to one.
    mutable std::vector<std::shared_ptr<const Table>> retired_;
    mutable std::map<Material, std::shared_ptr<const TableReader>> readers_;
    // Tables being read by find(), outside mutex_: later finds of the same material wait for that
    // read instead of starting their own.
    mutable std::map<Material, std::shared_future<std::shared_ptr<const Table>>> loading_;
    std::shared_ptr<BlockCache> cache_;
    const std::atomic<bool>* stop_ = nullptr;
    const Tablebase* holder_ = nullptr;
    bool exact_copies_ = false;
    std::filesystem::path exact_copy_dir_;
    CompletionTold completion_told_;  // copied into the completing Tablebases
    // Open addressing by material key, written under mutex_, read without it. A probe prefers the
    // whole table when both are there.
    static constexpr size_t SLOTS = 64;
    struct Slot {
        std::atomic<uint64_t> key{0};
        std::atomic<const Table*> table{nullptr};
        std::atomic<const TableReader*> reader{nullptr};
    };
    mutable std::array<Slot, SLOTS> slots_;
};

}  // namespace retro
