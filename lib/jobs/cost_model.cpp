#include "jobs/cost_model.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <ctime>
#include <thread>
#include <vector>

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

// Up to `most` of the cores this process may run on, spread over them (none when unknown).
std::vector<int> sampled_cores(size_t most) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    std::vector<int> cores;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return cores;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &allowed)) cores.push_back(c);
    const size_t n = std::min(most, cores.size());
    std::vector<int> sampled;
    for (size_t k = 0; k < n; ++k) sampled.push_back(cores[k * cores.size() / n]);
    return sampled;
}

// The least CPU time of several one-thread solves of the calibration's tables.
double least_solve_seconds(int runs) {
    const Tablebase none;
    double least = INFINITY;
    for (int run = 0; run < runs; ++run)
        with_threads(1, [&] {  // an arena of one: the solve runs on the calling thread
            const double start = thread_cpu_seconds();
            for (const char* name : {"KQvK", "KRvK"}) solve_in_memory(Material::parse(name), none);
            least = std::min(least, thread_cpu_seconds() - start);
        });
    return least;
}

// The calibration's least time on each of a few cores, averaged: a job's threads run on all of
// them, and the cores of a virtual machine may run at different speeds as the host's load moves.
double measure_calibration() {
    constexpr int RUNS_PER_CORE = 5;
    const std::vector<int> cores = sampled_cores(8);
    cpu_set_t before;
    if (cores.empty() || pthread_getaffinity_np(pthread_self(), sizeof before, &before) != 0)
        return least_solve_seconds(RUNS_PER_CORE);
    double sum = 0;
    for (int core : cores) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(core, &one);
        pthread_setaffinity_np(pthread_self(), sizeof one, &one);
        sum += least_solve_seconds(RUNS_PER_CORE);
    }
    pthread_setaffinity_np(pthread_self(), sizeof before, &before);
    return sum / double(cores.size());
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
