#include "jobs/completion_chain.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace retro {
namespace {

const auto EVERY = [](const Material&, SideSet) { return true; };

std::vector<std::string> names(const std::vector<SubtableSides>& chain) {
    std::vector<std::string> out;
    for (const SubtableSides& s : chain) out.push_back(s.material.name());
    return out;
}

// KPvK reads its promotions for Black to move (White promoted); the capture of the pawn leaves bare
// kings, which need no table.
TEST(CompletionChain, ReadsThePromotionsOfKPvKForBlackToMove) {
    const auto chain = completion_chain(Material::parse("KPvK"), false, EVERY);
    EXPECT_EQ(names(chain), (std::vector<std::string>{"KBvK", "KNvK", "KQvK", "KRvK"}));
    for (const SubtableSides& s : chain) EXPECT_EQ(s.sides, side_bit(BLACK)) << s.material.name();
}

// Through the promoted 4-man tables down to the 3-man ones, each table after every sub-table of the
// chain it reads, so that those are complete (and copied) before it.
TEST(CompletionChain, GoesDownToTheSmallestTablesSubTablesFirst) {
    const auto chain = completion_chain(Material::parse("KRvKP"), false, EVERY);
    const auto all = names(chain);
    for (const char* name : {"KQvKR", "KRvKR", "KRvKB", "KRvKN", "KRvK", "KPvK", "KQvK", "KBvK", "KNvK"})
        EXPECT_NE(std::find(all.begin(), all.end(), name), all.end()) << name;
    std::set<Material> before;
    for (const SubtableSides& s : chain) {
        EXPECT_NE(s.sides, 0) << s.material.name();
        for (const SubtableSides& sub : direct_subtable_sides(s.material, s.sides)) {
            const bool in_chain = std::any_of(chain.begin(), chain.end(), [&](const SubtableSides& c) {
                return c.material == sub.material;
            });
            if (in_chain) {
                EXPECT_TRUE(before.contains(sub.material)) << sub.material.name();
            }
        }
        before.insert(s.material);
    }
    // Read in part, the promotions (and all they reach) are left out.
    EXPECT_EQ(names(completion_chain(Material::parse("KRvKP"), true, EVERY)),
              (std::vector<std::string>{"KBvK", "KNvK", "KQvK", "KRvK", "KPvK"}));
}

// A table not completed when read (self-contained, or a copy holding the sides read) ends the chain:
// what it reads is not read.
TEST(CompletionChain, EndsAtATableWithACopy) {
    const Material kqkr = Material::parse("KQvKR");
    const auto only_kqkr = [&](const Material& m, SideSet) { return m == kqkr; };
    const auto chain = completion_chain(Material::parse("KRvKP"), false, only_kqkr);
    EXPECT_EQ(names(chain), std::vector<std::string>{"KQvKR"});
    EXPECT_TRUE(completion_chain(Material::parse("KRvKP"), false, [](const Material&, SideSet) {
                    return false;
                }).empty());
    // A copy of KQvK for Black to move, the side KPvK reads.
    const Material kqk = Material::parse("KQvK");
    const auto copied_black = [&](const Material& m, SideSet sides) {
        return !(m == kqk && sides == side_bit(BLACK));
    };
    EXPECT_EQ(names(completion_chain(Material::parse("KPvK"), false, copied_black)),
              (std::vector<std::string>{"KBvK", "KNvK", "KRvK"}));
}

}  // namespace
}  // namespace retro
