// Every 3- and 4-man table against the independent figures of tests/data/oracle (the 4-man pawn
// tables solved with their slices on disk and their promotions read in part):
// legal positions, wins, draws, losses, checkmates and the whole DTM histogram per side to move
// (three-man.tsv, four-man.tsv), and the longest win and loss per side (max-dtm.tsv).
//
// ctest runs each TEST in its own process: ThreeMan solves only the five 3-man tables; FourMan
// solves all 35 once (about 45 s on 2 threads) and checks the 30 4-man tables. Every failure names
// the material and the side to move.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "oracle.hpp"
#include "solve/statistics.hpp"
#include "solved_tables.hpp"
#include "store/table_values.hpp"

using namespace retro;
using retro::test::read_oracle;
using retro::test::Row;

namespace {

using Histogram = std::map<std::string, uint64_t>;

// "win19:8 loss0:364" -> {win19: 8, loss0: 364}
Histogram parse_histogram(const std::string& text) {
    Histogram out;
    std::istringstream in(text);
    for (std::string item; in >> item;) {
        const auto colon = item.find(':');
        if (colon == std::string::npos) {
            ADD_FAILURE() << "bad histogram item '" << item << "'";
            continue;
        }
        out[item.substr(0, colon)] = std::stoull(item.substr(colon + 1));
    }
    return out;
}

// The materials of legal-counts.tsv with this many men.
std::vector<std::string> materials_with(int men) {
    std::vector<std::string> out;
    for (const Row& row : read_oracle("legal-counts.tsv"))
        if (Material::parse(row.at("material")).total() == men) out.push_back(row.at("material"));
    return out;
}

const Row* find_row(const std::vector<Row>& rows, const std::string& material, const std::string& side = "") {
    for (const Row& row : rows)
        if (row.at("material") == material && (side.empty() || row.at("side_to_move") == side)) return &row;
    return nullptr;
}

// "-" (none) -> -1
int longest(const std::string& field) { return field == "-" ? -1 : std::stoi(field); }

void expect_histogram(const Histogram& oracle, const Histogram& solved, const std::string& where) {
    for (const auto& [key, count] : oracle) {
        const auto it = solved.find(key);
        EXPECT_EQ(it == solved.end() ? 0 : it->second, count) << where << ": histogram " << key;
    }
    for (const auto& [key, count] : solved)
        EXPECT_TRUE(oracle.count(key))
            << where << ": histogram " << key << " has " << count << " positions, the oracle has none";
}

// Solves `materials` (and what they need) with `options` and compares each with the oracle rows of
// `stats_file`. The statistics of a table solved into its slice store are read from the store.
void check_materials(const std::vector<std::string>& materials, const std::string& stats_file,
                     const SolveOptions& options = {}) {
    ASSERT_FALSE(materials.empty());
    const auto counts = read_oracle("legal-counts.tsv");
    const auto stats = read_oracle(stats_file);
    const auto max_dtm = read_oracle("max-dtm.tsv");
    ASSERT_FALSE(stats.empty()) << stats_file << " not found in " << RETRO_ORACLE_DIR;

    std::vector<Material> targets;
    for (const std::string& material : materials) targets.push_back(Material::parse(material));
    Tablebase tables;
    std::map<std::string, TableStatistics> solved_stats;
    for (const Material& m : build_order(targets)) {
        SolvedTable solved = solve_table(m, tables, options);
        if (std::find(targets.begin(), targets.end(), m) != targets.end())
            solved_stats[m.name()] = solved.whole
                                         ? compute_statistics(*solved.whole)
                                         : compute_statistics(SliceStoreValues(*solved.slices, 1 << 20));
        tables.add(solved.whole ? std::move(solved.whole) : whole_table(*solved.slices));
    }
    for (const std::string& material : materials) {
        ASSERT_TRUE(solved_stats.contains(material))
            << material << ": the oracle names materials canonically";
        const TableStatistics& s = solved_stats[material];
        const Row* count_row = find_row(counts, material);
        const Row* max_row = find_row(max_dtm, material);
        ASSERT_TRUE(count_row && max_row) << material << " missing from the oracle";
        for (Color c : {WHITE, BLACK}) {
            const std::string side = c == WHITE ? "wtm" : "btm";
            const std::string where = material + " " + side;
            const SideStatistics& t = s.side[c];
            const Row* row = find_row(stats, material, side);
            ASSERT_TRUE(row) << where << " missing from " << stats_file;

            EXPECT_EQ(t.legal, std::stoull(count_row->at(c == WHITE ? "white_to_move" : "black_to_move")))
                << where << ": legal positions (legal-counts.tsv)";
            EXPECT_EQ(t.legal, std::stoull(row->at("legal"))) << where << ": legal";
            EXPECT_EQ(t.wins, std::stoull(row->at("win"))) << where << ": wins";
            EXPECT_EQ(t.draws, std::stoull(row->at("draw"))) << where << ": draws";
            EXPECT_EQ(t.losses, std::stoull(row->at("loss"))) << where << ": losses";
            EXPECT_EQ(t.checkmates, std::stoull(row->at("checkmated"))) << where << ": checkmated";
            EXPECT_EQ(t.wins + t.draws + t.losses, t.legal) << where;
            expect_histogram(parse_histogram(row->at("histogram")), parse_histogram(format_histogram(t)),
                             where);

            EXPECT_EQ(t.longest_win(), longest(max_row->at(side + "_longest_win")))
                << where << ": longest win (max-dtm.tsv)";
            EXPECT_EQ(t.longest_loss(), longest(max_row->at(side + "_longest_loss")))
                << where << ": longest loss (max-dtm.tsv)";
        }
    }
}

}  // namespace

TEST(SolverOracle, HistogramFormatIsTheOracles) {
    SideStatistics s;
    s.count(19, 8);
    s.count(1, 2);
    s.count(0, 364);
    s.count(DTM_DRAW, 5);  // draws are not in the histogram
    s.count(523, 1);       // nor is a long mate out of it
    EXPECT_EQ(format_histogram(s), "win1:2 win19:8 win523:1 loss0:364");
    EXPECT_EQ(s.legal, 380u);
    EXPECT_EQ(s.draws, 5u);
    EXPECT_EQ(s.checkmates, 364u);
    EXPECT_EQ(s.longest_win(), 523);
    EXPECT_EQ(s.longest_loss(), 0);
    EXPECT_EQ(parse_histogram(format_histogram(s)),
              (Histogram{{"win1", 2}, {"win19", 8}, {"win523", 1}, {"loss0", 364}}));
}

TEST(SolverOracle, OracleListsAll35Materials) {
    EXPECT_EQ(materials_with(3).size(), 5u);
    EXPECT_EQ(materials_with(4).size(), 30u);
    EXPECT_EQ(read_oracle("three-man.tsv").size(), 2 * 5u);
    EXPECT_EQ(read_oracle("four-man.tsv").size(), 2 * 30u);
    EXPECT_EQ(read_oracle("max-dtm.tsv").size(), 35u);
}

// KQvK, KRvK, KBvK, KNvK and KPvK.
TEST(SolverOracle, ThreeMan) { check_materials(materials_with(3), "three-man.tsv"); }

// All 30 4-man tables, pawnless and with pawns (KQvKR: 69 plies for White, 37 for Black; KBNvK 65;
// KPvKP 65; KRvKP, the pawn side wins in 85). The pawn tables are solved in as little memory as they
// can be: their slices on disk, each slice reading back those its pushes reach, and their
// promotions read in part (the 3-man tables too).
TEST(SolverOracle, FourMan) {
    SolveOptions lean;
    lean.slices_on_disk = lean.promotions_in_part = true;
    check_materials(materials_with(4), "four-man.tsv", lean);
}

// A table whose longest loss is exactly the longest mate the values hold is solved: every
// predecessor of its longest losses wins faster (KPPvKP, whose longest loss is 254 plies, the limit).
// One ply less is refused. KRvK's longest loss is 32 plies (max-dtm.tsv).
TEST(SolverOracle, MatesUpToTheLongestTheValuesHold) {
    const auto reference = retro::test::solved_table("KRvK");
    ASSERT_EQ(compute_statistics(*reference).side[BLACK].longest_loss(), 32);
    const Tablebase none;
    SolveOptions at_limit;
    at_limit.longest_mate = 32;
    EXPECT_TRUE(*solve(reference->material(), none, at_limit) == *reference);
    SolveOptions below;
    below.longest_mate = 31;
    EXPECT_THROW(solve(reference->material(), none, below), SolveError);
}
