// What a job says of its plan before it starts (tbgen prints it, and alone with --dry-run;
// retrograde.plan returns it): the tables to build, the estimated peak memory against the limit and
// the cache, the pawn tables held lean, the disk, the projected time and which tables fit the limit.
#pragma once

#include <string>
#include <vector>

#include "jobs/plan.hpp"

namespace retro {

std::vector<std::string> plan_report(const JobPlan& plan);

}  // namespace retro
