#include "solve/statistics.hpp"

#include <tbb/combinable.h>

#include <algorithm>
#include <sstream>

#include "chess/movegen.hpp"
#include "index/legal_entries.hpp"
#include "parallel/parallel_for.hpp"
#include "store/table_values.hpp"

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

// One thread's counts, and the first (lowest) index of each value met.
struct Partial {
    SideStatistics counts;
    std::vector<uint64_t> first;  // by value, as histogram
    void count(uint64_t idx, Dtm v, uint64_t weight) {
        counts.count(v, weight);
        if (is_draw(v)) return;
        if (v >= first.size()) first.resize(size_t(v) + 1, UINT64_MAX);
        first[v] = std::min(first[v], idx);
    }
};

// The FEN of entry idx with `side` to move ("" for none).
std::string fen_of(const IndexScheme& scheme, uint64_t idx, Color side) {
    if (idx == UINT64_MAX) return "";
    Position pos;
    pos.set_side_to_move(side);
    scheme.decode(idx, pos);
    return pos.fen();
}

}  // namespace

TableStatistics compute_statistics(const TableValues& table) {
    const IndexScheme& scheme = table.scheme();
    TableStatistics out;
    out.material = table.material();
    out.entries_per_side = scheme.size();
    // Runs in the order the values read fastest (a pawn table on disk: slice by slice).
    constexpr uint64_t RUN = 1 << 16;
    const DigitOrder order = table.natural_order();
    const uint64_t runs = (scheme.size() + RUN - 1) / RUN;
    for (Color side : {WHITE, BLACK}) {
        tbb::combinable<Partial> partial;
        par::parallel_for(uint64_t(0), runs, [&](uint64_t r) {
            Partial& p = partial.local();
            const uint64_t first = r * RUN, n = std::min(RUN, scheme.size() - first);
            std::vector<Dtm> values(n);
            table.read(side, order, first, n, values.data());
            IndexCursor at(scheme, first, order.order());
            for (uint64_t k = 0; k < n; ++k, at.next()) {
                if (!at.valid()) continue;
                const Position pos = entry_position(scheme, at.placement(), side);
                if (!is_legal_entry(pos)) continue;
                const uint64_t w = uint64_t(scheme.weight(pos));
                p.count(at.index(), values[k], w);
                if (is_draw(values[k]) && !pos.in_check(side) && !has_legal_move(pos))
                    p.counts.stalemates += w;
            }
        });
        auto& t = out.side[side];
        std::vector<uint64_t> first;
        partial.combine_each([&](const Partial& p) {
            const SideStatistics& s = p.counts;
            t.legal += s.legal, t.wins += s.wins, t.draws += s.draws, t.losses += s.losses;
            t.checkmates += s.checkmates, t.stalemates += s.stalemates;
            if (s.histogram.size() > t.histogram.size()) t.histogram.resize(s.histogram.size());
            for (size_t v = 0; v < s.histogram.size(); ++v) t.histogram[v] += s.histogram[v];
            if (p.first.size() > first.size()) first.resize(p.first.size(), UINT64_MAX);
            for (size_t v = 0; v < p.first.size(); ++v) first[v] = std::min(first[v], p.first[v]);
        });
        const auto first_of = [&](int v) { return v < 0 ? UINT64_MAX : first[size_t(v)]; };
        t.longest_win_fen = fen_of(scheme, first_of(t.longest_win()), side);
        t.longest_loss_fen = fen_of(scheme, first_of(t.longest_loss()), side);
    }
    return out;
}

TableStatistics compute_statistics(const Table& table) { return compute_statistics(MemoryValues(table)); }

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
