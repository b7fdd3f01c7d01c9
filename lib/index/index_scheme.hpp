// The perfect index of a material: every position <-> an integer in [0, size()), dense.
//
// Layout, most significant first: the canonical king pair (462 pawnless, 1806 with pawns), then one
// digit per group of identical pieces (white Q R B N P, then black), each the rank of the group's
// squares as a combination (colex order). Pieces other than pawns choose among the 62 squares the
// kings leave free; pawns among the 48 squares of ranks 2-7. Entries whose pieces collide, and
// non-canonical twins of diagonal-symmetric placements, are holes.
//
// A slice of a pawn table (index/pawn_slices.hpp) has an index of its own in the same layout: its
// pawns are fixed, and the king-pair digit counts each pair once per image of the slice's pawns.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <optional>
#include <vector>

#include "index/fast_divisor.hpp"
#include "index/material.hpp"
#include "index/pawn_config.hpp"
#include "index/symmetry.hpp"

namespace retro {

// The squares of a material's men in slot order: white king, black king, then the groups of
// identical pieces (white Q R B N P, then black Q R B N P).
struct Placement {
    std::array<Square, MAX_MEN> square{};

    // The slot of the man on s, which must hold one of the first `men` (a move's from-square does;
    // encode_moved would read past its tables with `men`).
    int slot_of(Square s, int men) const {
        int i = 0;
        while (i < men && square[i] != s) ++i;
        assert(i < men);
        return i;
    }
};

class IndexScheme {
public:
    explicit IndexScheme(const Material& material);
    // The slice of a pawn table whose pawns stand on `slice` (canonical: canonical_mirror(slice) ==
    // slice) or on its mirror image: pairs 0 .. 1805 of the king-pair digit have the pawns on
    // `slice`, pairs 1806 .. 3611 on the mirror image (none when the two are the same). The pawn
    // groups' digits have radix 1. Throws std::invalid_argument when `slice` does not fit the material.
    IndexScheme(const Material& material, const PawnConfig& slice);

    const Material& material() const { return material_; }
    bool is_slice() const { return slice_; }
    uint64_t size() const { return size_; }
    // The radices of the index's digits, most significant first: the king pair, then each group of
    // like men (an index is read in this mixed radix; store/digit_order.hpp permutes the digits).
    std::vector<uint64_t> digit_radices() const;
    // The digit of the group of the man in `slot` (0 for a king: the king-pair digit).
    size_t digit_of_slot(int slot) const { return slot < 2 ? 0 : size_t(slot_group_[slot]) + 1; }
    // A man's digit square: pieces count among the 62 squares the kings (on low and high) leave
    // free, pawns among the 48 of ranks 2-7.
    static int digit_square(Square s, PieceType t, Square low, Square high) {
        return t == PAWN ? s - 8 : s - (s > low) - (s > high);
    }
    // The digit squares (bit x for digit square x) of a group of `count` like men whose digit is
    // `rank`: a combination in colex order, whatever the kings.
    static uint64_t combination_digits(int count, uint64_t rank);
    // Whether digit d (0 the king pair, then the groups) places pawns.
    bool is_pawn_digit(size_t d) const { return d > 0 && groups_[d - 1].type == PAWN; }
    // The pawn digits' values when the pawns stand on c (the other digits 0), by digit.
    std::vector<uint64_t> pawn_digits(const PawnConfig& c) const;
    bool has_pawns() const { return pawns_; }
    int men() const { return men_; }
    Piece piece_of_slot(int slot) const { return slot_piece_[slot]; }

    // Index of a position with this material (side to move and en passant are not part of it).
    uint64_t encode(const Position& pos) const;
    uint64_t encode(const Placement& p) const;
    // Index after the man in `slot` of the canonical placement p (decoded from entry idx) moves to
    // the empty square `to`. Cheap when a piece other than a king moves. Sets *reoriented when the
    // result may have needed a symmetry: indices reached without one differ whenever the moves do.
    // In a slice, a pawn cannot move (its move leaves the slice).
    uint64_t encode_moved(uint64_t idx, const Placement& p, int slot, Square to,
                          bool* reoriented = nullptr) const {
        uint64_t moved = 0;
        for_each_moved(idx, p, slot, square_bb(to), [&](uint64_t i, bool r) {
            moved = i;
            if (reoriented) *reoriented = r;
        });
        return moved;
    }
    // Calls f(index, reoriented) as encode_moved would give them, for the man in `slot` moving to
    // each of the empty squares `targets`. A lone piece's digit is its square: one step from the
    // entry's index per target. Inline: the sweeps call it for every man of every entry they settle.
    template <class F>
    void for_each_moved(uint64_t idx, const Placement& p, int slot, Bitboard targets, F&& f) const {
        const Square wk = p.square[0], bk = p.square[1];
        if (kings_->diagonal[wk][bk]) {
            for (bool reoriented; targets;) {
                const uint64_t moved = encode_reoriented(idx, p, slot, pop_lsb(targets), &reoriented);
                f(moved, reoriented);
            }
            return;
        }
        if (slot < 2) {
            for_each_king_moved(idx, p, slot, targets, f);
            return;
        }
        // The kings stay put, so the orientation stays canonical: only this group's digit changes.
        const Group& g = groups_[size_t(slot_group_[slot])];
        assert(!g.fixed);  // a slice's pawns move out of it
        if (g.count > 1) {
            while (targets) f(encode_group_moved(idx, p, slot, pop_lsb(targets)), false);
            return;
        }
        const Square low = std::min(wk, bk), high = std::max(wk, bk);
        const uint64_t base = idx - uint64_t(digit_square(p.square[slot], g.type, low, high)) * g.stride;
        // digit_square as the square less a count of the squares it skips below it (the kings for a
        // piece, the first rank for a pawn): no comparison that waits on the last target's index.
        const Bitboard skipped = g.type == PAWN ? RANK_1 : square_bb(wk) | square_bb(bk);
        while (targets) {
            const Square to = pop_lsb(targets);
            f(base + uint64_t(to - popcount(skipped & (square_bb(to) - 1))) * g.stride, false);
        }
    }

    // The index of q as a function of the square of the man in `slot`, the other men kept: his
    // digit square under q's orientation, times his group's stride, plus the rest.
    struct LinearIndex {
        uint64_t base, stride;
        const Square* oriented;  // by square: where q's symmetry takes it
        Square low, high;        // the kings, oriented
        uint64_t at(Square s) const {
            const Square t = oriented[s];
            return base + uint64_t(t - (t > low) - (t > high)) * stride;  // a piece's digit_square
        }
    };
    // Set when neither the orientation nor the other digits depend on that square: the man is a
    // lone piece other than a king, the kings stand off the diagonal, and the scheme is no slice.
    std::optional<LinearIndex> linear_in(const Placement& q, int slot) const;

    // True when both kings stand on the a1-h8 diagonal of a pawnless placement, where a move of any
    // man may change the orientation (encode_moved then re-orients).
    bool kings_on_diagonal(const Placement& p) const { return kings_->diagonal[p.square[0]][p.square[1]]; }

    // In a slice: the index, in the whole table's scheme (IndexScheme(material())), of entry idx.
    uint64_t table_index(uint64_t idx) const;
    // In a slice: the entries of a run of table_run() (runs start at its multiples) stand
    // table_run_stride() apart in the whole table, so a walk in order needs table_index once a run.
    uint64_t table_run() const;
    uint64_t table_run_stride() const;
    // In a slice: its pawns in its first image (canonical_mirror), the slice's name.
    const PawnConfig& slice_config() const { return images_[0]; }
    // In a slice: the entry with the kings and pieces of entry idx of any slice of the same table
    // (its pawns elsewhere) and the pawns of this slice's image `image`: a push's index, a step.
    uint64_t with_image(uint64_t idx, int image) const {
        const uint64_t pair_digit = by_pair_stride_.quotient(idx);
        return (uint64_t(image) * uint64_t(kings_->count) + king_pair(pair_digit)) * pair_stride_ +
               (idx - pair_digit * pair_stride_);
    }
    // In a slice: the image whose pawns entry idx holds (0: slice_config(), 1: its mirror image). A
    // comparison, not a division: a king's un-move in a slice asks it.
    int image_of_entry(uint64_t idx) const { return idx >= pair_stride_ * uint64_t(kings_->count) ? 1 : 0; }
    // Whether entries a and b have one king-pair digit (in a slice, one image too).
    bool same_king_pair(uint64_t a, uint64_t b) const {
        return by_pair_stride_.quotient(a) == by_pair_stride_.quotient(b);
    }

    // Places the men of entry idx in canonical orientation. Returns false for a hole: colliding
    // men or the non-canonical twin of another entry.
    bool decode(uint64_t idx, Placement& p) const;
    // The same into a position (side to move untouched, no en passant square).
    bool decode(uint64_t idx, Position& pos) const;
    // When entries `from`, placed in p, and `to` differ only in the digit that changes fastest, a
    // lone man's: places him for `to` and returns his slot (p may then collide, as decode's would).
    // Otherwise -1, p untouched. Cheaper than a decode when a walk takes near entries in order.
    int step_fastest_man(uint64_t from, uint64_t to, Placement& p) const;
    // The slot of the lone man whose digit changes fastest, or -1 when that digit ranks several.
    int fastest_slot() const { return fastest_lone_ < 0 ? -1 : groups_[size_t(fastest_lone_)].first_slot; }
    // Entry `to` into p and pos (its side to move untouched), which hold entry `from`: the fastest man
    // stepped when he alone moved, `to` decoded otherwise. For entries, not holes.
    void place_after(uint64_t from, uint64_t to, Placement& p, Position& pos) const;
    Position to_position(const Placement& p) const;
    Placement to_placement(const Position& pos) const;

    // How many board positions (symmetric images) the entry of this canonical position stands for.
    int weight(const Position& canonical) const;

private:
    friend class IndexCursor;
    struct Group {
        Color color;
        PieceType type;
        int first_slot;
        int count;
        int squares;                // 62 for pieces, 48 for pawns
        uint64_t size;              // 1 for the pawns of a slice, which stand where the slice says
        uint64_t stride;            // product of the sizes of the groups after this one
        bool fixed = false;         // the pawns of a slice: placed with the kings (place_kings)
        uint64_t table_stride = 0;  // in a slice: the group's stride in the whole table's scheme
        FastDivisor by_size{};      // size, as decode divides by it
    };

    void set_strides();
    // The king pair of a pair digit: a slice's digit counts the pairs of its first image, then those
    // of its second (a comparison, not a division).
    uint64_t king_pair(uint64_t pair_digit) const {
        const uint64_t pairs = uint64_t(kings_->count);
        return pair_digit >= pairs ? pair_digit - pairs : pair_digit;
    }
    // In a slice: the group of the last index digit that is not fixed (nullptr: the kings alone).
    const Group* last_free_group() const;
    // The men the king-pair digit places: the kings and, in a slice, the pawns of its image.
    void place_kings(uint64_t pair_digit, Placement& p) const;
    // In a slice: 0 when the pawns of placement q stand on the slice, 1 on its mirror image.
    int image_of(const Placement& q) const;
    // encode(p) with p's pawns, in a slice, standing on `image` (known when only a king moved).
    uint64_t encode(const Placement& p, int image) const;

    // What a king's move that keeps the pair canonical leaves of an entry's index: the pieces'
    // digits, their lone men's squares counted around the other king alone (a lone man loses one
    // more for the moved king below it), and a slice's image.
    struct KingMoveBase {
        // The squares of the lone pieces (not pawns), whose digits count the moved king's square.
        Bitboard lone_squares = 0;
        // The index less the king pair's part, when c of those pieces stand below the moved king: the
        // king pairs of the images before the entry's, and the lone men's digits, each piece above
        // the king's square one less.
        std::array<uint64_t, MAX_MEN + 1> rest{};
    };
    // Of placement p (canonical, or its image under the symmetry a king's move needs), its pawns
    // (in a slice) on `image`.
    KingMoveBase king_move_base(const Placement& p, int slot, int image) const;
    // The index of p (and its base) with the king in `slot` on `to`, a canonical pair off the diagonal.
    uint64_t king_moved(const KingMoveBase& base, const Placement& p, int slot, Square to) const {
        const Square other = p.square[1 - slot];
        const Square wk = slot == 0 ? to : other, bk = slot == 0 ? other : to;
        assert(!(base.lone_squares & square_bb(to)));
        uint64_t moved = uint64_t(kings_->number[wk][bk]) * pair_stride_ +
                         base.rest[size_t(popcount(base.lone_squares & (square_bb(to) - 1)))];
        if (several_) moved += ranks_of_several(p, std::min(wk, bk), std::max(wk, bk));
        return moved;
    }
    // The indices of a king's moves that need a symmetry (at most a king's eight).
    struct ReorientedMoves {
        std::array<uint64_t, 8> index;
        int count = 0;
    };
    // encode_moved of the king in `slot` to each of `targets`, none of which keeps the pair canonical
    // as it stands: the men are turned once for all the targets that one symmetry brings back.
    void reoriented_king_moves(uint64_t idx, const Placement& p, int slot, Bitboard targets,
                               ReorientedMoves& out) const;
    // encode_moved of the king in `slot` to each of `targets`, the kings off the diagonal: a move
    // is one king-pair digit and a few comparisons, on the board as it stands or turned.
    template <class F>
    void for_each_king_moved(uint64_t idx, const Placement& p, int slot, Bitboard targets, F&& f) const {
        assert(slot < 2 && !kings_->diagonal[p.square[0]][p.square[1]]);
        const Bitboard as_is = kings_->oriented_by[slot == 0 ? WHITE : BLACK][p.square[1 - slot]][IDENTITY];
        if (targets & ~as_is) {
            ReorientedMoves moves;
            reoriented_king_moves(idx, p, slot, targets & ~as_is, moves);
            for (int k = 0; k < moves.count; ++k) f(moves.index[size_t(k)], true);
        }
        if (!(targets &= as_is)) return;
        const KingMoveBase base = king_move_base(p, slot, slice_ ? image_of_entry(idx) : 0);
        while (targets) {
            [[maybe_unused]] bool reoriented;
            const Square to = pop_lsb(targets);
            const uint64_t moved = king_moved(base, p, slot, to);
            assert(moved == encode_reoriented(idx, p, slot, to, &reoriented) && !reoriented);
            f(moved, false);
        }
    }
    // The groups of several men's part of the index, the kings on low and high.
    uint64_t ranks_of_several(const Placement& p, Square low, Square high) const;
    // encode_moved when a king moves or the kings share the diagonal: the placement is encoded again.
    uint64_t encode_reoriented(uint64_t idx, const Placement& p, int slot, Square to, bool* reoriented) const;
    // encode_moved of a man in a group of several: the group's rank again.
    uint64_t encode_group_moved(uint64_t idx, const Placement& p, int slot, Square to) const;
    // Group g's digit. Inline for a lone man, whose digit is its square: every king move re-encodes
    // the whole placement.
    uint64_t group_rank(const Group& g, const Placement& p, Square low, Square high) const {
        if (g.count == 1 && !g.fixed)
            return uint64_t(digit_square(p.square[g.first_slot], g.type, low, high));
        return g.fixed ? 0 : rank_of_several(g, p, low, high);
    }
    uint64_t rank_of_several(const Group& g, const Placement& p, Square low, Square high) const;
    // Writes the squares of group g for digit `rank` into p (which may then collide).
    void unrank(const Group& g, uint64_t rank, Square low, Square high, Placement& p) const;
    // A placement whose kings share the diagonal and whose transpose has a smaller index.
    bool is_diagonal_twin(const Placement& p) const;
    // The index of p under symmetry `first`, then `second`, its pawns (in a slice) then on `image`.
    uint64_t encode_oriented(const Placement& p, Symmetry first, Symmetry second, int image) const;
    // The index of p as it stands (already in canonical orientation), its pawns on `image`.
    uint64_t encode_canonical(const Placement& p, int image) const;

    Material material_;
    bool pawns_;
    int men_ = 2;
    const KingPairs* kings_;
    std::vector<Group> groups_;
    std::array<Piece, MAX_MEN> slot_piece_{};
    std::array<int8_t, MAX_MEN> slot_group_{};
    // The slots of each colour and of each type, as bits: to_position ORs their squares together.
    std::array<uint8_t, 2> slots_of_color_{};
    std::array<uint8_t, PIECE_TYPE_COUNT> slots_of_type_{};
    uint64_t size_ = 0;
    bool several_ = false;   // a group of several men that a slice does not fix
    int fastest_lone_ = -1;  // the last group that a slice does not fix, when it is a lone man
    // The groups of one man that a slice does not fix, pieces first: a king's move changes a piece's
    // digit by at most one, a pawn's not at all.
    struct LoneMan {
        int slot;
        uint64_t stride;
        PieceType type;
    };
    std::array<LoneMan, MAX_MEN> lone_men_{};
    int lone_pieces_ = 0, lone_men_count_ = 0;
    bool slice_ = false;
    std::array<PawnConfig, 2> images_{};  // a slice's pawns, then their mirror image
    uint64_t pair_radix_ = 0;             // king pairs, times the images of a slice
    uint64_t pair_stride_ = 0;            // entries per digit of the pair: the product of the groups' sizes
    FastDivisor by_pair_stride_;
    // In a slice: the whole table's stride of the king pair, and the part of its index that the
    // pawns of each image give.
    uint64_t table_pair_stride_ = 0;
    std::array<uint64_t, 2> table_pawn_offset_{};
};

}  // namespace retro
