#include "index/dependencies.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace retro {

std::vector<SubtableSides> direct_subtable_sides(const Material& m, SideSet movers) {
    std::map<Material, SideSet> out;
    for (Color c : {WHITE, BLACK}) {
        if (!(movers & side_bit(c))) continue;
        // After c's move the opponent is to move: in the canonical orientation, c itself when the
        // sub-table's colours are swapped.
        auto add = [&](const Material& sub) {
            if (sub.total() > 2) out[sub.canonical()] |= side_bit(sub.is_canonical() ? ~c : c);
        };
        for (int t = QUEEN; t <= PAWN; ++t)
            if (m.count(~c, PieceType(t))) add(m.without(~c, PieceType(t)));
        if (!m.count(c, PAWN)) continue;
        for (PieceType promo : {QUEEN, ROOK, BISHOP, KNIGHT}) {
            const Material promoted = m.without(c, PAWN).with(c, promo);
            add(promoted);
            for (int t = QUEEN; t <= KNIGHT; ++t)  // a pawn captures onto the last rank
                if (m.count(~c, PieceType(t))) add(promoted.without(~c, PieceType(t)));
        }
    }
    std::vector<SubtableSides> sides;
    for (const auto& [material, set] : out) sides.push_back({material, set});
    return sides;
}

std::vector<Material> direct_subtables(const Material& m) {
    std::vector<Material> out;
    for (const auto& s : direct_subtable_sides(m)) out.push_back(s.material);
    return out;
}

std::vector<Material> build_order(const std::vector<Material>& targets) {
    std::vector<Material> order;
    std::set<Material> seen;
    std::function<void(const Material&)> visit = [&](const Material& m) {
        if (!seen.insert(m).second) return;
        for (const Material& sub : direct_subtables(m)) visit(sub);
        order.push_back(m);
    };
    for (const Material& t : targets) visit(t.canonical());
    return order;
}

}  // namespace retro
