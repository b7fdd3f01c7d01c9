// Helpers of the store tests: small solved tables, scratch directories, raw file bytes.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "index/dependencies.hpp"
#include "probe/tablebase.hpp"
#include "solve/solver.hpp"
#include "store/checksum.hpp"
#include "store/table_file.hpp"
#include "store/table_reader.hpp"

namespace retro::store_test {

namespace fs = std::filesystem;

// A fresh directory, removed at the end of the test.
struct ScratchDir {
    fs::path path;
    explicit ScratchDir(const std::string& name)
        : path(fs::temp_directory_path() / ("retro-store-" + name + "-" + std::to_string(::getpid()))) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ec;
        fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path, ec);
    }
};

inline std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), std::streamsize(bytes.size()));
}

// Solved in this process, once: KQvK, KRvK, KPvK and what KPvK promotes into (about half a second).
inline const Tablebase& small_tables() {
    static const auto tables = [] {
        auto tb = std::make_unique<Tablebase>();
        for (const Material& m :
             build_order({Material::parse("KQvK"), Material::parse("KRvK"), Material::parse("KPvK")}))
            tb->add(solve_in_memory(m, *tb));
        return tb;
    }();
    return *tables;
}

inline std::shared_ptr<const Table> small_table(const std::string& name) {
    return small_tables().find(Material::parse(name));
}

// The small table `name` written into dir with its two digits swapped (format version 3); its path.
inline fs::path write_in_swapped_digit_order(const std::string& name, const fs::path& dir) {
    const auto table = small_table(name);
    const fs::path path = table_path(dir, table->material());
    WriteOptions o;
    o.digit_order = {1, 0};
    write_table(*table, path, o);
    return path;
}

// The file's bytes with its header CRC recomputed, so that only the field checks can catch a change.
inline std::string with_header_crc(std::string bytes) {
    const uint32_t length = uint32_t(uint8_t(bytes[12])) | uint32_t(uint8_t(bytes[13])) << 8 |
                            uint32_t(uint8_t(bytes[14])) << 16 | uint32_t(uint8_t(bytes[15])) << 24;
    const uint32_t crc = crc32_of(bytes.data(), length - 4);
    for (int i = 0; i < 4; ++i) bytes[length - 4 + size_t(i)] = char(crc >> (8 * i));
    return bytes;
}

// The StoreError a TableReader over these bytes throws at open, or "accepted".
inline std::string open_error(const std::string& bytes, const fs::path& path) {
    try {
        TableReader(bytes, path, format::Metric::Dtm);
    } catch (const StoreError& e) {
        return e.what();
    }
    return "accepted";
}

// Calls f(side, index, position) for every legal entry of the table.
template <class F>
void for_each_legal(const IndexScheme& scheme, F&& f) {
    Position pos;
    for (Color side : {WHITE, BLACK})
        for (uint64_t i = 0; i < scheme.size(); ++i) {
            if (!scheme.decode(i, pos)) continue;
            pos.set_side_to_move(side);
            if (pos.in_check(~side)) continue;
            f(side, i, pos);
        }
}

// While it lives, no file may grow past `bytes`: a full disk, where write() fails with EFBIG
// instead of ENOSPC (and SIGXFSZ is ignored rather than killing the process).
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit small{};
        if (getrlimit(RLIMIT_FSIZE, &old_) != 0) throw std::runtime_error("getrlimit failed");
        small = old_;
        small.rlim_cur = bytes;
        if (setrlimit(RLIMIT_FSIZE, &small) != 0) throw std::runtime_error("setrlimit failed");
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &old_);
        std::signal(SIGXFSZ, SIG_DFL);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit old_{};
};

}  // namespace retro::store_test
