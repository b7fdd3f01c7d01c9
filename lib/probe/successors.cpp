#include "probe/successors.hpp"

#include <tbb/blocked_range.h>

#include <cassert>
#include <mutex>

#include "index/dependencies.hpp"
#include "index/legal_entries.hpp"
#include "parallel/parallel_for.hpp"
#include "probe/one_ply.hpp"
#include "solve/run_exits.hpp"
#include "store/store_error.hpp"

namespace retro {

Successors::Successors(const Table& table, const Tablebase& tables, SideSet movers)
    : table_(table), tables_(tables) {
    for (const auto& [sub, sides] : direct_subtable_sides(table.material(), movers)) {
        const std::shared_ptr<const Table> found = tables.find(sub, sides);
        if (!found) continue;
        const Material& stored = found->material();
        const Material swapped = stored.color_swapped();
        reached_.push_back({stored, found, false});
        if (swapped != stored) reached_.push_back({swapped, found, true});
    }
}

Dtm Successors::value(const Position& pos) const {
    if (pos.ep_square() != NO_SQUARE) return tables_.probe(pos);
    const Material m = Material::of(pos);
    if (m == table_.material()) return table_.value(pos);
    if (m.total() == 2) return DTM_DRAW;
    // Matched against both colourings of each sub-table: a capture needs no canonical material.
    for (const Reached& r : reached_)
        if (r.material == m) return r.flipped ? r.table->value(pos.color_flipped()) : r.table->value(pos);
    throw MissingTableError("no table for " + m.canonical().name());
}

Dtm Successors::expected(const Position& pos) const {
    return one_ply_value_of_exact_moves(pos, [&](const Move& m) {
        const Position next = make_move(pos, m);
        // A quiet move keeps the material: the table's own value, unless it gives an en passant right.
        if (!captures_or_promotes(m) && next.ep_square() == NO_SQUARE) return table_.value(next);
        return value(next);
    });
}

Dtm Successors::expected(uint64_t index, const Placement& p, const Position& pos,
                         const BoardAttacks& attacks) const {
    const IndexScheme& scheme = table_.scheme;
    const Color next = ~pos.side_to_move();
    MoveSummary moves;
    if (!summarize_legal_moves(pos, attacks, moves)) list_legal_moves(pos, moves);
    if (moves.quiet_moves() + moves.exits.size == 0)
        return attacks.in_check(pos.side_to_move()) ? 0 : DTM_DRAW;
    Dtm best = 0;  // checkmated: worse than any move
    const auto take = [&best](Dtm reached) {
        if (const Dtm v = value_through(reached); better(v, best)) best = v;
    };
    const auto take_moved = [&](Square from, Bitboard targets) {
        scheme.for_each_moved(index, p, p.slot_of(from, scheme.men()), targets,
                              [&](uint64_t reached, bool) { take(table_.value(next, reached)); });
    };
    // The summary's exits are captures, promotions and pawn pushes. Captures and promotions leave the
    // table; a double push may give an en passant right; a single push stays in the table.
    for (const Move& m : moves.exits)
        if (captures_or_promotes(m) || is_double_push(m))
            take(value(make_move(pos, m)));
        else
            take_moved(m.from, square_bb(m.to));
    for (int k = 0; k < moves.pieces; ++k)
        take_moved(moves.piece_targets[size_t(k)].from, moves.piece_targets[size_t(k)].to);
    take_moved(pos.king(pos.side_to_move()), moves.king_targets);
    return best;
}

namespace {

// Sets every legal entry of `side` to the value values_of(first, last, set) gives it by set(index,
// value), in parallel over ranges [first, last) of the index. The values of `side` are read only for
// the entry being replaced. A raised `stop` ends it within a range of entries, throwing Stopped and
// leaving the table as it was.
template <class ValuesOf>
void recompute_side(Table& table, Color side, const std::atomic<bool>* stop, ValuesOf&& values_of) {
    EntryBytes bytes = filled_entry_bytes(table.size(), Table::DRAW_BYTE);
    std::vector<Table::LongValue> longs;
    std::mutex longs_mutex;
    ReadStop stopping(stop);
    par::parallel_for(tbb::blocked_range<uint64_t>(0, table.size(), 1 << 12), [&](const auto& r) {
        if (stopping.skip()) return;
        std::vector<Table::LongValue> found;
        values_of(r.begin(), r.end(), [&](uint64_t i, Dtm v) {
            bytes[i] = Table::byte_of(v);
            if (bytes[i] == Table::LONG_BYTE) found.push_back({i, v});
        });
        if (found.empty()) return;
        std::lock_guard lock(longs_mutex);
        longs.insert(longs.end(), found.begin(), found.end());
    });
    stopping.throw_if_skipped(table.material().name());
    table.replace_side(side, std::move(bytes), std::move(longs));  // sorts the long values
}

}  // namespace

void rebuild_side(Table& table, Color side, const Tablebase& tables, const std::atomic<bool>* stop) {
    const Successors successors(table, tables, side_bit(side));
    recompute_side(table, side, stop, [&](uint64_t first, uint64_t last, const auto& set) {
        // The attacks of the board tell both the entry's legality and its moves.
        for_each_entry_in_runs(table.scheme, side, first, last,
                               [&](uint64_t i, const Placement& p, const Position& pos, Walked) {
                                   const BoardAttacks attacks(pos);
                                   if (!attacks.in_check(~side))
                                       set(i, successors.expected(i, p, pos, attacks));
                               });
    });
}

void apply_exits(Table& table, Color side, const Tablebase& tables, const std::atomic<bool>* stop) {
    const ExitProbe exits(table.scheme, tables, {}, {}, side_bit(side));
    recompute_side(table, side, stop, [&](uint64_t first, uint64_t last, const auto& set) {
        for_each_legal_entry_and_exits(
            exits, table.scheme, side, first, last,
            [&](uint64_t i, const Placement&, const Position&, const MoveList& moves, const auto& value_of) {
                set(i, with_exit_values(moves, table.value(side, i), value_of));
            });
    });
}

}  // namespace retro
