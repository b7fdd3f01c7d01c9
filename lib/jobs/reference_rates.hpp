// The cost model's measurements (jobs/cost_model.hpp), on the reference machine: the development
// machine (2 cores, AMD EPYC; docs/benchmarks.md#projected-time), load average 1.0-2.1.
//
// REFERENCE_RATES: CPU seconds per index entry (both sides to move) of tables built by `tbgen -t 2`
// with their sub-tables in place, each kind summed over its tables: KQvKR and KRvKN, KRBvKR and
// KQRvKN; KRvKP, KPvKP and KRPvKR in memory, and the lean way with --cache 1K (the leanest: a larger
// cache costs less) over self-contained promoted tables, as a job writes them for a lean table.
// REFERENCE_CALIBRATION_SECONDS: calibration_seconds() then (0.0263 s, and 0.0259 s in the run of
// the pawn tables). Both printed by `scripts/measure-rates.py --dir /tmp/rates`; a change to the
// solver's or the writer's speed calls for it. The lean rows are the in-memory rows times the lean
// way's ratio to them in a later run of both (KRvKP and KPvKP; KRPvKR), on a slower day.
//
// REFERENCE_GROWTH_PER_MAN: no 6-man table fits the measurement's time. KNNNvKN and KRNvKNN cost
// about 1.1 times the CPU per entry of the 5-man pawnless tables built by the same program.
#pragma once

#include "jobs/cost_model.hpp"

namespace retro {

inline constexpr double REFERENCE_CALIBRATION_SECONDS = 0.0263;
inline constexpr double REFERENCE_GROWTH_PER_MAN = 1.1;
inline constexpr ReferenceRate REFERENCE_RATES[] = {
    {TableKind::Pawnless, 4, {2.779e-07, 7.645e-07}},
    {TableKind::Pawnless, 5, {2.369e-07, 1.361e-07}},
    {TableKind::PawnsInMemory, 4, {3.151e-07, 3.645e-07}},
    {TableKind::PawnsInMemory, 5, {2.809e-07, 1.500e-07}},
    {TableKind::PawnsLean, 4, {1.049e-06, 3.745e-07}},
    {TableKind::PawnsLean, 5, {3.127e-07, 1.498e-07}},
};

}  // namespace retro
