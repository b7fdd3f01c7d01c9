// The layer sweeps of a table solved by several ranks (SolveOptions::ranks), each holding the state of
// a run of king pairs (index/rank_split.hpp). Per ply, each rank sweeps its own layer entries and
// applies the updates of the predecessors it holds at once (layer_sweep.hpp's OfferWin and
// CountDown); the others go into one batch per rank, exchanged when they reach a budget
// (exchange_budget) and when every rank has swept its layer, and each rank then applies what it
// received with the same steps. The updates of a ply commute, so the state after it
// is that of one process: a win is written once whoever offers it, a counter counts down
// atomically, and the loss written when one reaches zero depends only on the ply and the exits.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "ranks/ranks.hpp"
#include "solve/layer_log.hpp"
#include "solve/scheme_context.hpp"

namespace retro {

// What one rank sent to the others while a table was solved: its sweeps' updates, and a pawn table's
// solved slices, which every rank holds whole (their surveys rank 0 alone).
struct RankTraffic {
    uint64_t entries = 0;     // per side, of the schemes solved (the table's, or its slices')
    uint64_t held = 0;        // of them, those this rank held
    uint64_t updates = 0;     // predecessor updates this rank's layers gave
    uint64_t crossing = 0;    // of them, for entries another rank holds
    uint64_t bytes_sent = 0;  // 8 per crossing update: the index, the side in its top bit
    // Of the slices' values this rank sent to the others, once per rank, and of their surveys, which
    // it sent rank 0.
    uint64_t slice_bytes = 0;
};

// The updates a rank receives at most in a round of a ply's sweep, give or take the chunks in flight:
// each of the other ranks sends at most its share. At least `least`
// (SolveOptions::exchange_round_updates), and a 1/EXCHANGE_ROUNDS share of the entries of the rank
// holding the most of the scheme.
uint64_t exchange_budget(const IndexScheme& scheme, int ranks, uint64_t least);
// A rank's share of a round's budget: what it may send, the budget over the other ranks.
inline uint64_t exchange_share(uint64_t budget, int ranks) {
    return std::max<uint64_t>(1, budget / uint64_t(std::max(1, ranks - 1)));
}

// Sweeps layer n of both sides on every rank, exchanges the updates that cross and applies them;
// returns the entries of the layer on all ranks. Afterwards every rank knows the largest distance
// any has found.
uint64_t sweep_ply_on_ranks(SchemeContext& c, LayerLog& log, int n, Ranks& ranks, RankTraffic& traffic);

// Makes the largest distance found the same on every rank (the sweeps go on up to it).
void agree_on_longest(SchemeContext& c, Ranks& ranks);

// At rank 0: what every rank's updates sent, in all and per entry, the share of updates that crossed,
// and the solved slices' bytes sent ("2 ranks sent 10695544 bytes, 0.70 per entry and side (rank 0:
// ...); 1.2% of ... crossed ranks; slices handed on: ..."); empty elsewhere.
std::string traffic_text(Ranks& ranks, const RankTraffic& mine);

}  // namespace retro
