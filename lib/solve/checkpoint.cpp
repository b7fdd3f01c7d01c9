#include "solve/checkpoint.hpp"

#include <cstdio>
#include <cstring>

#include "index/index_scheme.hpp"
#include "solve/huge_pages.hpp"
#include "store/atomic_file.hpp"
#include "store/checksum.hpp"

namespace retro {

namespace {

constexpr char MAGIC[8] = {'R', 'E', 'T', 'R', 'O', 'C', 'K', '3'};
// The previous version: the same layout, but an edge's capture was a byte (255: a draw) followed
// by a zero byte, so it reads as a Dtm below 256.
constexpr char MAGIC_BYTE_CAPTURES[8] = {'R', 'E', 'T', 'R', 'O', 'C', 'K', '2'};
static_assert(sizeof(EnPassantEdge) == 24);

struct Header {
    char magic[8];
    char material[16];
    uint64_t entries;
    int32_t next_ply;
    int32_t max_value;
    int32_t window;
    int32_t zero;
    uint64_t edges[2];
    uint64_t log_length;
    uint64_t log_checksum;
    uint64_t checksum;  // over the header fields above and every array after it
};

// Calls f(pointer, bytes) for every array of the state; State is const for writing.
template <class State, class F>
void for_each_array(State& s, F&& f) {
    for (int side = 0; side < 2; ++side) {
        f(s.codes[side].data(), s.codes[side].size());
        f(s.edges[side].data(), s.edges[side].size() * sizeof(EnPassantEdge));
    }
}

uint64_t state_checksum(const Header& h, const SolverState& s) {
    uint64_t sum = checksum64(&h, offsetof(Header, checksum));
    for_each_array(s, [&](const void* p, size_t n) { sum = checksum64(p, n, sum); });
    return sum;
}

// Whether the header's counts account for a file of `size` bytes exactly, checked before they size
// any allocation: a damaged count could ask for any amount of memory (entries is already checked
// against the index).
bool counts_fit(const Header& h, uint64_t size) {
    const uint64_t most_edges = size / sizeof(EnPassantEdge);
    if (h.edges[0] > most_edges || h.edges[1] > most_edges) return false;
    return size ==
           sizeof h + 2 * h.entries * sizeof(state::Code) + (h.edges[0] + h.edges[1]) * sizeof(EnPassantEdge);
}

struct File {
    std::FILE* f;
    ~File() {
        if (f) std::fclose(f);
    }
};

}  // namespace

void write_checkpoint(const std::filesystem::path& path, const Material& m, const SolverState& s) {
    Header h{};
    std::memcpy(h.magic, MAGIC, sizeof MAGIC);
    std::strncpy(h.material, m.name().c_str(), sizeof h.material - 1);
    h.entries = s.codes[0].size();
    h.next_ply = s.next_ply;
    h.max_value = s.max_value;
    h.window = s.window;
    h.log_length = s.log_length;
    h.log_checksum = s.log_checksum;
    for (int side = 0; side < 2; ++side) h.edges[side] = s.edges[side].size();
    h.checksum = state_checksum(h, s);
    std::vector<Bytes> pieces{Bytes(reinterpret_cast<const uint8_t*>(&h), sizeof h)};
    for_each_array(s,
                   [&](const void* p, size_t n) { pieces.emplace_back(static_cast<const uint8_t*>(p), n); });
    write_file_atomically(path, pieces);
}

std::optional<SolverState> read_checkpoint(const std::filesystem::path& path, const Material& m) {
    File in{std::fopen(path.c_str(), "rb")};
    if (!in.f) return std::nullopt;
    Header h{};
    if (std::fread(&h, sizeof h, 1, in.f) != 1) return std::nullopt;
    const bool byte_captures = std::memcmp(h.magic, MAGIC_BYTE_CAPTURES, sizeof MAGIC) == 0;
    if (!byte_captures && std::memcmp(h.magic, MAGIC, sizeof MAGIC) != 0) return std::nullopt;
    h.material[sizeof h.material - 1] = 0;
    if (m.name() != h.material || h.entries != IndexScheme(m).size()) return std::nullopt;
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec || !counts_fit(h, size)) return std::nullopt;
    SolverState s;
    s.next_ply = h.next_ply;
    s.max_value = h.max_value;
    s.window = h.window;
    s.log_length = h.log_length;
    s.log_checksum = h.log_checksum;
    for (int side = 0; side < 2; ++side) {
        // On huge pages as a fresh solve's arrays are: the sweeps touch them at random just the same.
        assign_on_huge_pages(s.codes[side], h.entries, state::NEVER_LOST);
        s.edges[side].resize(h.edges[side]);
    }
    bool ok = true;
    for_each_array(s, [&](void* p, size_t n) { ok = ok && (n == 0 || std::fread(p, 1, n, in.f) == n); });
    if (!ok || state_checksum(h, s) != h.checksum) return std::nullopt;
    if (byte_captures)
        for (auto& edges : s.edges)
            for (EnPassantEdge& e : edges)
                if (e.capture == 255) e.capture = DTM_DRAW;
    return s;
}

std::filesystem::path set_aside_checkpoint(const std::filesystem::path& path) {
    const std::filesystem::path damaged = path.string() + ".damaged";
    std::error_code ec;
    std::filesystem::rename(path, damaged, ec);
    if (!ec) return damaged;
    std::filesystem::remove(path, ec);  // the next run must not meet it again
    return {};
}

}  // namespace retro
