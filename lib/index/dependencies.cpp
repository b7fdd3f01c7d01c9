#include "index/dependencies.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace retro {

std::vector<Material> direct_subtables(const Material& m) {
    std::set<Material> out;
    auto add = [&](const Material& sub) {
        if (sub.total() > 2) out.insert(sub.canonical());
    };
    for (Color c : {WHITE, BLACK}) {
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
    return {out.begin(), out.end()};
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
