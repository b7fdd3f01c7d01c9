#include "ranks/ranks.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace retro {

void OneProcess::abort(const std::string& why) {
    std::cerr << why << std::endl;
    std::exit(1);
}

std::vector<uint64_t> gather_values(Ranks& ranks, uint64_t mine) {
    std::vector<uint64_t> all(ranks.leads() ? size_t(ranks.size()) : 0);
    ranks.gather(std::span(reinterpret_cast<const uint8_t*>(&mine), sizeof mine),
                 std::span(reinterpret_cast<uint8_t*>(all.data()), all.size() * sizeof(uint64_t)));
    return all;
}

}  // namespace retro
