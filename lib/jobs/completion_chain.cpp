#include "jobs/completion_chain.hpp"

#include <map>

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

}  // namespace retro
