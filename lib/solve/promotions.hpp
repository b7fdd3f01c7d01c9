// Promotions read in part. A promotion that captures nothing keeps the number of men: the pawn of a
// one-pawn table promotes into pawnless tables as large as the table itself (KNNNvKP into KNNNvKQ,
// KNNNvKR, KNNNvKB, KNNNvKN), which the solver would otherwise hold whole. A slice whose pawn stands
// on its seventh rank needs of them only the entries its promotions reach: the new piece on the
// square the pawn promoted on, the other men as in the slice. They are read once when the slice
// starts, by one pass over each table's file, into an array over the slice's own index.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "store/subtable_source.hpp"

namespace retro {

// The values one promotion reaches from every entry of a slice.
struct PromotedValues {
    Color side;       // the side that promotes, to move in the slice's entries
    Square from;      // the pawn's square in the slice's first image (IndexScheme::slice_config)
    PieceType piece;  // what it becomes
    // Over the slice's index, `side` to move: the value of the position after the promotion, for
    // the opponent (to move then). Entries where the promotion is not legal hold anything.
    std::shared_ptr<const Table> values;
};

// The promotions of one slice that capture nothing, when they are read in part (`in_part`): then
// ExitProbe takes their values from here and does not load the tables they reach.
struct PromotionTargets {
    bool in_part = false;
    std::vector<PromotedValues> values;
    const PromotedValues* find(Color side, Square from, PieceType piece) const {
        for (const PromotedValues& v : values)
            if (v.side == side && v.from == from && v.piece == piece) return &v;
        return nullptr;
    }
};

// The promotions of every pawn of slice `slice` on its seventh rank, each piece, read in part from
// the tables they reach in `tables` (SubtableSource::values; values settled by exits or of a dropped
// side are probed one by one). Each table is read once, in parallel runs. Returns early, with
// values missing, once `stop` is raised (the slice's first pass then stops too). Throws SolveError
// when a table is missing.
PromotionTargets read_promotions(const IndexScheme& slice, const SubtableSource& tables,
                                 const std::atomic<bool>* stop = nullptr);

// Bytes read_promotions holds for slice `slice`: a byte per entry for each promotion.
uint64_t promotions_memory(const IndexScheme& slice);

}  // namespace retro
