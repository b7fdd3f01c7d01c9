#include "store/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "store/store_error.hpp"
#include "store/table_paths.hpp"

namespace retro {

namespace {

// Makes a rename in dir durable; not every file system can sync a directory, so this is best effort.
void sync_directory(const std::filesystem::path& dir) {
    const std::string name = dir.empty() ? std::string(".") : dir.string();
    if (const int fd = ::open(name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
}

}  // namespace

AtomicFile::AtomicFile(const std::filesystem::path& path) : path_(path), tmp_(temporary_path(path).string()) {
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw StoreError(path_.string() + ": cannot create " + tmp_ + ": " + std::strerror(errno));
}

AtomicFile::AtomicFile(const std::filesystem::path& path, uint64_t kept)
    : path_(path), tmp_(temporary_path(path).string()) {
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw StoreError(path_.string() + ": cannot reopen " + tmp_ + ": " + std::strerror(errno));
    if (::ftruncate(fd_, off_t(kept)) != 0) fail("cannot cut the temporary file");
    size_ = kept;
}

AtomicFile::~AtomicFile() {
    if (fd_ < 0) return;  // committed, or failed and cleaned up
    ::close(fd_);
    ::unlink(tmp_.c_str());
}

void AtomicFile::fail(const char* what) {
    const int error = errno;  // before anything else can change it
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    ::unlink(tmp_.c_str());
    throw StoreError(path_.string() + ": " + what + ": " + std::strerror(error));
}

void AtomicFile::write_at(uint64_t offset, Bytes bytes) {
    if (fd_ < 0) throw StoreError(path_.string() + ": write after the file was closed");
    const uint8_t* data = bytes.data();
    size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::pwrite(fd_, data, std::min<size_t>(left, size_t(1) << 30), off_t(offset));
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("write failed");
        }
        data += n, left -= size_t(n), offset += uint64_t(n);
    }
    size_ = std::max(size_, offset);
}

void AtomicFile::append(Bytes bytes) { write_at(size_, bytes); }

void AtomicFile::sync() {
    if (fd_ < 0) throw StoreError(path_.string() + ": sync after the file was closed");
    if (::fsync(fd_) != 0) fail("fsync failed");
}

void AtomicFile::leave_for_resume() {
    sync();
    ::close(fd_);
    fd_ = -1;
}

void AtomicFile::commit() {
    if (fd_ < 0) throw StoreError(path_.string() + ": committed twice");
    if (::fsync(fd_) != 0) fail("fsync failed");
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0 || ::rename(tmp_.c_str(), path_.c_str()) != 0) {
        const int error = errno;
        ::unlink(tmp_.c_str());
        throw StoreError(path_.string() +
                         ": cannot close or rename the temporary file: " + std::strerror(error));
    }
    sync_directory(path_.parent_path());
}

void write_file_atomically(const std::filesystem::path& path, std::span<const Bytes> pieces) {
    AtomicFile file(path);
    for (const Bytes& piece : pieces) file.append(piece);
    file.commit();
}

}  // namespace retro
