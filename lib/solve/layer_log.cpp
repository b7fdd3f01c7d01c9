#include "solve/layer_log.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "solve/solve_error.hpp"
#include "store/checksum.hpp"

namespace retro {

namespace {

constexpr uint64_t CHECKSUM_SEED = 0xcbf29ce484222325ULL;

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
    throw SolveError((path.empty() ? std::string("layer log") : path.string()) + ": " + what);
}

}  // namespace

LayerLog::LayerLog(const std::filesystem::path& path, uint64_t length, uint64_t checksum)
    : path_(path), checksum_(CHECKSUM_SEED) {
    file_ = path.empty() ? std::tmpfile() : std::fopen(path.c_str(), length ? "r+b" : "w+b");
    if (!file_) fail(path, std::string("cannot open: ") + std::strerror(errno));
    if (length == 0) return;
    if (read_records(length, nullptr) != checksum) {
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
    std::array<uint64_t, 2> count{};
    read_records(length_, [&](int ply, Color side, const unsigned char* p, const unsigned char* end) {
        if (ply >= min_ply)
            for (; p < end; ++p) count[side] += !(*p & 0x80);  // a varint ends at each such byte
    });
    return count;
}

uint64_t LayerLog::read_records(uint64_t length, const RecordVisitor& f) {
    if (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0)
        fail(path_, std::string("cannot read: ") + std::strerror(errno));
    uint64_t sum = CHECKSUM_SEED, done = 0;
    std::vector<unsigned char> payload;
    while (done < length) {
        RecordHeader h;
        if (length - done < sizeof h || std::fread(&h, sizeof h, 1, file_) != 1 || h.side > 1 || h.zero ||
            h.bytes > length - done - sizeof h)
            fail(path_, "damaged record at byte " + std::to_string(done));
        payload.resize(h.bytes);
        if (h.bytes && std::fread(payload.data(), 1, h.bytes, file_) != h.bytes)
            fail(path_, "truncated record at byte " + std::to_string(done));
        sum = checksum64(payload.data(), payload.size(), checksum64(&h, sizeof h, sum));
        if (f) f(h.ply, Color(h.side), payload.data(), payload.data() + payload.size());
        done += sizeof h + h.bytes;
    }
    if (std::fseek(file_, 0, SEEK_END) != 0) fail(path_, std::string("cannot seek: ") + std::strerror(errno));
    return sum;
}

}  // namespace retro
