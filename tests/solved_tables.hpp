// Tables solved in memory by this test process, each at most once, in dependency order.
//
// ctest runs every TEST in a process of its own, so a test asks only for the tables it needs: what
// one process solved is not seen by another.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "index/dependencies.hpp"
#include "probe/tablebase.hpp"
#include "solve/solver.hpp"

namespace retro::test {

// The tables of `materials` and everything they need, solved on first request (no directory).
inline const Tablebase& solved_tables(const std::vector<std::string>& materials) {
    static Tablebase tables;
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    std::vector<Material> targets;
    for (const auto& name : materials) targets.push_back(Material::parse(name));
    for (const Material& m : build_order(targets))
        if (!tables.find(m)) tables.add(solve(m, tables));
    return tables;
}

// The solved table of one material (canonical or not).
inline std::shared_ptr<const Table> solved_table(const std::string& material) {
    return solved_tables({material}).find(Material::parse(material));
}

}  // namespace retro::test
