#include "jobs/table_lock.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "jobs/plan.hpp"

namespace retro {

uint64_t table_lock_byte(const Material& m) {
    static_assert(MAX_MEN - 2 < 8, "a piece count is one octal digit");
    uint64_t byte = 0;
    for (Color c : {WHITE, BLACK})
        for (int t = QUEEN; t <= PAWN; ++t) byte = byte * 8 + uint64_t(m.count(c, PieceType(t)));
    return byte;
}

namespace {

struct flock lock_of(const Material& m) {
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = off_t(table_lock_byte(m));
    lock.l_len = 1;
    return lock;
}

}  // namespace

bool table_locked_elsewhere(const std::filesystem::path& dir, const Material& m) {
    const int fd = ::open(table_lock_path(dir).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct flock lock = lock_of(m);
    const bool held = ::fcntl(fd, F_OFD_GETLK, &lock) == 0 && lock.l_type != F_UNLCK;
    ::close(fd);
    return held;
}

TableLock::TableLock(const std::filesystem::path& dir, const Material& m) {
    const auto path = table_lock_path(dir);
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw JobError("cannot open " + path.string() + ": " + std::strerror(errno));
    struct flock lock = lock_of(m);
    if (::fcntl(fd, F_OFD_SETLK, &lock) == 0) {
        fd_ = fd;
        return;
    }
    const int error = errno;
    ::close(fd);
    if (error != EAGAIN && error != EACCES)
        throw JobError("cannot lock " + m.name() + " in " + path.string() + ": " + std::strerror(error) +
                       " (the output directory must be on a filesystem with file locks)");
}

TableLock::~TableLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
}

}  // namespace retro
