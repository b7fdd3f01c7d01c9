// tbindex: sizes of the perfect index per material and how many entries are holes.
#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/global_control.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/command_line.hpp"
#include "index/legal_entries.hpp"
#include "parallel/parallel_for.hpp"

using namespace retro;
namespace po = boost::program_options;

namespace {

struct Counts {
    uint64_t decoded = 0;        // entries that decode to a position (the rest collide or are twins)
    uint64_t entries[2] = {};    // legal entries per side to move
    uint64_t positions[2] = {};  // legal board positions: entries weighted by their symmetric images
    Counts& operator+=(const Counts& o) {
        decoded += o.decoded;
        for (int c = 0; c < 2; ++c) entries[c] += o.entries[c], positions[c] += o.positions[c];
        return *this;
    }
};

// Walks the decoded entries once and tests each for both sides to move.
Counts count(const IndexScheme& scheme) {
    tbb::combinable<Counts> partial;
    par::parallel_for(tbb::blocked_range<uint64_t>(0, scheme.size(), 1 << 14), [&](const auto& r) {
        Counts& acc = partial.local();
        for (IndexCursor cursor(scheme, r.begin()); cursor.index() < r.end(); cursor.next()) {
            if (!cursor.valid()) continue;
            ++acc.decoded;
            Position pos = scheme.to_position(cursor.placement());
            const int weight = scheme.weight(pos);
            for (Color c : {WHITE, BLACK}) {
                pos.set_side_to_move(c);
                if (is_legal_entry(pos)) acc.entries[c] += 1, acc.positions[c] += weight;
            }
        }
    });
    Counts total;
    partial.combine_each([&](const Counts& c) { total += c; });
    return total;
}

}  // namespace

int main(int argc, char** argv) {
    unsigned threads = 0;
    po::options_description options(
        "Usage: tbindex [options] [MATERIAL...]\n\n"
        "Prints, per material: the entries of the perfect index per side to move; the fraction that\n"
        "decode to no position (pieces collide, or the twin of a diagonal-symmetric entry); per side to\n"
        "move the legal entries and the fraction of holes (no position, or the side not to move is in\n"
        "check); the legal board positions the entries stand for (each weighted by its symmetric\n"
        "images); and the bytes a table needs at 1 byte per entry for both sides.\n"
        "MATERIAL is a string such as KQvKR (default: KQvK KRvK KPvK KQvKR KRPvKR KRBvKR KQRvKQ).\n\n"
        "Options");
    options.add_options()("help,h", "show this help")("threads,t", po::value(&threads),
                                                      "worker threads (default: all cores)");
    CommandLine line;
    try {
        line = parse_command_line(argc, argv, options);
    } catch (const po::error& e) {
        std::cerr << "tbindex: " << e.what() << "\n\n" << options << "\n";
        return 2;
    }
    if (line.options.count("help")) {
        std::cout << options << "\n";
        return 0;
    }
    std::vector<std::string> names = line.arguments;
    if (names.empty()) names = {"KQvK", "KRvK", "KPvK", "KQvKR", "KRPvKR", "KRBvKR", "KQRvKQ"};

    std::vector<Material> materials;
    for (const std::string& name : names) {
        try {
            materials.push_back(Material::parse(name));
        } catch (const MaterialError& e) {
            std::cerr << "tbindex: " << e.what() << "\n";
            return 2;
        }
    }
    const tbb::global_control control(tbb::global_control::max_allowed_parallelism,
                                      threads ? threads : std::max(1u, std::thread::hardware_concurrency()));

    using ull = unsigned long long;
    std::printf("%-8s %13s %8s %13s %7s %13s %7s %14s %14s %15s\n", "material", "entries/side", "no pos",
                "legal wtm", "holes", "legal btm", "holes", "positions wtm", "positions btm",
                "bytes (2 sides)");
    for (const Material& m : materials) {
        const IndexScheme scheme(m);
        const Counts c = count(scheme);
        const auto percent = [&](uint64_t n) { return 100.0 * double(n) / double(scheme.size()); };
        std::printf("%-8s %13llu %7.2f%% %13llu %6.2f%% %13llu %6.2f%% %14llu %14llu %15llu\n",
                    m.name().c_str(), ull(scheme.size()), percent(scheme.size() - c.decoded),
                    ull(c.entries[WHITE]), percent(scheme.size() - c.entries[WHITE]), ull(c.entries[BLACK]),
                    percent(scheme.size() - c.entries[BLACK]), ull(c.positions[WHITE]),
                    ull(c.positions[BLACK]), 2 * ull(scheme.size()));
        std::fflush(stdout);
    }
    return 0;
}
