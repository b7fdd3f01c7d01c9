// What solving pawn tables slice by slice would hold in memory (index/pawn_slices.hpp), against the
// peak of the job's memory plan (jobs/estimates.hpp; the column "today"). Nothing is solved.
//
//   slice_study MATERIAL...   e.g. KNNNvKP KRPvKR
//   slice_study --all N       every pawn table of N men, largest slice peak first
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "index/pawn_slices.hpp"
#include "jobs/estimates.hpp"
#include "jobs/plan.hpp"
#include "study_main.hpp"

using namespace retro;

namespace {

// "Pb2 Pc3 / Pd7": White's pawns, then Black's.
std::string config_name(const PawnConfig& c) {
    std::string out;
    for (Color side : {WHITE, BLACK}) {
        if (side == BLACK) out += " /";
        for (Bitboard b = c.pawns[side]; b;) out += " P" + square_name(pop_lsb(b));
    }
    return out;
}

struct Row {
    Material material;
    size_t slices;
    SlicePeak peak;
    uint64_t plan_peak;
};

void print(const Row& r) {
    std::printf("%-9s %8zu %10.1fM %11s %11s %11s %11s %11s  %s\n", r.material.name().c_str(), r.slices,
                double(slice_entries(r.material)) / 1e6, format_bytes(r.peak.own_bytes).c_str(),
                format_bytes(r.peak.pawn_slices_bytes).c_str(), format_bytes(r.peak.pawnless_bytes).c_str(),
                format_bytes(r.peak.total()).c_str(), format_bytes(r.plan_peak).c_str(),
                config_name(r.peak.config).c_str());
}

int study(int argc, char** argv) {
    std::vector<Material> materials;
    if (argc == 3 && std::strcmp(argv[1], "--all") == 0) {
        const int men = std::atoi(argv[2]);
        for (const Material& m : materials_up_to(men))
            if (m.total() == men && m.has_pawns()) materials.push_back(m);
    } else {
        for (int i = 1; i < argc; ++i) materials.push_back(Material::parse(argv[i]).canonical());
    }
    if (materials.empty()) {
        std::fprintf(stderr, "usage: slice_study MATERIAL... | slice_study --all N\n");
        return 2;
    }
    std::vector<Row> rows;
    for (const Material& m : materials)
        rows.push_back({m, m.has_pawns() ? pawn_configs(m).size() : 1, slice_peak(m), memory_plan(m).peak()});
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.peak.total() > b.peak.total(); });
    std::printf("%-9s %8s %11s %11s %11s %11s %11s %11s  %s\n", "table", "slices", "entries", "own",
                "pawn slices", "pawnless", "slice peak", "today", "largest slice");
    for (const Row& r : rows) print(r);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return study_main("slice_study",
                      "usage: slice_study MATERIAL... (e.g. KNNNvKP KRPvKR) | slice_study --all N\n", argc,
                      argv, study);
}
