// The values of moves that leave a table or a slice of one (captures, promotions and, in a pawn
// table solved by slices, pawn pushes), read straight from the sub-tables and the slices already
// solved: the solver's placement is mapped onto the other table's slots without building a position
// or looking the material up again.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "chess/move.hpp"
#include "store/table_source.hpp"

namespace retro {

class ExitProbe {
public:
    // Finds every table one capture or promotion away in `tables`; throws if one is missing. `own`
    // is the table being solved, whose earlier slices the pushes reach (none for a pawnless one).
    // The placements given to value_after are in the slots of `scheme`, which a table and its slices share.
    ExitProbe(const IndexScheme& scheme, const TableSource& tables, const Table* own = nullptr);

    // The value for the opponent (to move next) after the side to move in pos (placement p) plays m,
    // which captures, promotes or pushes a pawn. A double push that allows en passant is worth the
    // opponent's best reply, the en passant captures included.
    Dtm value_after(const Position& pos, const Placement& p, const Move& m) const;

private:
    static constexpr int NONE = 6;  // no capture / no promotion, in the route key
    struct Route {
        const Table* table = nullptr;  // nullptr: bare kings, a draw
        bool flip = false;             // the sub-table holds this material with colours swapped
        std::array<int8_t, PIECE_TYPE_COUNT * 2> first_slot{};  // sub-table slot of (colour, type)
    };
    static int key(Color side, int victim, int promotion) { return (side * 7 + victim) * 7 + promotion; }
    static void set_slots(Route& route, const Table& table);
    // The value of the entry m reaches, for the opponent of `side`, en passant aside.
    Dtm entry_value_after(const Placement& p, Color side, const Move& m) const;

    const IndexScheme& scheme_;
    std::vector<std::shared_ptr<const Table>> keep_;
    std::array<Route, 2 * 7 * 7> routes_{};
};

}  // namespace retro
