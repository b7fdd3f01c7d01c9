#include "jobs/cost_model.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <ctime>
#include <thread>

#include "jobs/reference_rates.hpp"
#include "jobs/threads.hpp"
#include "probe/tablebase.hpp"
#include "solve/solver.hpp"

namespace retro {

TableKind table_kind(const Material& m, const MemoryPlan& memory) {
    if (!m.has_pawns()) return TableKind::Pawnless;
    return memory.slices_on_disk || memory.promotions_in_part ? TableKind::PawnsLean
                                                              : TableKind::PawnsInMemory;
}

const char* kind_name(TableKind kind) {
    switch (kind) {
        case TableKind::Pawnless:
            return "pawnless";
        case TableKind::PawnsInMemory:
            return "pawns in memory";
        case TableKind::PawnsLean:
            return "pawns the lean way";
    }
    return "?";
}

CostModel::CostModel(std::span<const ReferenceRate> rates, double speed, int threads)
    : rates_(rates.begin(), rates.end()), speed_(speed), threads_(threads) {
    assert(speed > 0 && threads > 0);
    std::ranges::sort(rates_, [](const ReferenceRate& a, const ReferenceRate& b) { return a.men < b.men; });
}

EntryCost CostModel::reference_cost(TableKind kind, int men) const {
    const ReferenceRate *below = nullptr, *largest = nullptr, *second = nullptr, *smallest = nullptr;
    for (const ReferenceRate& r : rates_) {
        if (r.kind != kind) continue;
        if (r.men == men) return r.cost;
        if (!smallest) smallest = &r;
        if (r.men < men) below = &r;
        second = largest, largest = &r;
    }
    assert(smallest);  // every kind is measured
    if (men < smallest->men) return smallest->cost;
    if (largest->men > men || !second) return below->cost;
    const double per_man = 1.0 / (largest->men - second->men), past = men - largest->men;
    const auto grown = [&](double last, double before) {
        return last * std::pow(last / before, per_man * past);
    };
    return {grown(largest->cost.solve, second->cost.solve), grown(largest->cost.write, second->cost.write)};
}

double CostModel::seconds(TableKind kind, int men, uint64_t entries) const {
    return reference_cost(kind, men).total() * double(entries) * speed_ / threads_;
}

namespace {

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// The least CPU time of several one-thread solves of the calibration's tables.
double measure_calibration() {
    const Tablebase none;
    double least = INFINITY;
    for (int run = 0; run < 5; ++run)
        with_threads(1, [&] {
            const double start = thread_cpu_seconds();
            for (const char* name : {"KQvK", "KRvK"}) solve_in_memory(Material::parse(name), none);
            least = std::min(least, thread_cpu_seconds() - start);
        });
    return least;
}

}  // namespace

double calibration_seconds() {
    static const double seconds = measure_calibration();
    return seconds;
}

CostModel machine_cost_model(int threads) {
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    return CostModel(REFERENCE_RATES, calibration_seconds() / REFERENCE_CALIBRATION_SECONDS,
                     std::min(threads, cores));
}

}  // namespace retro
