#include "solve/ranked_sweep.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <vector>

#include "solve/layer_sweep.hpp"
#include "solve/solver.hpp"

namespace retro {

namespace {

// An update record: the predecessor's index, its side to move in the top bit (indices stay below 2^48).
constexpr uint64_t BLACK_BIT = uint64_t(1) << 63;

// The updates a thread adds to the count of those held for other ranks at a time: counting each one
// would make the threads contend for the count.
constexpr uint64_t HELD_COUNT_STEP = 1024;

// What one thread's share of the sweeps found for other ranks, one batch per rank.
struct Outbox {
    std::vector<std::vector<uint64_t>> to;
    uint64_t updates = 0;
    uint64_t uncounted = 0;  // held for other ranks, not yet added to the round's count
};

// Sends the updates the threads' outboxes hold to the ranks holding their entries (freeing the
// outboxes), and applies those the others sent.
template <class Update>
void exchange_updates(tbb::enumerable_thread_specific<Outbox>& outboxes, Ranks& ranks, const Update& update,
                      RankTraffic& traffic) {
    std::vector<std::vector<uint64_t>> outgoing(size_t(ranks.size()));
    for (size_t r = 0; r < outgoing.size(); ++r) {  // reserved whole: grown by doubling, it might hold twice
        size_t batch = 0;
        for (const Outbox& box : outboxes) batch += box.to[r].size();
        outgoing[r].reserve(batch);
    }
    for (Outbox& box : outboxes) {
        traffic.updates += box.updates;
        box.updates = 0;
        box.uncounted = 0;
        for (size_t r = 0; r < box.to.size(); ++r) {
            traffic.crossing += box.to[r].size();
            outgoing[r].insert(outgoing[r].end(), box.to[r].begin(), box.to[r].end());
            box.to[r] = std::vector<uint64_t>();  // freed: `= {}` would only clear it
        }
    }
    for (const auto& batch : outgoing) traffic.bytes_sent += batch.size() * sizeof(uint64_t);
    const std::vector<uint64_t> received = ranks.exchange(outgoing);
    outgoing = std::vector<std::vector<uint64_t>>();
    par::parallel_for(tbb::blocked_range<size_t>(0, received.size(), GRAIN), [&](const auto& r) {
        for (size_t k = r.begin(); k < r.end(); ++k)
            update(received[k] & BLACK_BIT ? BLACK : WHITE, received[k] & ~BLACK_BIT);
    });
}

template <class Update>
uint64_t sweep_and_exchange(SchemeContext& c, LayerLog& log, int n, Ranks& ranks, const Update& update,
                            RankTraffic& traffic) {
    const std::vector<IndexRange> ranges = king_pair_ranges(c.scheme, ranks.size());
    tbb::enumerable_thread_specific<Outbox> outboxes([&] {
        return Outbox{std::vector<std::vector<uint64_t>>(size_t(ranks.size())), 0, 0};
    });
    std::atomic<uint64_t> held{0};  // of the round's updates for other ranks, give or take a step a thread
    const auto routed = [&](Color side, uint64_t p) {
        Outbox& box = outboxes.local();
        ++box.updates;
        if (c.owned.contains(p)) return update(side, p);
        box.to[size_t(rank_holding(ranges, p))].push_back(p | (side == BLACK ? BLACK_BIT : 0));
        if (++box.uncounted == HELD_COUNT_STEP) {
            held.fetch_add(HELD_COUNT_STEP, std::memory_order_relaxed);
            box.uncounted = 0;
        }
    };
    // A round sweeps this rank's layer on, a side after the other, until the updates it holds for the
    // others reach its share of the budget (so that a rank receives at most the budget, whoever sends
    // it), then every rank exchanges; the rounds go on until every rank has swept its layer. The
    // updates of a ply commute, so applying another rank's between rounds changes nothing: none makes
    // an entry of layer n.
    const uint64_t share = exchange_share(
        exchange_budget(c.scheme, ranks.size(), c.options.exchange_round_updates), ranks.size());
    const auto within_budget = [&] { return held.load(std::memory_order_relaxed) < share; };
    std::vector<Color> sides;
    for (Color side : {WHITE, BLACK})
        if (may_hold_layer(c, side, n)) sides.push_back(side);
    const uint64_t chunks = layer_chunks(c);
    size_t sweeping = 0;  // of `sides`
    uint64_t chunk = 0, found = 0;
    for (bool everywhere_swept = false; !everywhere_swept;) {
        held.store(0, std::memory_order_relaxed);
        while (sweeping < sides.size() && within_budget()) {
            const SweptChunks swept =
                sweep_layer_chunks(c, log, sides[sweeping], n, routed, chunk, chunks, within_budget);
            found += swept.found;
            chunk = swept.next;
            if (chunk == chunks) ++sweeping, chunk = 0;
        }
        exchange_updates(outboxes, ranks, update, traffic);
        everywhere_swept = ranks.max(sweeping < sides.size()) == 0;
    }
    agree_on_longest(c, ranks);
    return ranks.sum(found);
}

}  // namespace

uint64_t exchange_budget(const IndexScheme& scheme, int ranks, uint64_t least) {
    return std::max(least, (largest_rank_entries(scheme, ranks) + EXCHANGE_ROUNDS - 1) / EXCHANGE_ROUNDS);
}

uint64_t sweep_ply_on_ranks(SchemeContext& c, LayerLog& log, int n, Ranks& ranks, RankTraffic& traffic) {
    return n % 2 ? sweep_and_exchange(c, log, n, ranks, CountDown{c, n}, traffic)
                 : sweep_and_exchange(c, log, n, ranks, OfferWin{c, n}, traffic);
}

void agree_on_longest(SchemeContext& c, Ranks& ranks) {
    c.max_value = int(ranks.max(uint64_t(c.max_value.load())));
}

std::string traffic_text(Ranks& ranks, const RankTraffic& mine) {
    const std::vector<uint64_t> sent = gather_values(ranks, mine.bytes_sent),
                                own = gather_values(ranks, mine.held);
    const uint64_t updates = ranks.sum(mine.updates), crossing = ranks.sum(mine.crossing),
                   slice_bytes = ranks.sum(mine.slice_bytes);
    if (!ranks.leads()) return {};
    uint64_t total = 0;
    for (uint64_t s : sent) total += s;
    const auto per_entry = [](uint64_t bytes, uint64_t entries) {
        char text[32];
        std::snprintf(text, sizeof text, "%.3f", entries ? double(bytes) / double(entries) : 0.0);
        return std::string(text);
    };
    std::string s = std::to_string(ranks.size()) + " ranks sent " + std::to_string(total) + " bytes, " +
                    per_entry(total, 2 * mine.entries) + " per entry and side (";
    for (size_t r = 0; r < sent.size(); ++r)
        s += (r ? "; rank " : "rank ") + std::to_string(r) + ": " + std::to_string(sent[r]) + ", " +
             per_entry(sent[r], 2 * own[r]) + " per entry of its own";
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", updates ? 100.0 * double(crossing) / double(updates) : 0.0);
    s += "); " + std::string(share) + " of " + std::to_string(updates) + " predecessor updates crossed ranks";
    if (slice_bytes) s += "; solved slices sent: " + std::to_string(slice_bytes) + " bytes";
    return s;
}

}  // namespace retro
