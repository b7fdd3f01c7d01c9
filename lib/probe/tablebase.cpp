#include "probe/tablebase.hpp"

#include <algorithm>

#include "chess/movegen.hpp"
#include "store/table_file.hpp"

namespace retro {

Dtm probe_table(const Table& t, const Position& pos) {
    if (Material::of(pos) == t.material()) return t.value(pos);
    return t.value(pos.color_flipped());
}

int preference(Dtm v) {
    if (is_win(v)) return 1000 - v;
    if (is_loss(v)) return -1000 + v;
    return 0;
}

void Tablebase::add(std::shared_ptr<const Table> table) {
    std::lock_guard lock(mutex_);
    tables_[table->material()] = std::move(table);
}

std::shared_ptr<const Table> Tablebase::find(const Material& m) const {
    const Material canonical = m.canonical();
    std::lock_guard lock(mutex_);
    if (auto it = tables_.find(canonical); it != tables_.end()) return it->second;
    if (dir_.empty()) return nullptr;
    const auto path = table_path(dir_, canonical);
    if (!std::filesystem::exists(path)) return nullptr;
    std::shared_ptr<const Table> table = read_table(path);
    tables_[canonical] = table;
    return table;
}

Dtm Tablebase::probe_ignoring_ep(const Position& pos) const {
    const Material m = Material::of(pos);
    if (m.total() == 2) return DTM_DRAW;
    if (m.total() > MAX_MEN)
        throw ProbeError("the position has " + std::to_string(m.total()) + " men; tables hold at most " +
                         std::to_string(MAX_MEN));
    const auto table = find(m);
    if (!table)
        throw ProbeError("no table for " + m.canonical().name() +
                         (dir_.empty() ? std::string() : " in " + dir_.string()));
    return probe_table(*table, pos);
}

Dtm Tablebase::probe(const Position& pos) const {
    if (!has_legal_ep_capture(pos)) {
        Position plain = pos;
        plain.set_ep_square(NO_SQUARE);
        return probe_ignoring_ep(plain);
    }
    // The index holds positions without the right; the right only adds the en passant captures.
    Position plain = pos;
    plain.set_ep_square(NO_SQUARE);
    Dtm best = probe_ignoring_ep(plain);
    MoveList moves;
    generate_legal_moves(pos, moves);
    for (const Move& m : moves)
        if (m.en_passant) {
            const Dtm v = value_through(probe_ignoring_ep(make_move(pos, m)));
            if (preference(v) > preference(best)) best = v;
        }
    return best;
}

std::vector<std::pair<Move, Dtm>> Tablebase::rank_moves(const Position& pos) const {
    MoveList moves;
    generate_legal_moves(pos, moves);
    std::vector<std::pair<Move, Dtm>> ranked;
    for (const Move& m : moves) ranked.emplace_back(m, value_through(probe(make_move(pos, m))));
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return preference(a.second) > preference(b.second); });
    return ranked;
}

}  // namespace retro
