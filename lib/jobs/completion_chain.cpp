#include "jobs/completion_chain.hpp"

#include <map>

#include "jobs/progress.hpp"
#include "probe/tablebase.hpp"

namespace retro {

std::vector<SubtableSides> completion_chain(const Material& m, bool promotions_in_part,
                                            const CompletedWhenRead& completed) {
    std::map<Material, SideSet> read;  // the sides each table of the chain is read for
    std::vector<SubtableSides> to_visit;
    for (const SubtableSides& sub : direct_subtable_sides(m))
        if (!promotions_in_part || sub.material.total() < m.total()) to_visit.push_back(sub);
    while (!to_visit.empty()) {
        const SubtableSides sub = to_visit.back();
        to_visit.pop_back();
        const auto known = read.find(sub.material);
        const SideSet before = known == read.end() ? 0 : known->second;
        const SideSet wanted = before | sub.sides;
        if (wanted == before || !completed(sub.material, wanted)) continue;
        read[sub.material] = wanted;  // completing it reads its sub-tables for these sides
        for (const SubtableSides& next : direct_subtable_sides(sub.material, wanted))
            to_visit.push_back(next);
    }
    std::vector<Material> members;
    for (const auto& [material, sides] : read) members.push_back(material);
    std::vector<SubtableSides> chain;
    for (const Material& t : build_order(members))
        if (const auto it = read.find(t); it != read.end()) chain.push_back({t, it->second});
    return chain;
}

std::string chain_completion_text(const std::vector<SubtableSides>& chain, size_t k, const Material& done,
                                  double seconds) {
    std::string text = done.name() + " completed from its sub-tables in " + format_duration(seconds);
    if (done == chain[k].material)
        text += " (" + std::to_string(k + 1) + " of " + std::to_string(chain.size()) + ")";
    return text;
}

void complete_chain_in_turn(const std::vector<SubtableSides>& chain, const std::filesystem::path& dir,
                            const std::filesystem::path& copy_dir, const std::atomic<bool>* stop,
                            const ChainCompletionTold& told, const ChainTableCompleted& completed) {
    for (size_t k = 0; k < chain.size(); ++k) {
        Tablebase tables(dir);
        tables.stop_reading_when(stop);
        tables.read_exact_copies(copy_dir);
        tables.tell_completions([&](const Material& done, double seconds) { told(k, done, seconds); });
        if (const auto table = tables.find(chain[k].material, chain[k].sides)) completed(k, *table);
    }
}

}  // namespace retro
