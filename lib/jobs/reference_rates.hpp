// The cost model's measurements (jobs/cost_model.hpp), on the reference machine: the development
// machine (2 cores, AMD EPYC; docs/benchmarks.md), 2026-12-02, load average 10-16 (other builds and
// jobs; CPU time, not wall time, so the load changes them little).
//
// REFERENCE_RATES: CPU seconds per index entry (both sides to move) of tables built by `tbgen -t 2`
// with their sub-tables in place, each kind summed over its tables: KQvKR and KRvKN, KRvKP and KPvKP
// (in memory, and the lean way with --cache 1K, the leanest: a larger cache costs less), KRBvKR and
// KQRvKN. REFERENCE_CALIBRATION_SECONDS: calibration_seconds() then. Both measured by
// `scripts/measure-rates.py --dir /tmp/rates`, which prints these lines; a change to the solver's or
// the writer's speed calls for it. Its KRPvKR did not finish within the session's time at that
// load: the 5-man pawn tables in memory are KRBvKR's rates times KRPvKR's over KRBvKR's, solve and
// write, measured here on a quiet day (docs/benchmarks.md: 92.7 s against 19.7 s to solve, 48 s
// for KRPvKN against 4.7 s to write, per entry: 1.56 and 3.38).
//
// REFERENCE_GROWTH_PER_MAN: no 6-man table fits the measurement's time. KNNNvKN and KRNvKNN, built
// here earlier (docs/benchmarks.md, six men), cost about 610 ns of CPU per entry, solve and write
// (from their times on 2 threads), against 550 for the 5-man pawnless tables above.
#pragma once

#include "jobs/cost_model.hpp"

namespace retro {

inline constexpr double REFERENCE_CALIBRATION_SECONDS = 0.035;
inline constexpr double REFERENCE_GROWTH_PER_MAN = 1.1;
inline constexpr ReferenceRate REFERENCE_RATES[] = {
    {TableKind::Pawnless, 4, {3.748e-07, 8.568e-07}},
    {TableKind::Pawnless, 5, {4.000e-07, 1.435e-07}},
    {TableKind::PawnsInMemory, 4, {5.408e-07, 5.220e-07}},
    {TableKind::PawnsInMemory, 5, {4.123e-07, 3.194e-07}},
    {TableKind::PawnsLean, 4, {2.958e-06, 5.882e-07}},
};

}  // namespace retro
