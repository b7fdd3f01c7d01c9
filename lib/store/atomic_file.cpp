#include "store/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "store/store_error.hpp"

namespace retro {

namespace {

// Writes all of data to fd; returns false with errno set on failure.
bool write_all(int fd, const uint8_t* data, size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, std::min<size_t>(size, size_t(1) << 30));
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += n, size -= size_t(n);
    }
    return true;
}

// Makes a rename in dir durable; not every file system can sync a directory, so this is best effort.
void sync_directory(const std::filesystem::path& dir) {
    const std::string name = dir.empty() ? std::string(".") : dir.string();
    if (const int fd = ::open(name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::span<const Bytes> pieces) {
    const std::string name = path.string();
    const std::string tmp = name + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw StoreError(name + ": cannot create " + tmp + ": " + std::strerror(errno));
    // Reads errno before anything else can change it.
    auto fail = [&](const char* what, bool open) {
        const int error = errno;
        if (open) ::close(fd);
        ::unlink(tmp.c_str());
        throw StoreError(name + ": " + what + ": " + std::strerror(error));
    };
    for (const Bytes& piece : pieces)
        if (!write_all(fd, piece.data(), piece.size())) fail("write failed", true);
    if (::fsync(fd) != 0) fail("fsync failed", true);
    if (::close(fd) != 0) fail("close failed", false);
    if (::rename(tmp.c_str(), name.c_str()) != 0) fail("cannot rename the temporary file", false);
    sync_directory(path.parent_path());
}

}  // namespace retro
