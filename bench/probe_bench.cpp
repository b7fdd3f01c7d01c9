// Probe throughput on KQvKR (solved in-process at start-up, about 1.5 s): random legal positions,
// either orientation and side to move, probed repeatedly (hot: the table is in memory).
//
//   probe_bench                                   all
//   probe_bench --benchmark_filter=Probe/         value lookups only
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "probe/line.hpp"
#include "solve/solver.hpp"

using namespace retro;

namespace {

const Tablebase& tables() {
    static const auto tb = [] {
        auto t = std::make_unique<Tablebase>();
        for (const char* m : {"KQvK", "KRvK", "KQvKR"}) t->add(solve(Material::parse(m), *t));
        return t;
    }();
    return *tb;
}

// Random legal KQvKR positions over the whole board, half of them colour-swapped (KRvKQ).
const std::vector<Position>& positions() {
    static const auto out = [] {
        std::mt19937_64 rng(12345);
        std::vector<Position> v;
        const PieceType men[] = {KING, QUEEN, KING, ROOK};
        const Color colors[] = {WHITE, WHITE, BLACK, BLACK};
        while (v.size() < (1 << 16)) {
            Position pos;
            pos.set_side_to_move(Color(rng() & 1));
            const bool swap = rng() & 1;
            bool ok = true;
            for (int i = 0; i < 4 && ok; ++i) {
                const Square s = Square(rng() % 64);
                ok = !(pos.occupied() & square_bb(s));
                pos.put({swap ? ~colors[i] : colors[i], men[i]}, s);
            }
            if (ok && pos.illegality().empty()) v.push_back(pos);
        }
        return v;
    }();
    return out;
}

void Probe(benchmark::State& state) {
    const Tablebase& tb = tables();
    const auto& pos = positions();
    size_t i = 0;
    unsigned sum = 0;
    for (auto _ : state) {
        sum += tb.probe(pos[i++ & (pos.size() - 1)]);
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(Probe)->ThreadRange(1, 2)->UseRealTime();

void BestMove(benchmark::State& state) {
    const Tablebase& tb = tables();
    const auto& pos = positions();
    size_t i = 0;
    for (auto _ : state) {
        auto best = best_move(tb, pos[i++ & (pos.size() - 1)]);
        benchmark::DoNotOptimize(best);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BestMove);

}  // namespace
