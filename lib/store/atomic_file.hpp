// Writing a file so that its final name only ever holds a complete file: the bytes go to path.tmp,
// which is flushed to disk, renamed over path, and the rename made durable by syncing the directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace retro {

using Bytes = std::span<const uint8_t>;

// A file written piece by piece under path.tmp and renamed over path by commit(). A fixed temporary
// name: a write cut short by a kill leaves path.tmp, which the next write overwrites or goes on with. Every
// method throws StoreError naming path and the reason (cannot create, write or fsync failed, full disk);
// path.tmp is removed then, as it is when the object goes away without commit(), and an older file
// at path is left as it was.
class AtomicFile {
public:
    explicit AtomicFile(const std::filesystem::path& path);
    // Goes on with the first `kept` bytes of the path.tmp that an earlier write left (store/
    // write_journal.hpp), the rest cut off.
    AtomicFile(const std::filesystem::path& path, uint64_t kept);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void append(Bytes bytes);
    // Overwrites bytes already appended (a header whose fields are known only at the end).
    void write_at(uint64_t offset, Bytes bytes);
    uint64_t size() const { return size_; }
    // Flushes what was written so far to disk (fsync).
    void sync();
    // Flushes to disk and renames over path.
    void commit();
    // Flushes to disk and closes path.tmp, leaving it for a later write to go on with.
    void leave_for_resume();

private:
    [[noreturn]] void fail(const char* what);

    std::filesystem::path path_;
    std::string tmp_;
    int fd_ = -1;
    uint64_t size_ = 0;
};

// Writes the pieces, in order, as the whole content of `path`, through an AtomicFile.
void write_file_atomically(const std::filesystem::path& path, std::span<const Bytes> pieces);

}  // namespace retro
