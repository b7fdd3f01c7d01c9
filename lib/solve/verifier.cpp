#include "solve/verifier.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <mutex>

#include "chess/movegen.hpp"

namespace retro {

namespace {

// The minimax value of a position from the values of its successors.
Dtm expected_value(const Position& pos, const Tablebase& tables) {
    MoveList moves;
    generate_legal_moves(pos, moves);
    if (moves.size == 0) return pos.in_check(pos.side_to_move()) ? 0 : DTM_DRAW;
    Dtm best = 0;
    int best_preference = -100000;
    for (const Move& m : moves) {
        const Dtm v = value_through(tables.probe(make_move(pos, m)));
        if (preference(v) > best_preference) best_preference = preference(v), best = v;
    }
    return best;
}

}  // namespace

VerifyResult verify_table(const Table& table, const Tablebase& tables) {
    std::atomic<uint64_t> checked{0};
    std::mutex mutex;
    uint64_t first_bad = UINT64_MAX;
    VerifyResult result;
    for (Color side : {WHITE, BLACK}) {
        tbb::parallel_for(tbb::blocked_range<uint64_t>(0, table.scheme.size(), 1 << 12), [&](const auto& r) {
            uint64_t n = 0;
            Position pos;
            for (uint64_t i = r.begin(); i < r.end(); ++i) {
                if (!table.scheme.decode(i, pos)) continue;
                pos.set_side_to_move(side);
                if (!pos.illegality().empty()) continue;
                ++n;
                const Dtm stored = table.values[side][i], expected = expected_value(pos, tables);
                if (stored == expected) continue;
                std::lock_guard lock(mutex);
                const uint64_t key = i * 2 + side;
                if (key < first_bad) {
                    first_bad = key;
                    result.mismatch = pos.fen() + ": stored " + describe(stored) + ", moves give " + describe(expected);
                }
            }
            checked += n;
        });
    }
    result.checked = checked;
    return result;
}

}  // namespace retro
