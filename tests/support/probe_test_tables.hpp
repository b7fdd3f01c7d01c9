// Small tables solved in-process for the probe tests, once per test process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "probe/tablebase.hpp"
#include "solve/solver.hpp"

namespace retro::testing {

// A Tablebase holding the named materials, solved in the order given (sub-tables first).
inline std::unique_ptr<Tablebase> solve_tables(const std::vector<std::string>& names) {
    auto tables = std::make_unique<Tablebase>();
    for (const auto& name : names) tables->add(solve_in_memory(Material::parse(name), *tables));
    return tables;
}

// KQvK and KRvK (about 0.2 s).
inline const Tablebase& three_man_tables() {
    static const auto tables = solve_tables({"KQvK", "KRvK"});
    return *tables;
}

// KQvK, KRvK and KQvKR (about 1.5 s).
inline const Tablebase& kqkr_tables() {
    static const auto tables = solve_tables({"KQvK", "KRvK", "KQvKR"});
    return *tables;
}

}  // namespace retro::testing
