// The values of moves that leave a table (captures and promotions), read straight from the
// sub-tables: the solver's placement is mapped onto the sub-table's slots without building a
// position or looking the material up again.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "chess/move.hpp"
#include "store/table_source.hpp"

namespace retro {

class ExitProbe {
public:
    // Finds every table one capture or promotion away in `tables`; throws if one is missing.
    ExitProbe(const IndexScheme& scheme, const TableSource& tables);

    // The value for the opponent (to move next) after `side` plays m from placement p, where m
    // captures or promotes. En passant rights cannot arise from such a move.
    Dtm value_after(const Placement& p, Color side, const Move& m) const;

private:
    static constexpr int NONE = 6;  // no capture / no promotion, in the route key
    struct Route {
        const Table* table = nullptr;  // nullptr: bare kings, a draw
        bool flip = false;             // the sub-table holds this material with colours swapped
        std::array<int8_t, PIECE_TYPE_COUNT * 2> first_slot{};  // sub-table slot of (colour, type)
    };
    static int key(Color side, int victim, int promotion) { return (side * 7 + victim) * 7 + promotion; }

    const IndexScheme& scheme_;
    std::vector<std::shared_ptr<const Table>> keep_;
    std::array<Route, 2 * 7 * 7> routes_{};
};

}  // namespace retro
