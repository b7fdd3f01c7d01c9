#include "jobs/estimates.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "index/dependencies.hpp"
#include "index/index_scheme.hpp"
#include "solve/solver.hpp"
#include "store/entry_bits.hpp"

namespace retro {

uint64_t table_memory_bytes(const Material& m) { return 2 * IndexScheme(m).size(); }

uint64_t own_peak_bytes(const Material& m) {
    // Writing holds the solved table and a bit per entry and side for the entries exits settle
    // (solve/exit_settled.hpp): 2.25 bytes per entry, above the solver's own state for six men.
    const uint64_t writing = table_memory_bytes(m) + 2 * 8 * EntryBits::words_for(IndexScheme(m).size());
    return std::max(solver_memory_estimate(m), writing);
}

uint64_t subtables_bytes(const Material& m) {
    uint64_t bytes = 0;  // a byte per entry of each side to move the exits reach
    for (const auto& [sub, sides] : direct_subtable_sides(m))
        bytes += table_memory_bytes(sub) / 2 * uint64_t(std::popcount(unsigned(sides)));
    return bytes;
}

uint64_t solve_peak_bytes(const Material& m) { return own_peak_bytes(m) + subtables_bytes(m); }

uint64_t table_file_bytes_estimate(const Material& m) {
    // Compressed files measured 7-30% of a byte per entry and side (KRBvKR 7.2%, KQvKR 28.5%);
    // 40% plus room for the header keeps this an upper bound.
    return 2 * IndexScheme(m).size() * 2 / 5 + 65536;
}

uint64_t checkpoint_bytes_estimate(const Material& m) {
    const uint64_t bytes = 4 * IndexScheme(m).size() + 4096;
    return m.has_pawns() ? bytes + bytes / 8 : bytes;
}

std::optional<uint64_t> available_memory_bytes() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib) {
        std::getline(in, unit);
        if (key == "MemAvailable:") return kib * 1024;
    }
    return std::nullopt;
}

uint64_t parse_bytes(const std::string& text) {
    std::size_t end = 0;
    double value = 0;
    try {
        value = std::stod(text, &end);
    } catch (const std::exception&) {
        throw std::invalid_argument("'" + text + "' is not a size (examples: 8G, 512M, 1.5T)");
    }
    std::string unit = text.substr(end);
    while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
    for (char& c : unit) c = char(std::toupper(static_cast<unsigned char>(c)));
    if (unit.size() > 1 && (unit.ends_with("IB") || unit.ends_with("B")))
        unit.erase(unit.size() - (unit.ends_with("IB") ? 2 : 1));
    int shift = -1;
    if (unit.empty() || unit == "B") shift = 0;
    if (unit == "K") shift = 10;
    if (unit == "M") shift = 20;
    if (unit == "G") shift = 30;
    if (unit == "T") shift = 40;
    if (shift < 0 || value < 0 || !std::isfinite(value))
        throw std::invalid_argument("'" + text + "' is not a size (examples: 8G, 512M, 1.5T)");
    return uint64_t(std::llround(std::ldexp(value, shift)));
}

std::string format_bytes(uint64_t bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) v /= 1024, ++u;
    char buf[32];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(buf, sizeof buf, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}

}  // namespace retro
