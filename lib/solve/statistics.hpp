// Statistics of a solved table, counted over all legal positions of the full board (each index
// entry weighted by the symmetric images it stands for), so they compare with published figures.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "store/table.hpp"
#include "store/table_values.hpp"

namespace retro {

struct SideStatistics {
    uint64_t legal = 0, wins = 0, draws = 0, losses = 0, checkmates = 0, stalemates = 0;
    std::vector<uint64_t> histogram;  // by distance: odd = win in n, even = loss in n; as long as needed
    int longest_win() const;          // -1 when there is no win
    int longest_loss() const;         // -1 when there is no loss
    void count(Dtm v, uint64_t weight);
    // The first entry (lowest index) of the longest win and of the longest loss, as a FEN ("" when
    // there is none): the positions a reader of the statistics wants to see.
    std::string longest_win_fen, longest_loss_fen;
};

struct TableStatistics {
    Material material;
    uint64_t entries_per_side = 0;
    std::array<SideStatistics, 2> side;  // [side to move]
};

TableStatistics compute_statistics(const Table& table);
// The same read a run at a time (a pawn table from its slice store).
TableStatistics compute_statistics(const TableValues& table);

std::string format_text(const TableStatistics& s);
std::string format_json(const TableStatistics& s);
// "win19:8 loss0:364 ...", wins ascending then losses ascending (as in tests/data/oracle).
std::string format_histogram(const SideStatistics& s);

}  // namespace retro
