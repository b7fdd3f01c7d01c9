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

CostModel::CostModel(std::span<const ReferenceRate> rates, double growth, double speed, int threads)
    : rates_(rates.begin(), rates.end()), growth_(growth), speed_(speed), threads_(threads) {
    assert(growth > 0 && speed > 0 && threads > 0);
    std::ranges::sort(rates_, [](const ReferenceRate& a, const ReferenceRate& b) { return a.men < b.men; });
}

EntryCost CostModel::reference_cost(TableKind kind, int men) const {
    const ReferenceRate* nearest = nullptr;  // the most men measured up to `men`, or the fewest
    for (const ReferenceRate& r : rates_)
        if (r.kind == kind && (!nearest || r.men <= men)) nearest = &r;
    assert(nearest);  // every kind is measured
    const double grown = std::pow(growth_, std::max(0, men - nearest->men));
    return {nearest->cost.solve * grown, nearest->cost.write * grown};
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
    for (int run = 0; run < 9; ++run)
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
    return CostModel(REFERENCE_RATES, REFERENCE_GROWTH_PER_MAN,
                     calibration_seconds() / REFERENCE_CALIBRATION_SECONDS, std::min(threads, cores));
}

}  // namespace retro
