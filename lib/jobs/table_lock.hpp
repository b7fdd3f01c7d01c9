// Which process builds which table, so that several tbgen processes share one output directory (on
// one machine, or on several that mount it over a network filesystem).
//
// A process holds a lock on one byte of DIR/.tbgen.lock for every table it builds: an open file
// description lock (fcntl F_OFD_SETLK), which the kernel releases when the process dies however it
// dies (and an NFS server when the client's lease ends), so a killed process never blocks a table.
// Byte-range locks rather than a lock file per table: nothing to clean up, and no race between a
// process removing a lock file and another opening it.
#pragma once

#include <cstdint>
#include <filesystem>

#include "index/material.hpp"
#include "store/table_paths.hpp"

namespace retro {

// The byte of DIR/.tbgen.lock that stands for m: its piece counts as digits, unique per material.
uint64_t table_lock_byte(const Material& m);

// Whether another process holds m's lock in dir (asked with F_OFD_GETLK, which takes nothing, so a
// process looking never makes another miss its table). False when the lock file cannot be read.
bool table_locked_elsewhere(const std::filesystem::path& dir, const Material& m);

class TableLock {
public:
    // Tries once to take m's lock in dir; held() says whether it did. Throws JobError when the lock
    // file cannot be opened or its filesystem takes no locks.
    TableLock(const std::filesystem::path& dir, const Material& m);
    ~TableLock();
    TableLock(const TableLock&) = delete;
    TableLock& operator=(const TableLock&) = delete;

    bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

}  // namespace retro
