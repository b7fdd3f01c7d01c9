// The cost model's measurements (jobs/cost_model.hpp): CPU seconds per index entry (both sides to
// move) of tables built by `tbgen -t 2` with their sub-tables in place, each kind summed over the
// tables measured, and the calibration's CPU seconds, all on the reference machine: the development
// machine (2 cores, AMD EPYC; docs/benchmarks.md). scripts/measure-rates.py measures them again and
// prints these lines; a change to the solver's or the writer's speed calls for it.
#pragma once

#include "jobs/cost_model.hpp"

namespace retro {

inline constexpr double REFERENCE_CALIBRATION_SECONDS = 0.1;
inline constexpr ReferenceRate REFERENCE_RATES[] = {
    {TableKind::Pawnless, 4, {1e-7, 1e-8}},      {TableKind::Pawnless, 5, {2e-7, 2e-8}},
    {TableKind::PawnsInMemory, 4, {1e-7, 1e-8}}, {TableKind::PawnsInMemory, 5, {2e-7, 2e-8}},
    {TableKind::PawnsLean, 4, {1e-7, 1e-8}},     {TableKind::PawnsLean, 5, {2e-7, 2e-8}},
};

}  // namespace retro
