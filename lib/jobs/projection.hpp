// How long a job's tables still to build take: each at the rate measured in the plan's directory for
// its kind (its number of men, with or without pawns: tbgen.times, which also gives the job's ETA), or,
// for the kinds not timed there, by the cost model (jobs/cost_model.hpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "jobs/cost_model.hpp"
#include "jobs/plan.hpp"

namespace retro {

struct Projection {
    struct Table {
        Material material;
        uint64_t entries = 0;  // both sides to move
        double seconds = 0;
        bool timed = false;  // at the rate of its kind in tbgen.times, not by the model
    };
    std::vector<Table> tables;  // those still to build, in the plan's order
    int times_lines = 0;        // the tables of tbgen.times taken
    double seconds = 0;         // of them all, one after the other
    // The model the tables not timed took (tables.size() > timed_count()); absent otherwise.
    std::optional<CostModel> model;

    int timed_count() const;
    double seconds_of(const Material& m) const;
};

// `model` is asked for only when a table's kind is not timed in the plan's directory (this machine's
// model calibrates for a fraction of a second).
Projection project(const JobPlan& plan, const std::function<CostModel()>& model);
// The same with this machine's model for the plan's threads.
Projection project(const JobPlan& plan);

// The projection's lines: the whole job, on one machine and on several like it sharing the directory,
// with where the rates come from ("projected time: about 1 h 05 min for 101 tables: 40 at the rates
// of 44 tables built here (DIR/tbgen.times), 61 by the cost model (...); on 2 / 4 / 8 machines like
// this one: about 34 min 10 s / 20 min 02 s / 15 min 40 s"), then the largest tables' times. Empty
// when nothing is left to build.
std::vector<std::string> projection_lines(const JobPlan& plan, const std::function<CostModel()>& model);
// The same with this machine's model for the plan's threads.
std::vector<std::string> projection_lines(const JobPlan& plan);

}  // namespace retro
