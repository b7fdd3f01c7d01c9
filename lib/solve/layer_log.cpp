#include "solve/layer_log.hpp"

#include <tbb/blocked_range.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <vector>

#include "parallel/parallel_for.hpp"
#include "solve/solve_error.hpp"
#include "store/checksum.hpp"

namespace retro {

namespace {

constexpr uint64_t CHECKSUM_SEED = 0xcbf29ce484222325ULL;
// The log is read back in blocks of a 256th of its length, within these bounds: a few dozen records
// of a dense layer to share among the threads, in a sliver of the memory the solver's state takes
// (two bytes per entry, where the log takes one or two per decided entry).
constexpr uint64_t SMALLEST_BLOCK = uint64_t(64) << 10, LARGEST_BLOCK = uint64_t(4) << 20;

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
    throw SolveError((path.empty() ? std::string("layer log") : path.string()) + ": " + what);
}

}  // namespace

LayerLog::LayerLog(const std::filesystem::path& path, uint64_t length, uint64_t checksum)
    : path_(path), checksum_(CHECKSUM_SEED) {
    file_ = path.empty() ? std::tmpfile() : std::fopen(path.c_str(), length ? "r+b" : "w+b");
    if (!file_) fail(path, std::string("cannot open: ") + std::strerror(errno));
    if (length == 0) return;
    if (checksum_of(length) != checksum) {
        std::fclose(file_);
        fail(path, "does not match its checkpoint");
    }
    length_ = length;
    checksum_ = checksum;
    if (::ftruncate(fileno(file_), off_t(length)) != 0 || std::fseek(file_, 0, SEEK_END) != 0) {
        std::fclose(file_);
        fail(path, std::string("cannot truncate: ") + std::strerror(errno));
    }
}

LayerLog::~LayerLog() {
    if (file_) std::fclose(file_);
}

void LayerLog::append(int ply, Color side, const LayerChunk& chunk) {
    const RecordHeader h{uint16_t(ply), uint8_t(side), 0, uint32_t(chunk.bytes().size())};
    if (std::fwrite(&h, sizeof h, 1, file_) != 1 ||
        std::fwrite(chunk.bytes().data(), 1, chunk.bytes().size(), file_) != chunk.bytes().size())
        fail(path_, std::string("write failed: ") + std::strerror(errno));
    checksum_ = checksum64(chunk.bytes().data(), chunk.bytes().size(), checksum64(&h, sizeof h, checksum_));
    length_ += sizeof h + chunk.bytes().size();
}

void LayerLog::sync() {
    if (std::fflush(file_) != 0 || ::fsync(fileno(file_)) != 0)
        fail(path_, std::string("write failed: ") + std::strerror(errno));
}

std::array<uint64_t, 2> LayerLog::count_from(int min_ply) {
    std::array<std::atomic<uint64_t>, 2> count{};
    read_back(min_ply, [&](const LayerRecord& r) { count[r.side] += r.size(); });
    return {count[WHITE].load(), count[BLACK].load()};
}

void LayerLog::read_back(int min_ply, const std::function<void(const LayerRecord&)>& f) {
    read_blocks(length_, [&](std::span<const LayerRecord> records) {
        par::parallel_for(tbb::blocked_range<size_t>(0, records.size(), 1), [&](const auto& r) {
            for (size_t k = r.begin(); k < r.end(); ++k)
                if (records[k].ply >= min_ply) f(records[k]);
        });
    });
}

uint64_t LayerLog::checksum_of(uint64_t length) {
    uint64_t sum = CHECKSUM_SEED;
    read_blocks(length, [&](std::span<const LayerRecord> records) {
        for (const LayerRecord& r : records) {
            const unsigned char* header = r.begin - sizeof(RecordHeader);
            sum = checksum64(r.begin, size_t(r.end - r.begin), checksum64(header, sizeof(RecordHeader), sum));
        }
    });
    return sum;
}

void LayerLog::read_blocks(uint64_t length, const std::function<void(std::span<const LayerRecord>)>& f) {
    if (std::fflush(file_) != 0) fail(path_, std::string("cannot read: ") + std::strerror(errno));
    std::vector<unsigned char> block;
    std::vector<LayerRecord> records;
    const uint64_t usual = std::clamp(length / 256, SMALLEST_BLOCK, LARGEST_BLOCK);
    uint64_t block_bytes = usual;              // more for a record longer than a block
    for (uint64_t done = 0; done < length;) {  // the bytes of the records in earlier blocks
        block.resize(std::min(block_bytes, length - done));
        for (size_t got = 0; got < block.size();) {
            const ssize_t n =
                ::pread(fileno(file_), block.data() + got, block.size() - got, off_t(done + got));
            if (n <= 0) fail(path_, "truncated record at byte " + std::to_string(done + got));
            got += size_t(n);
        }
        records.clear();
        size_t at = 0;  // the first record not in the block
        RecordHeader h{};
        for (; at + sizeof h <= block.size(); at += sizeof h + h.bytes) {
            std::memcpy(&h, block.data() + at, sizeof h);
            if (h.side > 1 || h.zero || h.bytes > length - done - at - sizeof h)
                fail(path_, "damaged record at byte " + std::to_string(done + at));
            if (at + sizeof h + h.bytes > block.size()) break;
            const unsigned char* payload = block.data() + at + sizeof h;
            records.push_back({h.ply, Color(h.side), payload, payload + h.bytes});
        }
        if (records.empty()) {
            if (at + sizeof h > block.size()) fail(path_, "damaged record at byte " + std::to_string(done));
            block_bytes = sizeof h + h.bytes;  // read again, the whole record
            continue;
        }
        f(records);
        done += at;
        block_bytes = usual;
    }
}

}  // namespace retro
