#include "solve/statistics.hpp"

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>

#include <atomic>
#include <sstream>

#include "chess/movegen.hpp"
#include "index/legal_entries.hpp"
#include "parallel/parallel_for.hpp"

namespace retro {

int SideStatistics::longest_win() const {
    for (int v = int(histogram.size()) - 1; v >= 0; --v)
        if (is_win(Dtm(v)) && histogram[size_t(v)]) return v;
    return -1;
}

int SideStatistics::longest_loss() const {
    for (int v = int(histogram.size()) - 1; v >= 0; --v)
        if (is_loss(Dtm(v)) && histogram[size_t(v)]) return v;
    return -1;
}

void SideStatistics::count(Dtm v, uint64_t weight) {
    legal += weight;
    if (is_draw(v)) {
        draws += weight;
        return;
    }
    if (v >= histogram.size()) histogram.resize(size_t(v) + 1);
    histogram[v] += weight;
    (is_win(v) ? wins : losses) += weight;
    if (v == 0) checkmates += weight;
}

namespace {

// The first legal entry of side with this value, as a FEN (a table read from a file may hold any
// value in its holes).
std::string first_fen_with(const Table& table, Color side, int value) {
    if (value < 0) return "";
    std::atomic<uint64_t> first{UINT64_MAX};
    par::parallel_for(tbb::blocked_range<uint64_t>(0, table.size(), 1 << 16), [&](const auto& r) {
        Position pos;
        for (uint64_t i = r.begin(); i < r.end() && i < first.load(std::memory_order_relaxed); ++i) {
            if (table.value(side, i) != value || !decode_legal(table.scheme, i, side, pos)) continue;
            uint64_t seen = first.load(std::memory_order_relaxed);
            while (i < seen && !first.compare_exchange_weak(seen, i)) {
            }
            return;
        }
    });
    Position pos;
    decode_legal(table.scheme, first, side, pos);
    return pos.fen();
}

}  // namespace

TableStatistics compute_statistics(const Table& table) {
    TableStatistics out;
    out.material = table.material();
    out.entries_per_side = table.scheme.size();
    for (Color side : {WHITE, BLACK}) {
        tbb::combinable<SideStatistics> partial;
        par::parallel_for(tbb::blocked_range<uint64_t>(0, table.size(), 1 << 14), [&](const auto& r) {
            SideStatistics& s = partial.local();
            for_each_legal_entry(table.scheme, side, r.begin(), r.end(),
                                 [&](uint64_t i, const Placement&, const Position& pos) {
                                     const uint64_t w = uint64_t(table.scheme.weight(pos));
                                     const Dtm v = table.value(side, i);
                                     s.count(v, w);
                                     if (is_draw(v) && !pos.in_check(side) && !has_legal_move(pos))
                                         s.stalemates += w;
                                 });
        });
        partial.combine_each([&](const SideStatistics& s) {
            auto& t = out.side[side];
            t.legal += s.legal, t.wins += s.wins, t.draws += s.draws, t.losses += s.losses;
            t.checkmates += s.checkmates, t.stalemates += s.stalemates;
            if (s.histogram.size() > t.histogram.size()) t.histogram.resize(s.histogram.size());
            for (size_t v = 0; v < s.histogram.size(); ++v) t.histogram[v] += s.histogram[v];
        });
        auto& t = out.side[side];
        t.longest_win_fen = first_fen_with(table, side, t.longest_win());
        t.longest_loss_fen = first_fen_with(table, side, t.longest_loss());
    }
    return out;
}

std::string format_histogram(const SideStatistics& s) {
    std::ostringstream out;
    const char* sep = "";
    for (int parity : {1, 0})
        for (size_t v = size_t(parity); v < s.histogram.size(); v += 2)
            if (s.histogram[v]) {
                out << sep << (parity ? "win" : "loss") << v << ':' << s.histogram[v];
                sep = " ";
            }
    return out.str();
}

std::string format_text(const TableStatistics& s) {
    std::ostringstream out;
    out << s.material.name() << ": " << s.entries_per_side << " index entries per side to move\n";
    for (Color c : {WHITE, BLACK}) {
        const auto& t = s.side[c];
        auto longest = [](int v) { return v < 0 ? std::string("-") : std::to_string(v); };
        out << "  " << color_name(c) << " to move: " << t.legal << " legal, " << t.wins << " win, " << t.draws
            << " draw, " << t.losses << " loss; " << t.checkmates << " checkmated, " << t.stalemates
            << " stalemated; longest win " << longest(t.longest_win()) << " plies, longest loss "
            << longest(t.longest_loss()) << " plies\n";
        if (!t.longest_win_fen.empty()) out << "    longest win: " << t.longest_win_fen << "\n";
        if (!t.longest_loss_fen.empty()) out << "    longest loss: " << t.longest_loss_fen << "\n";
        out << "    dtm histogram (plies:positions): " << format_histogram(t) << "\n";
    }
    return out.str();
}

std::string format_json(const TableStatistics& s) {
    std::ostringstream out;
    out << "{\"material\":\"" << s.material.name() << "\",\"entries_per_side\":" << s.entries_per_side;
    for (Color c : {WHITE, BLACK}) {
        const auto& t = s.side[c];
        out << ",\"" << (c == WHITE ? "wtm" : "btm") << "\":{\"legal\":" << t.legal << ",\"win\":" << t.wins
            << ",\"draw\":" << t.draws << ",\"loss\":" << t.losses << ",\"checkmated\":" << t.checkmates
            << ",\"stalemated\":" << t.stalemates << ",\"longest_win\":" << t.longest_win()
            << ",\"longest_loss\":" << t.longest_loss() << ",\"longest_win_fen\":\"" << t.longest_win_fen
            << "\",\"longest_loss_fen\":\"" << t.longest_loss_fen << "\",\"histogram\":{";
        const char* sep = "";
        for (size_t v = 0; v < t.histogram.size(); ++v)
            if (t.histogram[v]) {
                out << sep << '"' << (v % 2 ? "win" : "loss") << v << "\":" << t.histogram[v];
                sep = ",";
            }
        out << "}}";
    }
    out << "}";
    return out.str();
}

}  // namespace retro
