// The cost model's measurements (jobs/cost_model.hpp), on the reference machine: the development
// machine (2 cores, AMD EPYC; docs/benchmarks.md#projected-time), nothing else running.
//
// REFERENCE_RATES: CPU seconds per index entry (both sides to move) of tables built by `tbgen -t 2`
// with their sub-tables in place, each kind summed over its tables: KQvKR and KRvKN, KRBvKR and
// KQRvKN; KRvKP, KPvKP and KRPvKR in memory, and the lean way with --cache 1K (the leanest: a larger
// cache costs less) over self-contained promoted tables, as a job writes them for a lean table.
// REFERENCE_CALIBRATION_SECONDS: calibration_seconds() in the same run. Both printed by
// `scripts/measure-rates.py --dir /tmp/rates`; a change to the solver's or the writer's speed calls
// for it (the calibration solves too, so rates and calibration are measured together).
//
// REFERENCE_GROWTH_PER_MAN: no 6-man table fits the measurement's time. KNNNvKN and KRNvKNN cost
// about 1.1 times the CPU per entry of the 5-man pawnless tables built by the same program.
#pragma once

#include "jobs/cost_model.hpp"

namespace retro {

inline constexpr double REFERENCE_CALIBRATION_SECONDS = 0.0133;
inline constexpr double REFERENCE_GROWTH_PER_MAN = 1.1;
inline constexpr ReferenceRate REFERENCE_RATES[] = {
    {TableKind::Pawnless, 4, {1.375e-07, 5.227e-07}},
    {TableKind::Pawnless, 5, {1.457e-07, 1.177e-07}},
    {TableKind::PawnsInMemory, 4, {2.604e-07, 3.522e-07}},
    {TableKind::PawnsInMemory, 5, {1.617e-07, 1.197e-07}},
    {TableKind::PawnsLean, 4, {1.763e-06, 3.391e-07}},
    {TableKind::PawnsLean, 5, {2.461e-07, 1.328e-07}},
};

}  // namespace retro
