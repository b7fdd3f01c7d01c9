// The solved slices of a pawn table on disk (index/pawn_slices.hpp): appended one by one as the
// solver finishes them, and read back a slice at a time, for the pushes of later slices and for the
// writer. Neither the solver's memory nor its checkpoints then need to hold the whole table: a
// checkpoint names the store's length and checksum, as it does the layer log's.
//
// A slice solved from the start keeps its writer's survey (store/write_survey.hpp) beside its values,
// so that a table solved with its slices on disk is written settled by exits as one held whole is.
//
// Format, little-endian: records, each a header {u32 magic "SLC1", u32 slice (pawn_configs order),
// u64 entries per side, u32 chunks per side, u32 surveyed (0 or 1), u64 long values of each side},
// then for each side the compressed size of each chunk (u32) and the chunks: zstd frames of CHUNK
// entries' byte codes (Table's bytes, the last chunk shorter), then each side's long values
// (Table::LongValue, u64 each, indexed in the slice's own index). A surveyed record goes on with each
// side's counts (u64 n, then n pairs {u64 value, u64 legal entries holding it}), then for each side
// its legal bits and its settled bits (EntryBits' words), each as chunks are: the compressed sizes
// (u32), then zstd frames of CHUNK entries' words. A running checksum64 over every byte names a
// prefix.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

#include "index/dependencies.hpp"
#include "index/pawn_config.hpp"
#include "store/table.hpp"
#include "store/write_survey.hpp"

namespace retro {

class SliceStore {
public:
    static constexpr uint64_t CHUNK = uint64_t(1) << 22;

    // The store of pawn table m at `path` (empty: an anonymous temporary file), going on after its
    // first `length` bytes, which must hold whole records with checksum `checksum` (0 and anything:
    // a new store). Throws StoreError when the file cannot be opened, or its prefix does not match.
    SliceStore(const std::filesystem::path& path, const Material& m, uint64_t length = 0,
               uint64_t checksum = 0);
    ~SliceStore();
    SliceStore(const SliceStore&) = delete;
    SliceStore& operator=(const SliceStore&) = delete;

    const Material& material() const { return material_; }
    const std::filesystem::path& path() const { return path_; }
    const std::vector<PawnConfig>& configs() const { return configs_; }

    // Appends the values of slice k (a Table over IndexScheme(m, configs()[k]), both sides), with its
    // survey (counted) when it has one, its chunks compressed in parallel. One writer at a time, and no
    // reads meanwhile. Throws StoreError.
    void append(int slice, const Table& values, const WriteSurvey* survey = nullptr);
    // Flushes to disk, so that a checkpoint may name the current length.
    void sync();
    uint64_t length() const { return length_; }
    uint64_t checksum() const { return checksum_; }

    bool holds(int slice) const { return records_.contains(slice); }
    // The values of slice k for `sides` to move (the others not held). Thread-safe. Throws StoreError
    // for a slice not stored or a chunk that does not decode.
    std::unique_ptr<Table> read(int slice, SideSet sides = BOTH_SIDES) const;

    // Whether slice k is stored with its survey; whether every slice is.
    bool surveyed(int slice) const { return holds(slice) && records_.at(slice).surveyed; }
    bool surveyed() const;
    // The survey of slice k for `sides` to move (the others without words), not counted. Thread-safe.
    // Throws StoreError for a slice stored without one, or a chunk that does not decode.
    WriteSurvey read_survey(int slice, SideSet sides = BOTH_SIDES) const;
    // The counts of the whole table's survey (WriteSurvey::counts): the slices' summed. Needs surveyed().
    std::array<std::vector<uint64_t>, 2> survey_counts() const;

private:
    struct Record {
        uint64_t entries = 0;
        std::array<uint64_t, 2> long_count{};
        std::array<std::vector<uint64_t>, 2> chunk_offset;  // per side: each chunk's offset, then the end
        uint64_t long_offset = 0;                           // the long values of both sides
        bool surveyed = false;
        struct Count {
            uint64_t value, entries;
        };
        std::array<std::vector<Count>, 2> counts;  // per side: the values counted
        // [side][legal, settled]: as chunk_offset, the frames of the survey's words
        std::array<std::array<std::vector<uint64_t>, 2>, 2> bits_offset;
    };
    // Slice k's record; throws StoreError when it is not stored.
    const Record& record(int slice) const;
    // Decodes the chunks at `offsets` into `out` (elements of `size` bytes, `count` in all).
    void decode(const std::vector<uint64_t>& offsets, uint64_t per_chunk, uint64_t count, size_t size,
                void* out, int slice) const;
    // Reads the records of the first `length` bytes into records_ and returns their checksum.
    uint64_t scan(uint64_t length);
    void read_at(void* out, size_t n, uint64_t offset) const;
    void write(const void* p, size_t n);
    [[noreturn]] void fail(const std::string& what) const;

    std::filesystem::path path_;
    Material material_;
    std::vector<PawnConfig> configs_;
    int fd_ = -1;
    uint64_t length_ = 0;
    uint64_t checksum_;
    std::map<int, Record> records_;
};

}  // namespace retro
