#include "ranks/ranks.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
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

std::vector<std::string> gather_places(Ranks& ranks) {
    // A fixed size per rank, as gather takes; a longer host name is cut.
    constexpr size_t PLACE_BYTES = 128;
    std::array<char, 64> host{};
    if (gethostname(host.data(), host.size() - 1) != 0) host = {'?'};
    std::array<uint8_t, PLACE_BYTES> mine{};
    std::snprintf(reinterpret_cast<char*>(mine.data()), mine.size(), "pid %ld on %s", long(getpid()),
                  host.data());
    std::vector<uint8_t> all(ranks.leads() ? size_t(ranks.size()) * PLACE_BYTES : 0);
    ranks.gather(mine, all);
    std::vector<std::string> places;
    for (size_t at = 0; at < all.size(); at += PLACE_BYTES)
        places.emplace_back(reinterpret_cast<const char*>(all.data() + at));
    return places;
}

}  // namespace retro
