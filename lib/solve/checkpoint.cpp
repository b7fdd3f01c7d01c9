#include "solve/checkpoint.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "index/index_scheme.hpp"
#include "solve/huge_pages.hpp"
#include "store/checksum.hpp"
#include "store/table_file.hpp"

namespace retro {

namespace {

constexpr char MAGIC[8] = {'R', 'E', 'T', 'R', 'O', 'C', 'K', '2'};

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
    for (int side = 0; side < 2; ++side) h.edges[side] = s.edges[side].size();
    h.log_length = s.log_length;
    h.log_checksum = s.log_checksum;
    h.checksum = state_checksum(h, s);
    const auto tmp = std::filesystem::path(path.string() + ".tmp");
    File out{std::fopen(tmp.c_str(), "wb")};
    if (!out.f) throw StoreError(tmp.string() + ": cannot create checkpoint: " + std::strerror(errno));
    bool ok = std::fwrite(&h, sizeof h, 1, out.f) == 1;
    for_each_array(s,
                   [&](const void* p, size_t n) { ok = ok && (n == 0 || std::fwrite(p, 1, n, out.f) == n); });
    ok = ok && std::fflush(out.f) == 0 && ::fsync(fileno(out.f)) == 0;
    const int error = errno;
    ok = std::fclose(out.f) == 0 && ok;
    out.f = nullptr;
    if (!ok) {
        std::filesystem::remove(tmp);
        throw StoreError(tmp.string() + ": cannot write checkpoint: " + std::strerror(error));
    }
    std::filesystem::rename(tmp, path);
}

std::optional<SolverState> read_checkpoint(const std::filesystem::path& path, const Material& m) {
    File in{std::fopen(path.c_str(), "rb")};
    if (!in.f) return std::nullopt;
    Header h{};
    if (std::fread(&h, sizeof h, 1, in.f) != 1 || std::memcmp(h.magic, MAGIC, sizeof MAGIC) != 0)
        return std::nullopt;
    h.material[sizeof h.material - 1] = 0;
    if (m.name() != h.material || h.entries != IndexScheme(m).size()) return std::nullopt;
    // The sizes the header claims must add up to the file's size before anything is allocated.
    std::error_code ec;
    const uint64_t file_bytes = std::filesystem::file_size(path, ec);
    const uint64_t most_edges = file_bytes / sizeof(EnPassantEdge);
    if (ec || h.edges[0] > most_edges || h.edges[1] > most_edges ||
        file_bytes != sizeof h + 2 * h.entries + (h.edges[0] + h.edges[1]) * sizeof(EnPassantEdge))
        return std::nullopt;
    SolverState s;
    s.next_ply = h.next_ply;
    s.max_value = h.max_value;
    s.window = h.window;
    s.log_length = h.log_length;
    s.log_checksum = h.log_checksum;
    for (int side = 0; side < 2; ++side) {
        assign_on_huge_pages(s.codes[side], h.entries, state::Code(0));
        s.edges[side].resize(h.edges[side]);
    }
    bool ok = true;
    for_each_array(s, [&](void* p, size_t n) { ok = ok && (n == 0 || std::fread(p, 1, n, in.f) == n); });
    if (!ok || std::fgetc(in.f) != EOF || state_checksum(h, s) != h.checksum) return std::nullopt;
    return s;
}

}  // namespace retro
