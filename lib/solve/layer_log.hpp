// The layer log: the distances the solver has found, streamed to disk as the layers are swept, so
// that its state in memory needs no distance (solve/entry_state.hpp). A layer is the set S_n of the
// notebooks: the entries of one side to move decided in exactly n plies.
//
// Format: records, each a header {uint16 ply, uint8 side, uint8 0, uint32 payload bytes} and a
// payload of LEB128 varints: the first entry's index, then the gaps to each next one (ascending).
// Little-endian, no padding. A running checksum64 over the headers and payloads lets a checkpoint
// name a prefix of the log and check it when resuming.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <span>
#include <string>

#include "chess/types.hpp"

namespace retro {

// The entries of one record, encoded as they are found (ascending).
class LayerChunk {
public:
    void add(uint64_t index) {
        put(count_ ? index - last_ : index);
        last_ = index;
        ++count_;
    }
    bool empty() const { return count_ == 0; }
    uint64_t size() const { return count_; }
    const std::string& bytes() const { return bytes_; }

private:
    void put(uint64_t v) {
        for (; v >= 0x80; v >>= 7) bytes_ += char(v | 0x80);
        bytes_ += char(v);
    }
    std::string bytes_;
    uint64_t last_ = 0, count_ = 0;
};

// One record read back: the entries of one side decided at one ply, ascending.
struct LayerRecord {
    int ply;
    Color side;
    const unsigned char *begin, *end;  // the payload

    uint64_t size() const {
        uint64_t n = 0;
        for (const unsigned char* p = begin; p < end; ++p)
            n += !(*p & 0x80);  // a varint ends at each such byte
        return n;
    }
    // Calls f(index) for each entry, in order.
    template <class F>
    void for_each_entry(F&& f) const {
        uint64_t index = 0;
        for (const unsigned char* p = begin; p < end;) {
            uint64_t v = 0;
            for (int shift = 0; p < end; shift += 7) {
                v |= uint64_t(*p & 0x7f) << shift;
                if (!(*p++ & 0x80)) break;
            }
            index += v;  // the first entry's index, then the gaps
            f(index);
        }
    }
};

class LayerLog {
public:
    // Appends to `path` after its first `length` bytes, which must have the checksum `checksum`
    // (length 0: a new log). An empty path keeps the log in an anonymous temporary file. Throws
    // SolveError when the file cannot be opened or its prefix does not match.
    LayerLog(const std::filesystem::path& path, uint64_t length, uint64_t checksum);
    ~LayerLog();
    LayerLog(const LayerLog&) = delete;
    LayerLog& operator=(const LayerLog&) = delete;

    // Not thread-safe: the solver appends from one serial stage.
    void append(int ply, Color side, const LayerChunk& chunk);
    // Flushes and syncs, so that a checkpoint may name the current length.
    void sync();
    uint64_t length() const { return length_; }
    uint64_t checksum() const { return checksum_; }

    // Entries logged at plies of at least min_ply, per side.
    std::array<uint64_t, 2> count_from(int min_ply);

    // Calls f(record) for every record of a ply of at least min_ply, from the threads of the pool,
    // in no order: the solve's values are read back in parallel. The log is read in blocks of whole
    // records, each block's records shared among the threads.
    void read_back(int min_ply, const std::function<void(const LayerRecord&)>& f);

private:
    struct RecordHeader {
        uint16_t ply;
        uint8_t side;
        uint8_t zero;
        uint32_t bytes;
    };
    // Calls f(records) for the records of each block of the first `length` bytes, in log order,
    // after checking their framing (SolveError).
    void read_blocks(uint64_t length, const std::function<void(std::span<const LayerRecord>)>& f);
    // The checksum of the first `length` bytes.
    uint64_t checksum_of(uint64_t length);

    std::filesystem::path path_;
    std::FILE* file_ = nullptr;
    uint64_t length_ = 0;
    uint64_t checksum_;
};

}  // namespace retro
