#include "store/slice_store.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "index/pawn_slices.hpp"
#include "parallel/parallel_for.hpp"
#include "store/checksum.hpp"
#include "store/store_error.hpp"

namespace retro {

namespace {

constexpr uint32_t MAGIC = 0x31434c53;  // "SLC1"
constexpr uint64_t CHECKSUM_SEED = 0xcbf29ce484222325ULL;
// zstd's fastest level: the store is read back within the hour, not shipped.
constexpr int LEVEL = 1;

struct RecordHeader {
    uint32_t magic;
    uint32_t slice;
    uint64_t entries;
    uint32_t chunks;
    uint32_t zero;
    uint64_t long_count[2];
};

uint64_t chunks_for(uint64_t entries) { return (entries + SliceStore::CHUNK - 1) / SliceStore::CHUNK; }

}  // namespace

SliceStore::SliceStore(const std::filesystem::path& path, const Material& m, uint64_t length,
                       uint64_t checksum)
    : path_(path), material_(m), configs_(pawn_configs(m)), checksum_(CHECKSUM_SEED) {
    if (path.empty()) {
        std::FILE* f = std::tmpfile();
        fd_ = f ? ::dup(fileno(f)) : -1;  // the file lives while a descriptor is open
        if (f) std::fclose(f);
    } else {
        fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | (length ? 0 : O_TRUNC), 0644);
    }
    if (fd_ < 0) fail(std::string("cannot open: ") + std::strerror(errno));
    if (length == 0) return;
    if (scan(length) != checksum) {
        ::close(fd_);
        fail("does not match its checkpoint");
    }
    length_ = length;
    checksum_ = checksum;
    if (::ftruncate(fd_, off_t(length)) != 0) {
        ::close(fd_);
        fail(std::string("cannot truncate: ") + std::strerror(errno));
    }
}

SliceStore::~SliceStore() {
    if (fd_ >= 0) ::close(fd_);
}

void SliceStore::fail(const std::string& what) const {
    throw StoreError((path_.empty() ? material_.name() + " slice store" : path_.string()) + ": " + what);
}

void SliceStore::write(const void* p, size_t n) {
    const auto* bytes = static_cast<const char*>(p);
    for (size_t done = 0; done < n;) {
        const ssize_t w = ::pwrite(fd_, bytes + done, n - done, off_t(length_ + done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) fail(std::string("write failed: ") + std::strerror(errno));
        done += size_t(w);
    }
    checksum_ = checksum64(p, n, checksum_);
    length_ += n;
}

void SliceStore::read_at(void* out, size_t n, uint64_t offset) const {
    auto* bytes = static_cast<char*>(out);
    for (size_t done = 0; done < n;) {
        const ssize_t r = ::pread(fd_, bytes + done, n - done, off_t(offset + done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) fail("cannot read at byte " + std::to_string(offset + done));
        done += size_t(r);
    }
}

void SliceStore::append(int slice, const Table& values) {
    const uint64_t entries = values.size();
    const uint64_t chunks = chunks_for(entries);
    RecordHeader h{MAGIC, uint32_t(slice), entries, uint32_t(chunks), 0, {}};
    for (Color side : {WHITE, BLACK}) h.long_count[side] = values.long_values(side).size();
    std::array<std::vector<std::vector<uint8_t>>, 2> frames;
    for (Color side : {WHITE, BLACK}) {
        frames[side].resize(chunks);
        par::parallel_for(uint64_t(0), chunks, [&](uint64_t c) {
            const uint64_t first = c * CHUNK, n = std::min(CHUNK, entries - first);
            auto& frame = frames[side][c];
            frame.resize(ZSTD_compressBound(n));
            const size_t size =
                ZSTD_compress(frame.data(), frame.size(), values.bytes(side).data() + first, n, LEVEL);
            if (ZSTD_isError(size)) fail(std::string("cannot compress: ") + ZSTD_getErrorName(size));
            frame.resize(size);
        });
    }
    Record r;
    r.entries = entries;
    r.long_count = {h.long_count[0], h.long_count[1]};
    write(&h, sizeof h);
    for (Color side : {WHITE, BLACK}) {
        std::vector<uint32_t> sizes;
        for (const auto& f : frames[side]) sizes.push_back(uint32_t(f.size()));
        write(sizes.data(), sizes.size() * sizeof(uint32_t));
        for (const auto& f : frames[side]) {
            r.chunk_offset[side].push_back(length_);
            write(f.data(), f.size());
        }
        r.chunk_offset[side].push_back(length_);
    }
    r.long_offset = length_;
    for (Color side : {WHITE, BLACK})
        write(values.long_values(side).data(), values.long_values(side).size() * sizeof(Table::LongValue));
    records_[slice] = std::move(r);
}

void SliceStore::sync() {
    if (::fsync(fd_) != 0) fail(std::string("write failed: ") + std::strerror(errno));
}

uint64_t SliceStore::scan(uint64_t length) {
    uint64_t sum = CHECKSUM_SEED, at = 0;
    std::vector<char> bytes;
    const auto summed = [&](uint64_t n) {
        if (n > length - at) fail("damaged record at byte " + std::to_string(at));
        bytes.resize(n);
        read_at(bytes.data(), n, at);
        sum = checksum64(bytes.data(), n, sum);
        at += n;
    };
    while (at < length) {
        const uint64_t start = at;
        RecordHeader h;
        summed(sizeof h);
        std::memcpy(&h, bytes.data(), sizeof h);
        if (h.magic != MAGIC || h.zero || h.slice >= configs_.size() || h.chunks != chunks_for(h.entries) ||
            h.entries != IndexScheme(material_, configs_[h.slice]).size())
            fail("damaged record at byte " + std::to_string(start));
        Record r;
        r.entries = h.entries;
        r.long_count = {h.long_count[0], h.long_count[1]};
        for (Color side : {WHITE, BLACK}) {
            summed(uint64_t(h.chunks) * sizeof(uint32_t));
            std::vector<uint32_t> sizes(h.chunks);
            std::memcpy(sizes.data(), bytes.data(), bytes.size());
            for (uint32_t size : sizes) {
                r.chunk_offset[side].push_back(at);
                summed(size);
            }
            r.chunk_offset[side].push_back(at);
        }
        r.long_offset = at;
        if (h.long_count[0] > length || h.long_count[1] > length)
            fail("damaged record at byte " + std::to_string(start));
        summed((h.long_count[0] + h.long_count[1]) * sizeof(Table::LongValue));
        records_[int(h.slice)] = std::move(r);
    }
    return sum;
}

std::unique_ptr<Table> SliceStore::read(int slice, SideSet sides) const {
    const auto it = records_.find(slice);
    if (it == records_.end()) fail("slice " + std::to_string(slice + 1) + " is not stored");
    const Record& r = it->second;
    Table::Bytes bytes;
    Table::LongValues long_values;
    uint64_t long_at = r.long_offset;
    for (Color side : {WHITE, BLACK}) {
        const uint64_t long_bytes = r.long_count[side] * sizeof(Table::LongValue);
        if (sides & side_bit(side)) {
            bytes[side].resize(r.entries);
            const auto& offsets = r.chunk_offset[side];
            par::parallel_for(uint64_t(0), uint64_t(offsets.size() - 1), [&](uint64_t c) {
                std::vector<char> frame(offsets[c + 1] - offsets[c]);
                read_at(frame.data(), frame.size(), offsets[c]);
                const uint64_t first = c * CHUNK, n = std::min(CHUNK, r.entries - first);
                const size_t got = ZSTD_decompress(bytes[side].data() + first, n, frame.data(), frame.size());
                if (ZSTD_isError(got) || got != n)
                    fail("slice " + std::to_string(slice + 1) + ": a chunk does not decode");
            });
            long_values[side].resize(r.long_count[side]);
            read_at(long_values[side].data(), long_bytes, long_at);
        }
        long_at += long_bytes;
    }
    try {
        return std::make_unique<Table>(IndexScheme(material_, configs_[size_t(slice)]), std::move(bytes),
                                       std::move(long_values));
    } catch (const std::invalid_argument& e) {
        fail("slice " + std::to_string(slice + 1) + ": " + e.what());
    }
}

}  // namespace retro
