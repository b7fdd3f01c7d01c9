// Tables solved by the tests, each at most once per process, in dependency order.
//
// ctest runs every TEST in a process of its own, so a test asks only for the tables it needs. Under
// ctest the processes of one run also share what they solved: RETRO_TEST_TABLES names a directory
// (emptied when the run starts, by the TestTablesReset fixture in tests/CMakeLists.txt) where the
// first process that solves a table writes it with every value exact (as a job's exact copy, format
// version 1 or 2, holes kept), and where the others read it back instead of solving it again. Without the
// variable (a test binary run by hand) every table is solved in the process. The solver's own tests
// (SolverOracle, Determinism, ...) solve the tables they check themselves and take only their
// sub-tables from here.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "index/dependencies.hpp"
#include "probe/tablebase.hpp"
#include "solve/solver.hpp"
#include "store/table_file.hpp"

namespace retro::test {

// Table m, solved over `tables`, or read from the run's shared directory when another test process
// solved it first.
inline std::shared_ptr<const Table> solved_or_shared(const Material& m, const Tablebase& tables) {
    namespace fs = std::filesystem;
    const char* shared = std::getenv("RETRO_TEST_TABLES");
    if (!shared || !*shared) return solve_in_memory(m, tables);
    const fs::path path = table_path(shared, m);
    if (fs::exists(path)) return read_table(path);
    std::shared_ptr<const Table> table = solve_in_memory(m, tables);
    // Written under a name of this process, then renamed: two processes may solve the same table at
    // once, and a reader sees only a complete file.
    const fs::path own = fs::path(shared) / ("writing-" + std::to_string(getpid()));
    fs::create_directories(own);
    write_table(*table, table_path(own, m), exact_copy_options());
    fs::rename(table_path(own, m), path);
    fs::remove_all(own);
    return table;
}

// The tables of `materials` and everything they need, solved (or shared) on first request.
inline const Tablebase& solved_tables(const std::vector<std::string>& materials) {
    static Tablebase tables;
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    std::vector<Material> targets;
    for (const auto& name : materials) targets.push_back(Material::parse(name));
    for (const Material& m : build_order(targets))
        if (!tables.find(m)) tables.add(solved_or_shared(m, tables));
    return tables;
}

// The solved table of one material (canonical or not).
inline std::shared_ptr<const Table> solved_table(const std::string& material) {
    return solved_tables({material}).find(Material::parse(material));
}

}  // namespace retro::test
