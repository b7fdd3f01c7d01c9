#include "solve/estimates.hpp"

#include <algorithm>
#include <cassert>

#include "index/index_scheme.hpp"
#include "index/pawn_slices.hpp"
#include "store/entry_bits.hpp"

namespace retro {

namespace {

uint64_t pawns(const Material& m) { return uint64_t(m.count(WHITE, PAWN) + m.count(BLACK, PAWN)); }

// The bits of `entries` entries of both sides that say which have exits.
uint64_t exits_bytes(uint64_t entries) { return 2 * EntryBits::bytes_for(entries); }

}  // namespace

uint64_t sweep_state_bytes(uint64_t entries) { return 2 * entries + exits_bytes(entries); }

uint64_t slices_at_once(const Material& m, int threads) {
    return solved_in_waves(m) ? uint64_t(std::max(threads, 1)) : 1;
}

uint64_t pushed_slices_bytes(const Material& m, int threads) {
    return 2 * pawns(m) * slice_entries(m) * slices_at_once(m, threads);
}

uint64_t promotions_in_part_bytes(const Material& m, int threads) {
    return 4 * pawns(m) * slice_entries(m) * slices_at_once(m, threads);
}

uint64_t wave_batch_bytes(const Material& m, int threads) {
    if (!solved_in_waves(m)) return 0;
    // A byte per entry and side of each slice solved.
    return 2 * slice_entries(m) * WAVE_BATCH_PER_THREAD * slices_at_once(m, threads);
}

uint64_t checkpoint_bytes(const Material& m, int ranks) {
    assert(ranks >= 1);
    const uint64_t headers = 4096 * uint64_t(ranks);
    if (!m.has_pawns()) return 4 * IndexScheme(m).size() + exits_bytes(IndexScheme(m).size()) + headers;
    return 4 * slice_entries(m) + exits_bytes(slice_entries(m)) + uint64_t(ranks) * IndexScheme(m).size() +
           headers;
}

}  // namespace retro
