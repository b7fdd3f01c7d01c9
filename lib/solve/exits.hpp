// The values of moves that leave a table or a slice of one (captures, promotions and, in a pawn
// table solved by slices, pawn pushes), read straight from the sub-tables and the slices already
// solved: the solver's placement is mapped onto the other table's slots without building a position
// or looking the material up again.
#pragma once

#include <array>
#include <cassert>
#include <memory>
#include <utility>
#include <vector>

#include "chess/move.hpp"
#include "solve/promotions.hpp"
#include "store/subtable_source.hpp"

namespace retro {

// The slices of the pawn table being solved that its pushes reach, all solved before the slice that
// pushes: Tables over their own index (IndexScheme(material, config)).
using PushTargets = std::vector<std::shared_ptr<const Table>>;

class ExitProbe {
public:
    // Finds every table one capture or promotion away in `tables`; throws if one is missing.
    // `pushes` holds the slices the pushes reach (none for a pawnless table), `promotions` the values
    // of the promotions that capture nothing when they are read in part (solve/promotions.hpp). The
    // placements given to value_after are in the slots of `scheme`, which a table and its slices
    // share. Only the exits of `movers` are asked for, and only the sub-tables they reach are found.
    ExitProbe(const IndexScheme& scheme, const SubtableSource& tables, PushTargets pushes = {},
              PromotionTargets promotions = {}, SideSet movers = BOTH_SIDES);

    // The value for the opponent (to move next) after the side to move in pos (placement p, entry
    // `index` of the scheme) plays m, which captures, promotes or pushes a pawn. A double push that
    // allows en passant is worth the opponent's best reply, the en passant captures included. The
    // index is needed for pushes (scheme is then a slice) and promotions read in part.
    Dtm value_after(const Position& pos, const Placement& p, const Move& m, uint64_t index = NO_INDEX) const;
    static constexpr uint64_t NO_INDEX = ~uint64_t(0);
    // The entry of a sub-table that m (a capture or promotion by `side` in placement p) reaches,
    // asked for ahead of its value (read_asked): a promotion's table is as large as the table solved,
    // and reached at random. No table: m's value is not an entry of one.
    struct Asked {
        const Table* table;
        Color to_move;
        uint64_t entry;
    };
    Asked ask(Color side, const Placement& p, const Move& m) const;
    static Dtm read_asked(const Asked& asked) { return asked.table->value(asked.to_move, asked.entry); }

    // The value of a capture or promotion (no en passant) along a run of entries in which the man in
    // one slot alone moves: fixed when he captures, else the entry reached is a step from one index
    // per square of his (LinearIndex); Entry when it is neither (a king or a pawn takes him, the
    // kings share the diagonal, like men, a promotion read in part): each entry's is looked up whole.
    // A push along such a run reaches the entry of another slice a fixed step from each entry's own
    // index (Step).
    struct RunExit {
        enum class Kind { Fixed, Linear, Step, Entry } kind;
        Dtm fixed = DTM_DRAW;
        const Table* table = nullptr;
        Color to_move = WHITE;
        bool flip = false;  // the table reached holds the material with colours swapped
        IndexScheme::LinearIndex index{};
        uint64_t step = 0;  // Step: added to the pushing entry's index, modulo 2^64
    };
    // Capture or promotion m of `side` in placement p, along the run of the man in `slot`.
    RunExit run_exit(const Placement& p, Color side, const Move& m, int slot) const;
    // Push m of the side to move in pos, entry `index` of a slice, along a run in which the kings
    // stand: Entry when it is a double push the opponent may take en passant.
    RunExit run_push(const Position& pos, const Move& m, uint64_t index) const;
    // A Linear run exit's value with the moving man on s.
    static Dtm run_value(const RunExit& exit, Square s) {
        assert(exit.kind == RunExit::Kind::Linear);
        return exit.table->value(exit.to_move, exit.index.at(exit.flip ? flip_rank(s) : s));
    }

private:
    static constexpr int NONE = 6;  // no capture / no promotion, in the route key
    struct Route {
        const Table* table = nullptr;  // nullptr: bare kings, a draw (or read in part)
        bool flip = false;             // the sub-table holds this material with colours swapped
        bool in_part = false;          // a promotion read in part
        std::array<int8_t, PIECE_TYPE_COUNT * 2> first_slot{};  // sub-table slot of (colour, type)
    };
    static int key(Color side, int victim, int promotion) { return (side * 7 + victim) * 7 + promotion; }
    static void set_slots(Route& route, const IndexScheme& scheme);
    // The square of the man m captures (NO_SQUARE if none) and the route of m: nullptr for a push.
    const Route* route_of(const Placement& p, Color side, const Move& m, Square& victim_square) const;
    // The placement of route.table that m reaches; `tracked` is the slot there of the man in slot
    // `track` of p (-1: none).
    Placement placement_reached(const Route& route, const Placement& p, const Move& m, Square victim_square,
                                int track, int& tracked) const;
    // The entry of route.table that m reaches, and its side to move.
    std::pair<Color, uint64_t> entry_reached(const Route& route, const Placement& p, Color side,
                                             const Move& m, Square victim_square) const;
    // The value of the entry m reaches, for the opponent of `side`, en passant aside.
    Dtm entry_value_after(const Placement& p, Color side, const Move& m, uint64_t index) const;
    // The value of a promotion read in part, from entry `index`.
    Dtm promoted_value(Color side, const Move& m, uint64_t index) const;
    // The value of a push from entry `index` of a slice: the entry of the slice reached with the
    // same kings and pieces, a step from `index`.
    Dtm pushed_value(Color side, const Move& m, uint64_t index) const;
    // The slice that push m from entry `index` reaches, and that entry there.
    std::pair<const Table*, uint64_t> pushed_entry(const Move& m, uint64_t index) const;
    // Where the pushes of a slice lead, by the pushing entry's image, the pawn's square (whose
    // colour the image tells) and the push, single or double: the slice reached and the image its
    // pawns fall in. Looked up for every push the solver reads, so set once instead of searched.
    struct PushRoute {
        const Table* slice = nullptr;
        int image = 0;
    };
    static size_t push_key(int image, Square from, Square to) {
        return (size_t(image) * 64 + size_t(from)) * 2 + (to - from == 16 || from - to == 16);
    }
    void set_push_routes();

    const IndexScheme& scheme_;
    const SideSet movers_;
    PushTargets pushes_;
    PromotionTargets promotions_;
    std::vector<std::shared_ptr<const Table>> keep_;
    std::array<Route, 2 * 7 * 7> routes_{};
    std::array<PushRoute, 2 * 64 * 2> push_routes_{};
};

}  // namespace retro
