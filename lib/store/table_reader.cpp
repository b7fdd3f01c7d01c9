#include "store/table_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <memory>

#include "parallel/parallel_for.hpp"
#include "store/block_ranks.hpp"
#include "store/packed_codes.hpp"

namespace retro {

TableReader::File::~File() {
    if (fd >= 0) ::close(fd);
}

TableReader::TableReader(const std::filesystem::path& path, format::Metric metric,
                         std::shared_ptr<BlockCache> cache)
    : TableReader(path, nullptr, metric, std::move(cache)) {}

TableReader::TableReader(std::string bytes, const std::filesystem::path& path, format::Metric metric,
                         std::shared_ptr<BlockCache> cache)
    : TableReader(path, &bytes, metric, std::move(cache)) {}

TableReader::TableReader(const std::filesystem::path& path, std::string* bytes, format::Metric metric,
                         std::shared_ptr<BlockCache> cache)
    : path_(path),
      name_(path.empty() ? std::string("<memory>") : path.string()),
      memory_(bytes ? std::move(*bytes) : std::string()),
      in_memory_(bytes != nullptr),
      header_(load_header(metric)),
      scheme_(header_.material),
      order_(header_.digit_order.empty() ? DigitOrder()
                                         : DigitOrder(scheme_.digit_radices(), header_.digit_order)),
      cache_(cache ? std::move(cache) : std::make_shared<BlockCache>()),
      owner_(BlockCache::new_owner()),
      block_shift_(std::countr_zero(header_.block_entries)) {}

format::Header TableReader::load_header(format::Metric metric) {
    if (in_memory_) {
        file_.size = memory_.size();
    } else {
        file_.fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO must not block
        if (file_.fd < 0) fail(std::string("cannot open: ") + std::strerror(errno));
        struct stat st {};
        if (::fstat(file_.fd, &st) != 0) fail(std::string("cannot stat: ") + std::strerror(errno));
        if (!S_ISREG(st.st_mode)) fail("not a regular file");
        file_.size = uint64_t(st.st_size);
    }
    std::vector<uint8_t> fixed(std::min<uint64_t>(file_.size, format::FIXED_HEADER_BYTES));
    read_at(fixed.data(), fixed.size(), 0);
    const uint64_t length = format::header_length(fixed.data(), fixed.size(), file_.size, name_);
    std::vector<uint8_t> bytes(length);
    read_at(bytes.data(), bytes.size(), 0);
    return format::parse(bytes.data(), bytes.size(), file_.size, name_,
                         path_.empty() ? "" : path_.stem().string(), metric);
}

void TableReader::read_at(uint8_t* out, size_t n, uint64_t offset) const {
    if (n == 0) return;  // out may be null
    if (in_memory_) {
        if (offset > memory_.size() || n > memory_.size() - offset) fail("truncated");
        std::memcpy(out, memory_.data() + offset, n);
        return;
    }
    while (n > 0) {
        const ssize_t got = ::pread(file_.fd, out, n, off_t(offset));
        if (got < 0) {
            if (errno == EINTR) continue;
            fail(std::string("read error: ") + std::strerror(errno));
        }
        if (got == 0) fail("truncated (the file shrank while open)");
        out += got, n -= size_t(got), offset += uint64_t(got);
    }
}

void TableReader::fail(const std::string& what) const { throw StoreError(name_ + ": " + what); }

std::vector<uint8_t> TableReader::read_stored(uint32_t b) const {
    std::vector<uint8_t> stored(header_.offsets[b + 1] - header_.offsets[b]);
    read_at(stored.data(), stored.size(), header_.offsets[b]);
    return stored;
}

void TableReader::decode(uint32_t b, const std::vector<uint8_t>& stored, uint8_t* out) const {
    const std::string where = "block " + std::to_string(b) + " of " + std::to_string(header_.block_count);
    if (stored.empty()) fail(where + ": empty (corrupted file)");
    if (crc32_of(stored.data(), stored.size()) != header_.block_crc[b])
        fail(where + ": checksum mismatch (corrupted file)");
    const size_t bytes = header_.unpacked_bytes(b);
    const format::Side& side = header_.sides[header_.side_of_block(b)];
    const unsigned bits = side.bits, dict = unsigned(side.dictionary.size());
    const uint32_t n = header_.entries_in_block(b);
    try {
        if (header_.blocks_ranked()) {
            // One buffer per thread: a fresh one of 128 KiB is mapped and faulted in by every decode.
            thread_local std::vector<uint8_t> ranked;
            ranked.resize(std::max(ranked.size(), ranked_block_capacity(n, bits)));
            const size_t got =
                decompress_at_most(header_.codec, stored.data(), stored.size(), ranked.data(), ranked.size());
            unranked_block({ranked.data(), got}, n, bits, out);
        } else {
            decompress(header_.codec, stored.data(), stored.size(), out, bytes);
        }
    } catch (const CodecError& e) {
        fail(where + ": " + e.what());
    }
    // Every code must name a dictionary entry, and the bits after the last entry must be zero.
    const uint64_t used_bits = uint64_t(n) * bits;
    if (bits > 0 && used_bits % 8 && (out[bytes - 1] >> (used_bits % 8)))
        fail(where + ": nonzero padding bits (corrupted file)");
    if (bits == 0 || dict == (1u << bits)) return;
    // Byte codes (DTM tables'): the largest code first, in a loop the compiler vectorizes (the
    // check took a third of a cold zstd probe code by code); the loop below then only names the
    // bad code.
    if (bits == 8) {
        uint8_t largest = 0;
        for (uint32_t i = 0; i < n; ++i) largest = std::max(largest, out[i]);
        if (largest < dict) return;
    }
    for (uint32_t i = 0; i < n; ++i)
        if (const unsigned code = code_at(out, bits, i); code >= dict)
            fail(where + ": code " + std::to_string(code) + " beyond the dictionary of " +
                 std::to_string(dict) + " values (corrupted file)");
}

BlockCache::Ptr TableReader::block(uint32_t b) const {
    const uint64_t key = owner_ << 32 | b;
    if (auto hit = cache_->find(key)) return hit;
    const std::vector<uint8_t> stored = read_stored(b);
    auto block = std::make_shared<BlockCache::Block>(header_.unpacked_bytes(b));
    decode(b, stored, block->data());
    return cache_->insert(key, std::move(block));
}

namespace {

// The blocks a thread probed last, so that a hot probe reads its block without taking the cache's
// lock or an atomic reference count: both are shared by all threads, and two threads probing the
// same blocks passed those cache lines back and forth. Keys are never reused (BlockCache::new_owner),
// so a slot left by a reader that is gone never matches; it only keeps its block until replaced.
struct RecentBlocks {
    static constexpr size_t SLOTS = 8;   // a power of two: the slot is the top bits of the key's mix
    std::array<uint64_t, SLOTS> keys{};  // 0: empty (owners start at 1)
    std::array<BlockCache::Ptr, SLOTS> blocks;
    static_assert(std::has_single_bit(SLOTS));
};
thread_local RecentBlocks recent_blocks;

}  // namespace

const uint8_t* TableReader::codes(uint32_t b) const {
    const uint64_t key = owner_ << 32 | b;
    const size_t slot = size_t(BlockCache::mix(key) >> (64 - std::countr_zero(RecentBlocks::SLOTS)));
    RecentBlocks& recent = recent_blocks;
    if (recent.keys[slot] != key) {
        recent.blocks[slot] = block(b);
        recent.keys[slot] = key;
    }
    return recent.blocks[slot]->data();
}

uint16_t TableReader::value(Color side, uint64_t idx) const {
    if (idx >= header_.entries_per_side)
        throw std::out_of_range(name_ + ": index " + std::to_string(idx) + " beyond the table");
    if (!header_.stores(side))
        fail(std::string("the shipping form keeps no values for ") + color_name(side) +
             " to move (Tablebase rebuilds them by a one-ply search)");
    const format::Side& s = header_.sides[side];
    const uint64_t stored = order_.stored_of(idx);
    const uint32_t b = header_.first_block(side) + uint32_t(stored >> block_shift_);
    const uint64_t j = stored & (header_.block_entries - 1);
    if (s.bits == 0) {
        codes(b);  // still checks the block
        return s.dictionary[0];
    }
    return s.dictionary[code_at(codes(b), s.bits, j)];
}

uint16_t TableReader::value(const Position& pos) const {
    return value(pos, !(Material::of(pos) == material()));
}

uint16_t TableReader::value(const Position& pos, bool flipped) const {
    if (!flipped) return value(pos.side_to_move(), scheme_.encode(pos));
    const Position swapped = pos.color_flipped();
    return value(swapped.side_to_move(), scheme_.encode(swapped));
}

void TableReader::read_all(const BlockSink& sink, SideSet sides, const std::atomic<bool>* stop) const {
    const uint32_t per_side = header_.blocks_per_side();
    ReadStop stopping(stop);
    par::parallel_for(uint32_t(0), header_.block_count, [&](uint32_t b) {
        const Color side = header_.side_of_block(b);
        if (!(sides & side_bit(side)) || stopping.skip()) return;
        const std::vector<uint8_t> stored = read_stored(b);
        std::vector<uint8_t> codes(header_.unpacked_bytes(b));
        decode(b, stored, codes.data());
        const format::Side& s = header_.sides[side];
        std::vector<uint16_t> values(header_.entries_in_block(b));
        for (uint32_t i = 0; i < values.size(); ++i)
            values[i] = s.dictionary[code_at(codes.data(), s.bits, i)];
        sink(b, side, uint64_t(b % per_side) * header_.block_entries, values);
    });
    stopping.throw_if_skipped(name_);
}

void TableReader::read_values(Color side, uint64_t first, uint64_t n, uint16_t* out) const {
    if (first + n > header_.entries_per_side || first + n < first)
        throw std::out_of_range(name_ + ": entries beyond the table");
    if (!header_.stores(side))
        fail(std::string("the shipping form keeps no values for ") + color_name(side) + " to move");
    const format::Side& s = header_.sides[side];
    std::vector<uint8_t> codes;
    for (uint64_t at = first; at < first + n;) {
        const uint32_t b = header_.first_block(side) + uint32_t(at >> block_shift_);
        codes.resize(header_.unpacked_bytes(b));
        decode(b, read_stored(b), codes.data());
        const uint64_t block_first = at & ~uint64_t(header_.block_entries - 1);
        const uint64_t end = std::min(first + n, block_first + header_.entries_in_block(b));
        for (; at < end; ++at)
            *out++ = s.bits ? s.dictionary[code_at(codes.data(), s.bits, at - block_first)] : s.dictionary[0];
    }
}

void TableReader::verify_all() const {
    par::parallel_for(uint32_t(0), header_.block_count, [&](uint32_t b) {
        const std::vector<uint8_t> stored = read_stored(b);
        std::vector<uint8_t> codes(header_.unpacked_bytes(b));
        decode(b, stored, codes.data());
    });
}

void TableReader::verify_checksums() const {
    par::parallel_for(uint32_t(0), header_.block_count, [&](uint32_t b) {
        const std::vector<uint8_t> stored = read_stored(b);
        if (stored.empty() || crc32_of(stored.data(), stored.size()) != header_.block_crc[b])
            fail("block " + std::to_string(b) + " of " + std::to_string(header_.block_count) +
                 ": checksum mismatch (corrupted file)");
    });
}

}  // namespace retro
