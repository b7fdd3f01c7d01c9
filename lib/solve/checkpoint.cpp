#include "solve/checkpoint.hpp"

#include <cassert>
#include <cstdio>
#include <cstring>

#include "index/index_scheme.hpp"
#include "index/pawn_slices.hpp"
#include "index/rank_split.hpp"
#include "store/atomic_file.hpp"
#include "store/checksum.hpp"
#include "store/table_paths.hpp"

namespace retro {

namespace {

// Version 8: code 127 marks an entry whose moves are not counted yet (a counter before). Earlier
// versions (7: the entries with exits after the codes; 6: without them; 5: one
// process's; 4: a pawn table's solved values in the checkpoint; before: a whole pawn table with its en
// passant edges) are refused.
constexpr char MAGIC[8] = {'R', 'E', 'T', 'R', 'O', 'C', 'K', '8'};

struct Header {
    char magic[8];
    char material[16];
    uint32_t slice;
    uint32_t begun;    // 1 when the sweeps of the slice have begun (their state follows)
    uint64_t entries;  // of the slice's index that the rank holds, per side to move (0 when not begun)
    int32_t next_ply;
    int32_t max_value;
    int32_t window;
    uint32_t rank;
    uint32_t ranks;
    uint32_t zero;
    uint64_t log_length;
    uint64_t log_checksum;
    uint64_t slices_length;  // the slice store's bytes that hold the slices before `slice`
    uint64_t slices_checksum;
    uint64_t checksum;  // over the header fields above, the state's codes and its entries with exits
};

// The entries per side that rank `part` holds of the index a checkpoint's state belongs to (none when
// not begun), or nullopt for a slice number the material does not have.
std::optional<uint64_t> state_entries(const Material& m, uint32_t slice, bool begun, RankPart part) {
    const auto held = [&](const IndexScheme& scheme) {
        return king_pair_ranges(scheme, part.ranks)[size_t(part.rank)].size();
    };
    if (!m.has_pawns()) {
        if (slice != 0) return std::nullopt;
        return begun ? held(IndexScheme(m)) : 0;
    }
    const auto configs = pawn_configs(m);
    // The number of slices: every slice solved, the table not yet written.
    if (slice > configs.size() || (slice == configs.size() && begun)) return std::nullopt;
    return begun ? held(IndexScheme(m, configs[slice])) : 0;
}

// The header of a checkpoint of m of this version, or nullopt.
std::optional<Header> read_header(std::FILE* in, const Material& m) {
    Header h{};
    if (std::fread(&h, sizeof h, 1, in) != 1 || std::memcmp(h.magic, MAGIC, sizeof MAGIC) != 0)
        return std::nullopt;
    h.material[sizeof h.material - 1] = 0;
    if (m.name() != h.material) return std::nullopt;
    return h;
}

struct File {
    std::FILE* f;
    ~File() {
        if (f) std::fclose(f);
    }
};

}  // namespace

SweepState blank_sweep_state(uint64_t entries) {
    SweepState s;
    for (auto& codes : s.codes) codes = filled_entry_bytes(entries, state::NEVER_LOST);
    for (auto& words : s.exits.words) words.assign(EntryBits::words_for(entries), 0);
    return s;
}

void write_checkpoint(const std::filesystem::path& path, const Material& m, int slice, const SweepState* s,
                      const StoredSlices& solved, RankPart part) {
    assert(part.rank >= 0 && part.rank < part.ranks);
    Header h{};
    std::memcpy(h.magic, MAGIC, sizeof MAGIC);
    std::strncpy(h.material, m.name().c_str(), sizeof h.material - 1);
    h.slice = uint32_t(slice);
    h.rank = uint32_t(part.rank);
    h.ranks = uint32_t(part.ranks);
    if (s) {
        h.begun = 1;
        h.entries = s->codes[0].size();
        h.next_ply = s->next_ply;
        h.max_value = s->max_value;
        h.window = s->window;
        h.log_length = s->log_length;
        h.log_checksum = s->log_checksum;
    }
    h.slices_length = solved.length;
    h.slices_checksum = solved.checksum;
    uint64_t sum = checksum64(&h, offsetof(Header, checksum));
    std::vector<Bytes> pieces{Bytes(reinterpret_cast<const uint8_t*>(&h), sizeof h)};
    if (s) {
        for (const auto& codes : s->codes) {
            sum = checksum64(codes.data(), codes.size(), sum);
            pieces.emplace_back(codes.data(), codes.size());
        }
        for (const auto& words : s->exits.words) {
            assert(words.size() == EntryBits::words_for(h.entries));
            const auto* bytes = reinterpret_cast<const uint8_t*>(words.data());
            sum = checksum64(bytes, EntryBits::bytes_for(h.entries), sum);
            pieces.emplace_back(bytes, EntryBits::bytes_for(h.entries));
        }
    }
    h.checksum = sum;
    write_file_atomically(path, pieces);
}

std::optional<Checkpoint> read_checkpoint(const std::filesystem::path& path, const Material& m,
                                          RankPart part) {
    File in{std::fopen(path.c_str(), "rb")};
    if (!in.f) return std::nullopt;
    const std::optional<Header> header = read_header(in.f, m);
    if (!header) return std::nullopt;
    const Header& h = *header;
    if (h.begun > 1 || h.rank != uint32_t(part.rank) || h.ranks != uint32_t(part.ranks)) return std::nullopt;
    const auto entries = state_entries(m, h.slice, h.begun, part);
    if (!entries || h.entries != *entries || (!m.has_pawns() && (h.slices_length || h.slices_checksum)))
        return std::nullopt;
    // The counts must account for the file's size exactly before they size any allocation: a damaged
    // count could ask for any amount of memory.
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec || size != sizeof h + 2 * (h.entries + (h.begun ? EntryBits::bytes_for(h.entries) : 0)))
        return std::nullopt;

    Checkpoint c;
    c.part = part;
    c.slice = int(h.slice);
    c.solved = {h.slices_length, h.slices_checksum};
    if (h.begun) {
        SweepState s = blank_sweep_state(h.entries);
        s.next_ply = h.next_ply;
        s.max_value = h.max_value;
        s.window = h.window;
        s.log_length = h.log_length;
        s.log_checksum = h.log_checksum;
        c.state = std::move(s);
    }
    bool ok = true;
    uint64_t sum = checksum64(&h, offsetof(Header, checksum));
    const auto read_summed = [&](void* p, size_t n) {
        ok = ok && (n == 0 || std::fread(p, 1, n, in.f) == n);
        sum = checksum64(p, n, sum);
    };
    if (c.state) {
        for (auto& codes : c.state->codes) read_summed(codes.data(), codes.size());
        for (auto& words : c.state->exits.words) read_summed(words.data(), EntryBits::bytes_for(h.entries));
    }
    if (!ok || sum != h.checksum) return std::nullopt;
    return c;
}

std::optional<int> checkpoint_ranks(const std::filesystem::path& path, const Material& m) {
    File in{std::fopen(path.c_str(), "rb")};
    if (!in.f) return std::nullopt;
    const std::optional<Header> h = read_header(in.f, m);
    return h && h->ranks >= 1 ? std::optional(int(h->ranks)) : std::nullopt;
}

std::filesystem::path set_aside_checkpoint(const std::filesystem::path& path) {
    const std::filesystem::path damaged = damaged_checkpoint_path(path);
    std::error_code ec;
    std::filesystem::rename(path, damaged, ec);
    if (!ec) return damaged;
    std::filesystem::remove(path, ec);  // the next run must not meet it again
    return {};
}

}  // namespace retro
