// Encode and decode throughput of the perfect index, a layer's entries decoded or stepped, the first
// pass's look at a board (its attacks and the summary of its moves), and the un-moves of an entry with
// their indices (the sweeps' inner loop: once per decided entry).
//
//   index_bench                               all materials
//   index_bench --benchmark_filter=KRPvKR     one material
#include <benchmark/benchmark.h>

#include <algorithm>
#include <optional>
#include <random>
#include <vector>

#include "chess/movegen.hpp"
#include "index/board_walk.hpp"
#include "index/legal_entries.hpp"
#include "solve/neighbours.hpp"

using namespace retro;

namespace {

constexpr const char* MATERIALS[] = {"KQvK", "KQvKR", "KRPvKR", "KRBvKR", "KQRvKQ"};
constexpr size_t SAMPLES = 1 << 16;

// Random legal positions over the whole board (not canonical: encode has to find the symmetry).
std::vector<Position> random_positions(const Material& m, size_t n) {
    std::mt19937_64 rng(12345);
    std::vector<Position> out;
    while (out.size() < n) {
        Position pos;
        pos.set_side_to_move(Color(rng() & 1));
        bool ok = true;
        for (Color c : {WHITE, BLACK})
            for (int t = KING; t <= PAWN && ok; ++t)
                for (int i = 0; i < (t == KING ? 1 : m.count(c, PieceType(t))) && ok; ++i) {
                    const Square s = Square(rng() % 64);
                    ok = !(pos.occupied() & square_bb(s)) && (t != PAWN || (square_bb(s) & PAWN_RANKS));
                    pos.put({c, PieceType(t)}, s);
                }
        if (ok && pos.illegality().empty()) out.push_back(pos);
    }
    return out;
}

void encode(benchmark::State& state, const Material& m) {
    const IndexScheme scheme(m);
    const auto positions = random_positions(m, SAMPLES);
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(scheme.encode(positions[i]));
        i = (i + 1) & (SAMPLES - 1);
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}

void decode_sequential(benchmark::State& state, const Material& m) {
    const IndexScheme scheme(m);
    Position pos;
    uint64_t idx = scheme.size() / 3;
    for (auto _ : state) {
        benchmark::DoNotOptimize(scheme.decode(idx, pos));
        benchmark::DoNotOptimize(pos);
        if (++idx == scheme.size()) idx = 0;
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}

void decode_random(benchmark::State& state, const Material& m) {
    const IndexScheme scheme(m);
    std::mt19937_64 rng(54321);
    std::vector<uint64_t> indices(SAMPLES);
    for (auto& x : indices) x = rng() % scheme.size();
    Position pos;
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(scheme.decode(indices[i], pos));
        benchmark::DoNotOptimize(pos);
        i = (i + 1) & (SAMPLES - 1);
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}

// How a walk over a layer's entries places each one: decoded, or stepped from the one before when only
// the fastest man moved (IndexScheme::place_after), as the layer sweeps do.
enum class Placing { Decoded, Stepped };

// The entries of a layer, in index order a random 1-32 apart, placed into a position (per entry).
void layer_walk(benchmark::State& state, const Material& m, Placing placing) {
    const IndexScheme scheme(m);
    std::mt19937_64 rng(2027);
    std::vector<uint64_t> layer;
    for (uint64_t idx = scheme.size() / 3; layer.size() < SAMPLES && idx < scheme.size();
         idx += 1 + rng() % 32)
        if (Placement p; scheme.decode(idx, p)) layer.push_back(idx);
    Placement p;
    scheme.decode(layer[0], p);
    Position pos = scheme.to_position(p);
    size_t i = 1;
    for (auto _ : state) {
        if (placing == Placing::Stepped) {
            scheme.place_after(layer[i - 1], layer[i], p, pos);
        } else {
            scheme.decode(layer[i], p);
            pos = scheme.to_position(p);
        }
        benchmark::DoNotOptimize(pos);
        if (++i == layer.size()) {
            i = 1;
            scheme.decode(layer[0], p);
            pos = scheme.to_position(p);
        }
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}

// The cursor's step to the next entry, as the solver's full sweeps walk the index.
void cursor_next(benchmark::State& state, const Material& m) {
    const IndexScheme scheme(m);
    std::optional<IndexCursor> cursor(std::in_place, scheme, scheme.size() / 3);
    for (auto _ : state) {
        cursor->next();
        if (cursor->index() == scheme.size()) cursor.emplace(scheme, 0);
        benchmark::DoNotOptimize(cursor->placement());
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}

// The walk over legal entries (cursor, position, legality test), per entry walked.
void legal_walk(benchmark::State& state, const Material& m) {
    const IndexScheme scheme(m);
    constexpr uint64_t SPAN = 1 << 16;
    uint64_t first = scheme.size() / 3, legal = 0;
    for (auto _ : state) {
        const uint64_t last = std::min(scheme.size(), first + SPAN);
        for_each_legal_entry(scheme, WHITE, first, last,
                             [&](uint64_t, const Placement&, const Position&) { ++legal; });
        first = last == scheme.size() ? 0 : last;
    }
    benchmark::DoNotOptimize(legal);
    state.SetItemsProcessed(int64_t(state.iterations() * SPAN));
}

// The predecessors of legal entries of either side to move, as a layer sweep finds them
// (solve/neighbours.hpp): the un-moves of the kings and pieces of the side that moved, and the
// distinct index each reaches (per entry).
void predecessors(benchmark::State& state, const Material& m) {
    const IndexScheme scheme(m);
    std::mt19937_64 rng(2026);
    std::vector<Entry> entries;
    while (entries.size() < SAMPLES) {
        Entry e{rng() % scheme.size(), false, {}, {}};
        e.pos.set_side_to_move(Color(entries.size() & 1));
        if (!scheme.decode(e.index, e.placement) || !scheme.decode(e.index, e.pos) ||
            !e.pos.illegality().empty())
            continue;
        e.diagonal = scheme.kings_on_diagonal(e.placement);
        entries.push_back(e);
    }
    size_t i = 0;
    uint64_t sum = 0, found = 0;
    IndexList list;
    for (auto _ : state) {
        retro::predecessors(scheme, entries[i], list);
        for (int j = 0; j < list.size; ++j) sum += list.items[j];
        found += uint64_t(list.size);
        i = (i + 1) & (SAMPLES - 1);
    }
    benchmark::DoNotOptimize(sum);
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["predecessors_per_entry"] = double(found) / double(state.iterations());
}

// A board's attacks, looked up once per entry by the first pass for both sides to move (per board).
void attacks(benchmark::State& state, const Material& m) {
    const auto positions = random_positions(m, SAMPLES);
    size_t i = 0;
    for (auto _ : state) {
        const BoardAttacks a(positions[i]);
        benchmark::DoNotOptimize(a);
        i = (i + 1) & (SAMPLES - 1);
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}

// The boards the first pass walks, consecutive entries in index order with their attacks: each
// placed whole, or the run's board less its fastest man kept (BoardWalk), per valid entry.
void first_pass_boards(benchmark::State& state, const Material& m, Placing placing) {
    const IndexScheme scheme(m);
    std::optional<IndexCursor> cursor(std::in_place, scheme, scheme.size() / 3);
    std::optional<BoardWalk> walk(std::in_place, scheme);  // a walk keeps to one cursor
    Bitboard checkers = 0;
    for (auto _ : state) {
        do {
            cursor->next();
            if (cursor->index() == scheme.size()) {
                cursor.emplace(scheme, 0);
                walk.emplace(scheme);
            }
        } while (!cursor->valid());
        if (placing == Placing::Stepped) {
            walk->place(*cursor);
            checkers |= walk->attacks().checkers(WHITE);
        } else {
            const Position pos = scheme.to_position(cursor->placement());
            const BoardAttacks a(pos);
            checkers |= a.checkers(WHITE);
        }
    }
    benchmark::DoNotOptimize(checkers);
    state.SetItemsProcessed(int64_t(state.iterations()));
}

// The first pass's look at a board: its attacks, and the summary of the moves of each side that may
// be to move (per board).
void move_summaries(benchmark::State& state, const Material& m) {
    auto positions = random_positions(m, SAMPLES);
    size_t i = 0;
    int moves = 0;
    for (auto _ : state) {
        Position& pos = positions[i];
        const BoardAttacks a(pos);
        for (Color side : {WHITE, BLACK}) {
            if (a.in_check(~side)) continue;
            pos.set_side_to_move(side);
            MoveSummary summary;
            if (summarize_legal_moves(pos, a, summary)) moves += summary.quiet_moves() + summary.exits.size;
        }
        i = (i + 1) & (SAMPLES - 1);
    }
    benchmark::DoNotOptimize(moves);
    state.SetItemsProcessed(int64_t(state.iterations()));
}

const bool REGISTERED = [] {
    for (const char* name : MATERIALS) {
        const Material m = Material::parse(name);
        benchmark::RegisterBenchmark((std::string("Encode/") + name).c_str(), encode, m);
        benchmark::RegisterBenchmark((std::string("DecodeSequential/") + name).c_str(), decode_sequential, m);
        benchmark::RegisterBenchmark((std::string("DecodeRandom/") + name).c_str(), decode_random, m);
        benchmark::RegisterBenchmark((std::string("LayerDecoded/") + name).c_str(), layer_walk, m,
                                     Placing::Decoded);
        benchmark::RegisterBenchmark((std::string("LayerStepped/") + name).c_str(), layer_walk, m,
                                     Placing::Stepped);
        benchmark::RegisterBenchmark((std::string("CursorNext/") + name).c_str(), cursor_next, m);
        benchmark::RegisterBenchmark((std::string("LegalWalk/") + name).c_str(), legal_walk, m);
        benchmark::RegisterBenchmark((std::string("Predecessors/") + name).c_str(), predecessors, m);
        benchmark::RegisterBenchmark((std::string("Attacks/") + name).c_str(), attacks, m);
        benchmark::RegisterBenchmark((std::string("FirstPassBoardsWhole/") + name).c_str(), first_pass_boards,
                                     m, Placing::Decoded);
        benchmark::RegisterBenchmark((std::string("FirstPassBoardsStepped/") + name).c_str(),
                                     first_pass_boards, m, Placing::Stepped);
        benchmark::RegisterBenchmark((std::string("MoveSummaries/") + name).c_str(), move_summaries, m);
    }
    return true;
}();

}  // namespace
