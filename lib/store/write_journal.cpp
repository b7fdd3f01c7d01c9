#include "store/write_journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "store/store_error.hpp"
#include "store/table_paths.hpp"

namespace retro {

namespace {

constexpr std::array<char, 8> MAGIC{'R', 'T', 'B', 'J', 'R', 'N', 'L', '1'};
constexpr size_t HEAD = 16, RECORD = 12;

template <class T>
T load(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

}  // namespace

WriteJournal::WriteJournal(const std::filesystem::path& path, uint64_t fingerprint, uint64_t header_bytes)
    : tmp_(temporary_path(path)),
      journal_(write_journal_path(path)),
      header_bytes_(header_bytes),
      fingerprint_(fingerprint) {
    static_assert(std::endian::native == std::endian::little, "the journal is little-endian");
    std::error_code error;
    const uint64_t tmp_bytes = std::filesystem::file_size(tmp_, error);
    std::ifstream in(journal_, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!error && bytes.size() >= HEAD && std::memcmp(bytes.data(), MAGIC.data(), MAGIC.size()) == 0 &&
        load<uint64_t>(bytes.data() + 8) == fingerprint) {
        uint64_t previous = header_bytes;
        for (size_t at = HEAD; at + RECORD <= bytes.size(); at += RECORD) {  // a torn last record is left
            const uint64_t end = load<uint64_t>(bytes.data() + at);
            if (end <= previous || end > tmp_bytes) break;
            ends_.push_back(end);
            crcs_.push_back(load<uint32_t>(bytes.data() + at + 8));
            previous = end;
        }
    }
    // Rewritten whole, so that a torn record or a stale journal never precedes new records.
    fd_ = ::open(journal_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw StoreError(journal_.string() + ": cannot create the write journal: " + std::strerror(errno));
    std::vector<char> head(MAGIC.begin(), MAGIC.end());
    head.resize(HEAD);
    std::memcpy(head.data() + 8, &fingerprint_, 8);
    if (::write(fd_, head.data(), head.size()) != ssize_t(head.size()))
        throw StoreError(journal_.string() + ": cannot write the write journal");
    flush();
}

WriteJournal::~WriteJournal() {
    if (fd_ >= 0) ::close(fd_);
    if (kept_) return;
    std::error_code ignored;
    std::filesystem::remove(journal_, ignored);
}

bool WriteJournal::last_block_holds(std::span<const uint8_t> block) const {
    if (ends_.empty()) return false;
    const uint64_t start = ends_.size() > 1 ? ends_[ends_.size() - 2] : header_bytes_;
    if (ends_.back() - start != block.size()) return false;
    std::ifstream in(tmp_, std::ios::binary);
    std::vector<char> stored(block.size());
    in.seekg(std::streamoff(start));
    in.read(stored.data(), std::streamsize(stored.size()));
    return in && std::memcmp(stored.data(), block.data(), block.size()) == 0;
}

void WriteJournal::forget() {
    ends_.clear();
    crcs_.clear();
    if (::ftruncate(fd_, off_t(HEAD)) != 0 || ::lseek(fd_, 0, SEEK_END) < 0)
        throw StoreError(journal_.string() + ": cannot cut the write journal: " + std::strerror(errno));
    recorded_ = 0;
}

void WriteJournal::add(uint64_t end, uint32_t crc) {
    ends_.push_back(end);
    crcs_.push_back(crc);
}

void WriteJournal::flush() {
    std::vector<char> records((ends_.size() - recorded_) * RECORD);
    for (size_t k = recorded_, at = 0; k < ends_.size(); ++k, at += RECORD) {
        std::memcpy(records.data() + at, &ends_[k], 8);
        std::memcpy(records.data() + at + 8, &crcs_[k], 4);
    }
    // A journal that cannot be written costs only the resume: the file itself does not depend on it.
    // After a short write it stays as it is, so that no record follows a torn one.
    if (broken_ || records.empty()) return;
    if (::write(fd_, records.data(), records.size()) != ssize_t(records.size())) broken_ = true;
    recorded_ = ends_.size();
}

void WriteJournal::keep() {
    flush();
    kept_ = true;
}

}  // namespace retro
