// What a write cut short by a kill (SIGKILL, power cut) leaves for the next write of the same file:
// the blocks already on disk in path.tmp. A 6-man table takes an hour or more to compress; the next
// write goes on after them instead of compressing them again.
//
// path.tmp.journal: 8 bytes of magic, the layout's 64-bit fingerprint, then one record per block
// known to be on disk (end offset u64, CRC-32 u32, little-endian). Records are added only after
// path.tmp was flushed to disk (fsync), so every record names bytes that survived.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace retro {

class WriteJournal {
public:
    // Takes over the journal of path when its fingerprint matches (the same header but for the
    // block offsets and CRCs, the same codec level) and path.tmp holds all its blocks; otherwise starts
    // an empty one. `header_bytes`: where the first block starts.
    WriteJournal(const std::filesystem::path& path, uint64_t fingerprint, uint64_t header_bytes);
    // Removes the journal (after a commit, or a failure that removed path.tmp) unless kept.
    ~WriteJournal();
    WriteJournal(const WriteJournal&) = delete;
    WriteJournal& operator=(const WriteJournal&) = delete;

    // The blocks taken over: their end offsets in path.tmp and their CRCs.
    const std::vector<uint64_t>& ends() const { return ends_; }
    const std::vector<uint32_t>& crcs() const { return crcs_; }
    // Whether the last block taken over holds exactly these bytes in path.tmp.
    bool last_block_holds(std::span<const uint8_t> block) const;
    // Drops the blocks taken over (the last of them did not compress to the same bytes).
    void forget();

    // A block appended to path.tmp; recorded by the next flush.
    void add(uint64_t end, uint32_t crc);
    // Records the blocks added since the last flush. Call after path.tmp was flushed to disk.
    void flush();
    // Flushes and keeps the journal for a later write (a stopped one).
    void keep();

private:
    std::filesystem::path tmp_, journal_;
    uint64_t header_bytes_;
    uint64_t fingerprint_;
    std::vector<uint64_t> ends_;
    std::vector<uint32_t> crcs_;
    size_t recorded_ = 0;  // records in the file
    bool broken_ = false;  // a write of records failed: no more are added
    bool kept_ = false;
    int fd_ = -1;
};

}  // namespace retro
