// A solved table in memory: the value of every index entry for each side to move.
#pragma once

#include <array>
#include <vector>

#include "index/index_scheme.hpp"
#include "store/dtm.hpp"

namespace retro {

struct Table {
    explicit Table(const Material& m) : scheme(m) {
        for (auto& v : values) v.assign(scheme.size(), DTM_DRAW);
    }
    Table(const Material& m, std::array<std::vector<Dtm>, 2>&& v) : scheme(m), values(std::move(v)) {}
    const Material& material() const { return scheme.material(); }
    // Value for the side to move of a position with exactly this table's material and orientation.
    Dtm value(const Position& pos) const { return values[pos.side_to_move()][scheme.encode(pos)]; }

    IndexScheme scheme;
    std::array<std::vector<Dtm>, 2> values;  // [side to move][index]
};

// Value for the side to move of pos, read from t, whose material is pos's or its colour swap.
// Ignores the en passant right: see Tablebase::probe.
inline Dtm probe_table(const Table& t, const Position& pos) {
    return Material::of(pos) == t.material() ? t.value(pos) : t.value(pos.color_flipped());
}

}  // namespace retro
