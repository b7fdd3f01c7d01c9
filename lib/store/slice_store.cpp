#include "store/slice_store.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>

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
    uint32_t surveyed;
    uint64_t long_count[2];
};

uint64_t chunks_for(uint64_t entries) { return (entries + SliceStore::CHUNK - 1) / SliceStore::CHUNK; }

using Frames = std::vector<std::vector<uint8_t>>;

// `count` elements of `size` bytes in chunks of `per_chunk`, each a zstd frame, compressed in parallel.
Frames compressed_chunks(const void* data, uint64_t count, size_t size, uint64_t per_chunk,
                         const std::function<void(const std::string&)>& fail) {
    Frames frames((count + per_chunk - 1) / per_chunk);
    par::parallel_for(uint64_t(0), uint64_t(frames.size()), [&](uint64_t c) {
        const uint64_t first = c * per_chunk, n = std::min(per_chunk, count - first);
        auto& frame = frames[c];
        frame.resize(ZSTD_compressBound(n * size));
        const size_t got = ZSTD_compress(frame.data(), frame.size(),
                                         static_cast<const char*>(data) + first * size, n * size, LEVEL);
        if (ZSTD_isError(got)) fail(std::string("cannot compress: ") + ZSTD_getErrorName(got));
        frame.resize(got);
    });
    return frames;
}

constexpr uint64_t WORDS_PER_CHUNK = SliceStore::CHUNK / 64;

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

void SliceStore::append(int slice, const Table& values, const WriteSurvey* survey) {
    assert(!survey || survey->counted());
    const uint64_t entries = values.size();
    const uint64_t chunks = chunks_for(entries);
    RecordHeader h{MAGIC, uint32_t(slice), entries, uint32_t(chunks), survey ? 1u : 0u, {}};
    for (Color side : {WHITE, BLACK}) h.long_count[side] = values.long_values(side).size();
    const auto failed = [this](const std::string& what) { fail(what); };
    std::array<Frames, 2> frames;
    for (Color side : {WHITE, BLACK})
        frames[side] = compressed_chunks(values.bytes(side).data(), entries, 1, CHUNK, failed);
    Record r;
    r.entries = entries;
    r.long_count = {h.long_count[0], h.long_count[1]};
    r.surveyed = survey != nullptr;
    // The sizes of the frames, then the frames, noting where each starts, then where the last ends.
    const auto write_frames = [&](const Frames& f, std::vector<uint64_t>& offsets) {
        std::vector<uint32_t> sizes;
        for (const auto& frame : f) sizes.push_back(uint32_t(frame.size()));
        write(sizes.data(), sizes.size() * sizeof(uint32_t));
        for (const auto& frame : f) {
            offsets.push_back(length_);
            write(frame.data(), frame.size());
        }
        offsets.push_back(length_);
    };
    write(&h, sizeof h);
    for (Color side : {WHITE, BLACK}) write_frames(frames[side], r.chunk_offset[side]);
    r.long_offset = length_;
    for (Color side : {WHITE, BLACK})
        write(values.long_values(side).data(), values.long_values(side).size() * sizeof(Table::LongValue));
    if (survey) {
        for (Color side : {WHITE, BLACK}) {
            const std::vector<uint64_t>& counts = survey->counts[side];
            for (uint64_t v = 0; v < counts.size(); ++v)
                if (counts[v]) r.counts[side].push_back({v, counts[v]});
            const uint64_t n = r.counts[side].size();
            write(&n, sizeof n);
            write(r.counts[side].data(), n * sizeof(r.counts[side][0]));
        }
        for (Color side : {WHITE, BLACK})
            for (int kind = 0; kind < 2; ++kind) {
                const std::vector<uint64_t>& words = (kind ? survey->settled : survey->legal).words[side];
                assert(words.size() == EntryBits::words_for(entries));
                write_frames(
                    compressed_chunks(words.data(), words.size(), sizeof(uint64_t), WORDS_PER_CHUNK, failed),
                    r.bits_offset[side][kind]);
            }
    }
    records_[slice] = std::move(r);
}

void SliceStore::sync() {
    if (::fsync(fd_) != 0) fail(std::string("write failed: ") + std::strerror(errno));
}

uint64_t SliceStore::scan(uint64_t length) {
    uint64_t sum = CHECKSUM_SEED, at = 0, start = 0;
    std::vector<char> bytes;
    const auto damaged = [&] { fail("damaged record at byte " + std::to_string(start)); };
    const auto summed = [&](uint64_t n) {
        if (n > length - at) damaged();
        bytes.resize(n);
        read_at(bytes.data(), n, at);
        sum = checksum64(bytes.data(), n, sum);
        at += n;
    };
    // The sizes of `chunks` frames, then the frames, as append writes them.
    const auto frames = [&](uint32_t chunks, std::vector<uint64_t>& offsets) {
        summed(uint64_t(chunks) * sizeof(uint32_t));
        std::vector<uint32_t> sizes(chunks);
        std::memcpy(sizes.data(), bytes.data(), bytes.size());
        for (uint32_t size : sizes) {
            offsets.push_back(at);
            summed(size);
        }
        offsets.push_back(at);
    };
    while (at < length) {
        start = at;
        RecordHeader h;
        summed(sizeof h);
        std::memcpy(&h, bytes.data(), sizeof h);
        if (h.magic != MAGIC || h.surveyed > 1 || h.slice >= configs_.size() ||
            h.chunks != chunks_for(h.entries) ||
            h.entries != IndexScheme(material_, configs_[h.slice]).size())
            damaged();
        Record r;
        r.entries = h.entries;
        r.long_count = {h.long_count[0], h.long_count[1]};
        r.surveyed = h.surveyed == 1;
        for (Color side : {WHITE, BLACK}) frames(h.chunks, r.chunk_offset[side]);
        r.long_offset = at;
        if (h.long_count[0] > length || h.long_count[1] > length) damaged();
        summed((h.long_count[0] + h.long_count[1]) * sizeof(Table::LongValue));
        if (r.surveyed) {
            for (Color side : {WHITE, BLACK}) {
                uint64_t n;
                summed(sizeof n);
                std::memcpy(&n, bytes.data(), sizeof n);
                if (n > WriteSurvey::COUNTED_VALUES) damaged();
                summed(n * sizeof(r.counts[side][0]));
                r.counts[side].resize(n);
                std::memcpy(r.counts[side].data(), bytes.data(), bytes.size());
                for (const auto& [value, entries] : r.counts[side])
                    if (value >= WriteSurvey::COUNTED_VALUES || entries > h.entries) damaged();
            }
            for (Color side : {WHITE, BLACK})
                for (auto& offsets : r.bits_offset[side]) frames(h.chunks, offsets);
        }
        records_[int(h.slice)] = std::move(r);
    }
    return sum;
}

void SliceStore::decode(const std::vector<uint64_t>& offsets, uint64_t per_chunk, uint64_t count, size_t size,
                        void* out, int slice) const {
    par::parallel_for(uint64_t(0), uint64_t(offsets.size() - 1), [&](uint64_t c) {
        std::vector<char> frame(offsets[c + 1] - offsets[c]);
        read_at(frame.data(), frame.size(), offsets[c]);
        const uint64_t first = c * per_chunk, n = std::min(per_chunk, count - first);
        const size_t got =
            ZSTD_decompress(static_cast<char*>(out) + first * size, n * size, frame.data(), frame.size());
        if (ZSTD_isError(got) || got != n * size)
            fail("slice " + std::to_string(slice + 1) + ": a chunk does not decode");
    });
}

std::unique_ptr<Table> SliceStore::read(int slice, SideSet sides) const {
    const Record& r = record(slice);
    Table::Bytes bytes;
    Table::LongValues long_values;
    uint64_t long_at = r.long_offset;
    for (Color side : {WHITE, BLACK}) {
        const uint64_t long_bytes = r.long_count[side] * sizeof(Table::LongValue);
        if (sides & side_bit(side)) {
            bytes[side].resize(r.entries);
            decode(r.chunk_offset[side], CHUNK, r.entries, 1, bytes[side].data(), slice);
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

const SliceStore::Record& SliceStore::record(int slice) const {
    const auto it = records_.find(slice);
    if (it == records_.end()) fail("slice " + std::to_string(slice + 1) + " is not stored");
    return it->second;
}

bool SliceStore::surveyed() const {
    if (records_.size() != configs_.size()) return false;
    return std::ranges::all_of(records_, [](const auto& r) { return r.second.surveyed; });
}

WriteSurvey SliceStore::read_survey(int slice, SideSet sides) const {
    const Record& r = record(slice);
    if (!r.surveyed) fail("slice " + std::to_string(slice + 1) + " is stored without its survey");
    WriteSurvey survey;
    for (Color side : {WHITE, BLACK})
        if (sides & side_bit(side))
            for (int kind = 0; kind < 2; ++kind) {
                std::vector<uint64_t>& words = (kind ? survey.settled : survey.legal).words[side];
                words.resize(EntryBits::words_for(r.entries));
                decode(r.bits_offset[side][kind], WORDS_PER_CHUNK, words.size(), sizeof(uint64_t),
                       words.data(), slice);
            }
    return survey;
}

std::array<std::vector<uint64_t>, 2> SliceStore::survey_counts() const {
    assert(surveyed());
    std::array<std::vector<uint64_t>, 2> counts;
    for (Color side : {WHITE, BLACK}) {
        counts[side].assign(WriteSurvey::COUNTED_VALUES, 0);
        for (const auto& [slice, r] : records_)
            for (const auto& [value, entries] : r.counts[side]) counts[side][value] += entries;
    }
    return counts;
}

}  // namespace retro
