// A pawn table in slices: the entries whose pawns stand on the same squares, up to the left-right
// mirror (a king move may mirror the whole board, so both images form one slice). Kings and pieces
// move within a slice; a pawn's push reaches another slice of the same table, and captures and
// promotions reach one slice of a sub-table, or a whole pawnless one. Solved from the most advanced
// pawns backwards, a slice needs in memory its own state and the slices it reaches, not the whole
// table and all its sub-tables. This file counts what that takes (docs/algorithm.md, "Pawn slices").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "index/dependencies.hpp"
#include "index/pawn_config.hpp"

namespace retro {

// A slice one move away: of `material` (canonical) with its pawns on `config` (in that orientation,
// canonical under the mirror; empty for a pawnless material, which is reached whole), entered with
// `sides` to move.
struct SliceReached {
    Material material;
    PawnConfig config;
    SideSet sides;
};

// Ranks advanced, summed over the pawns of both colours: a push adds one or two.
int pawn_advance(const PawnConfig& c);

// Every configuration of m's pawns, each the smaller of itself and its mirror image, the most
// advanced first (pawn_advance): a push reaches a configuration listed earlier, the order a solver by
// slices needs; the configurations of equal advance (a wave) cannot reach one another.
std::vector<PawnConfig> pawn_configs(const Material& m);

// Index entries per side to move of one slice of m (both mirror images: an upper bound), or of the
// whole table when m has no pawns.
uint64_t slice_entries(const Material& m);

// Whether m's slices are solved side by side, a thread each, a wave of equal advance at a time: when
// they have fewer than `below` entries per side (by default 2^19: KPvKP's 3,612, KRPvKP's
// 223,944), whose layers are too small for the threads of a parallel loop to keep busy. A larger
// slice is solved alone, its loops parallel, with checkpoints inside it.
constexpr uint64_t WAVE_SLICE_ENTRIES = uint64_t(1) << 19;
bool solved_in_waves(const Material& m, uint64_t below = WAVE_SLICE_ENTRIES);

// A wave goes in batches of at most this many slices per thread. The slices a batch has solved are
// held until the batch ends, and checkpoints fall between batches: a wave of KRPPvKP holds thousands
// of slices, over a gigabyte together. Each batch ends in a join where a thread may wait for the
// other's last slice, so batches are large: at 128 the waves of the 5-man tables with a piece beside
// two pawns stay whole at 2 threads; those of KPPvKP are split, but its slices hold the kings alone
// and a join waits little.
constexpr int WAVE_BATCH_PER_THREAD = 128;
// The end of the batch that starts at slice k of `configs` (pawn_configs' order), for `threads`:
// the rest of k's wave, at most WAVE_BATCH_PER_THREAD * threads slices.
int wave_batch_end(const std::vector<PawnConfig>& configs, int k, int threads);

// The slices that the moves of either side from slice c of m reach, each once, with the sides to
// move they are entered with: pushes (and the en passant captures a double push allows), captures,
// promotions.
std::vector<SliceReached> slices_reached(const Material& m, const PawnConfig& c);

// Which slice of a pawn table holds each entry of the table, and where in the slice's own index
// (IndexScheme(m, config)): the inverse of IndexScheme::table_index over all slices.
class SliceLocator {
public:
    explicit SliceLocator(const Material& m);  // m has pawns
    struct Where {
        uint32_t slice;  // in pawn_configs(m) order
        uint64_t index;  // in the slice's index
    };
    // nullopt for an entry whose pawns collide (a hole of every slice).
    std::optional<Where> locate(uint64_t table_idx) const;

    // The same digit by digit, for walks that step the digits (store/table_values.hpp). The whole
    // index's digits (IndexScheme::digit_radices) fall in two kinds: the pawn digits, read together
    // as one number, the pawn tuple (each pawn digit in index order, the first most significant),
    // name the slice and image; the others weigh in the slice's index.
    const std::vector<uint64_t>& radices() const { return radix_; }
    bool is_pawn_digit(size_t d) const { return pawn_digit_[d]; }
    // The weight of a digit other than a pawn digit in the slice's index.
    uint64_t slice_weight(size_t d) const { return slice_weight_[d]; }
    // The slice of a pawn tuple, and the part of the slice's index its image gives; nullopt when its
    // pawns collide.
    std::optional<Where> slice_of_tuple(uint64_t tuple) const {
        const uint32_t s = slice_of_[tuple];
        if (s == NONE) return std::nullopt;
        return Where{s >> 1, (s & 1) * pairs_ * piece_entries_};
    }

private:
    static constexpr uint32_t NONE = ~uint32_t(0);
    std::vector<uint64_t> radix_;  // the whole index's digits, most significant first
    std::vector<bool> pawn_digit_;
    std::vector<uint64_t> slice_weight_;  // by digit (0 for the pawn digits)
    uint64_t pairs_ = 0;                  // king pairs of one image
    uint64_t piece_entries_ = 1;          // the pieces' digits of one king pair
    std::vector<uint32_t> slice_of_;      // by pawn tuple: slice << 1 | image, or NONE
};

// The slice of m that needs the most memory to be solved: a state byte per entry and side of its
// own, and a byte per entry of each side reached of the slices it reaches, those of pawnless
// sub-tables (promotions, or the capture of the last pawn) counted apart: they are whole tables.
struct SlicePeak {
    PawnConfig config;
    uint64_t own_bytes = 0;
    uint64_t pawn_slices_bytes = 0;
    uint64_t pawnless_bytes = 0;
    uint64_t total() const { return own_bytes + pawn_slices_bytes + pawnless_bytes; }
};
SlicePeak slice_peak(const Material& m);

}  // namespace retro
