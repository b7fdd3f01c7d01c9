#include "probe/verifier.hpp"

#include <tbb/blocked_range.h>

#include <atomic>
#include <mutex>

#include "chess/movegen.hpp"
#include "index/dependencies.hpp"
#include "index/legal_entries.hpp"
#include "parallel/parallel_for.hpp"

namespace retro {

namespace {

// Values of successor positions: this table's by direct lookup, the tables one capture or
// promotion away fetched once up front (no locking per probe), en passant rights via the probe.
class Successors {
public:
    Successors(const Table& table, const Tablebase& tables) : table_(table), tables_(tables) {
        for (const Material& sub : direct_subtables(table.material())) subtables_.push_back(tables.find(sub));
    }

    Dtm value(const Position& pos) const {
        if (pos.ep_square() != NO_SQUARE) return tables_.probe(pos);
        const Material m = Material::of(pos);
        if (m == table_.material()) return table_.value(pos);
        if (m.total() == 2) return DTM_DRAW;
        const Material canonical = m.canonical();
        for (const auto& t : subtables_)
            if (t && t->material() == canonical) return probe_table(*t, pos);
        throw MissingTableError("no table for " + canonical.name());
    }

    // The minimax value of a position from the values of its successors.
    Dtm expected(const Position& pos) const {
        MoveList moves;
        generate_legal_moves(pos, moves);
        if (moves.size == 0) return pos.in_check(pos.side_to_move()) ? 0 : DTM_DRAW;
        Dtm best = 0;  // checkmated: worse than any move
        for (const Move& m : moves) {
            const Dtm v = value_through(value(make_move(pos, m)));
            if (better(v, best)) best = v;
        }
        return best;
    }

private:
    const Table& table_;
    const Tablebase& tables_;
    std::vector<std::shared_ptr<const Table>> subtables_;
};

}  // namespace

VerifyResult verify_table(const Table& table, const Tablebase& tables) {
    std::atomic<uint64_t> checked{0};
    std::mutex mutex;
    uint64_t first_bad = UINT64_MAX;
    VerifyResult result;
    const Successors successors(table, tables);
    for (Color side : {WHITE, BLACK}) {
        par::parallel_for(tbb::blocked_range<uint64_t>(0, table.scheme.size(), 1 << 12), [&](const auto& r) {
            uint64_t n = 0;
            for_each_legal_entry(table.scheme, side, r.begin(), r.end(),
                                 [&](uint64_t i, const Placement&, const Position& pos) {
                                     ++n;
                                     const Dtm stored = table.value(side, i),
                                               expected = successors.expected(pos);
                                     if (stored == expected) return;
                                     std::lock_guard lock(mutex);
                                     const uint64_t key = i * 2 + side;
                                     if (key < first_bad) {
                                         first_bad = key;
                                         result.mismatch = pos.fen() + ": stored " + describe(stored) +
                                                           ", moves give " + describe(expected);
                                     }
                                 });
            checked += n;
        });
    }
    result.checked = checked;
    return result;
}

}  // namespace retro
