#include "index/index_scheme.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace retro {

namespace {

struct Binomials {
    uint64_t c[65][MAX_MEN + 1] = {};
    Binomials() {
        for (int n = 0; n <= 64; ++n) {
            c[n][0] = 1;
            for (int k = 1; k <= MAX_MEN; ++k) c[n][k] = n == 0 ? 0 : c[n - 1][k - 1] + c[n - 1][k];
        }
    }
};
const Binomials BINOMIAL;

// For groups of 2 to 4 men: the largest x with C(x, k) <= rank, by table (the colex unranking step).
struct TopSquares {
    static constexpr int MAX_K = 4;
    std::vector<uint8_t> top[MAX_K + 1];
    TopSquares() {
        for (int k = 2; k <= MAX_K; ++k) {
            top[k].resize(BINOMIAL.c[62][k]);
            for (int x = k - 1; x < 62; ++x)
                for (uint64_t r = BINOMIAL.c[x][k]; r < BINOMIAL.c[x + 1][k]; ++r) top[k][r] = uint8_t(x);
        }
    }
    int operator()(int k, uint64_t rank, int squares) const {
        if (k <= MAX_K) return top[k][rank];
        int x = squares - 1;
        while (BINOMIAL.c[x][k] > rank) --x;
        return x;
    }
};
const TopSquares TOP_SQUARE;

// Calls f(i, x) for the men i = count - 1 .. 0 of the combination of rank `rank` in colex order, x
// the i-th smallest of its digit squares (of `squares`).
template <class F>
void for_each_colex(int count, uint64_t rank, int squares, F&& f) {
    for (int i = count; i > 0; --i) {
        const int x = i == 1 ? int(rank) : TOP_SQUARE(i, rank, squares);  // C(x, 1) = x
        rank -= BINOMIAL.c[x][i];
        f(i - 1, x);
    }
}

struct SymmetryTable {
    Square sq[SYMMETRY_COUNT][64];
    SymmetryTable() {
        for (Symmetry s = 0; s < SYMMETRY_COUNT; ++s)
            for (Square q = SQ_A1; q <= SQ_H8; ++q) sq[s][q] = apply_symmetry(s, q);
    }
};
const SymmetryTable SYMMETRY;

// The inverse of IndexScheme::digit_square.
inline Square expand(int r, PieceType t, Square low, Square high) {
    if (t == PAWN) return Square(r + 8);
    if (r >= low) ++r;
    if (r >= high) ++r;
    return Square(r);
}

}  // namespace

IndexScheme::IndexScheme(const Material& material)
    : material_(material),
      pawns_(material.has_pawns()),
      kings_(pawns_ ? &pawn_king_pairs() : &pawnless_king_pairs()) {
    slot_piece_[0] = {WHITE, KING};
    slot_piece_[1] = {BLACK, KING};
    slot_group_[0] = slot_group_[1] = -1;
    for (Color c : {WHITE, BLACK})
        for (int t = QUEEN; t <= PAWN; ++t) {
            const int k = material.count(c, PieceType(t));
            if (k == 0) continue;
            const int squares = t == PAWN ? 48 : 62;
            for (int i = 0; i < k; ++i) {
                slot_piece_[men_ + i] = {c, PieceType(t)};
                slot_group_[men_ + i] = int8_t(groups_.size());
            }
            groups_.push_back({c, PieceType(t), men_, k, squares, BINOMIAL.c[squares][k], 0});
            men_ += k;
        }
    for (int slot = 0; slot < men_; ++slot) {
        slots_of_color_[slot_piece_[slot].color] |= uint8_t(1u << slot);
        slots_of_type_[slot_piece_[slot].type] |= uint8_t(1u << slot);
    }
    pair_radix_ = uint64_t(kings_->count);
    set_strides();
}

IndexScheme::IndexScheme(const Material& material, const PawnConfig& slice) : IndexScheme(material) {
    const auto fits = [&](Color c) {
        return popcount(slice.pawns[c]) == material.count(c, PAWN) && !(slice.pawns[c] & ~PAWN_RANKS);
    };
    if (!pawns_ || !fits(WHITE) || !fits(BLACK) || (slice.pawns[WHITE] & slice.pawns[BLACK]) ||
        canonical_mirror(slice) != slice)
        throw std::invalid_argument("no slice of " + material.name() + " has these pawns");
    slice_ = true;
    images_ = {slice, mirrored(slice)};
    table_pair_stride_ = size_ / pair_radix_;
    for (int image = 0; image < 2; ++image)
        for (const Group& g : groups_) {
            if (g.type != PAWN) continue;
            Placement p;
            Bitboard b = images_[image].pawns[g.color];
            for (int i = 0; i < g.count; ++i) p.square[g.first_slot + i] = pop_lsb(b);
            table_pawn_offset_[image] += group_rank(g, p, SQ_A1, SQ_A1) * g.stride;
        }
    pair_radix_ = uint64_t(kings_->count) * (images_[1] == slice ? 1 : 2);
    for (Group& g : groups_) {
        g.table_stride = g.stride;
        if (g.type == PAWN) {
            g.fixed = true;
            g.size = 1;
        }
    }
    set_strides();
}

uint64_t IndexScheme::table_index(uint64_t idx) const {
    assert(slice_ && idx < size_);
    const uint64_t pairs = uint64_t(kings_->count), block = pair_stride_, pair = idx / block;
    uint64_t rest = idx % block;
    uint64_t out = pair % pairs * table_pair_stride_ + table_pawn_offset_[pair / pairs];
    for (const Group& g : groups_) {
        if (g.fixed) continue;
        out += rest / g.stride * g.table_stride;
        rest %= g.stride;
    }
    return out;
}

// The runs are those of the last digit of the slice's own men (the later digits are its pawns, fixed).
const IndexScheme::Group* IndexScheme::last_free_group() const {
    assert(slice_);
    for (auto g = groups_.rbegin(); g != groups_.rend(); ++g)
        if (!g->fixed) return &*g;
    return nullptr;  // the kings alone: one entry per king pair
}

uint64_t IndexScheme::table_run() const { return last_free_group() ? last_free_group()->size : 1; }

uint64_t IndexScheme::table_run_stride() const {
    return last_free_group() ? last_free_group()->table_stride : 0;
}

void IndexScheme::set_strides() {
    uint64_t stride = 1;
    several_ = false;
    for (size_t g = groups_.size(); g-- > 0;) {
        groups_[g].stride = stride;
        stride *= groups_[g].size;
        several_ |= groups_[g].count > 1 && !groups_[g].fixed;
    }
    pair_stride_ = stride;
    size_ = pair_radix_ * stride;
    fastest_lone_ = -1;
    for (size_t g = groups_.size(); g-- > 0;)
        if (!groups_[g].fixed) {
            if (groups_[g].count == 1) fastest_lone_ = int(g);
            break;
        }
    lone_men_count_ = 0;
    for (const Group& g : groups_)
        if (!g.fixed && g.count == 1) lone_men_[size_t(lone_men_count_++)] = {g.first_slot, g.stride, g.type};
    const auto pawns = std::stable_partition(lone_men_.begin(), lone_men_.begin() + lone_men_count_,
                                             [](const LoneMan& m) { return m.type != PAWN; });
    lone_pieces_ = int(pawns - lone_men_.begin());
    by_pair_stride_ = FastDivisor(pair_stride_);
    for (Group& g : groups_) {
        g.by_size = FastDivisor(g.size);
        if (size_ - 1 > g.by_size.max_dividend())
            throw std::length_error(material_.name() + ": an index of " + std::to_string(size_) +
                                    " entries is too large to decode");
    }
}

void IndexScheme::place_kings(uint64_t pair_digit, Placement& p) const {
    assert(pair_digit < pair_radix_);
    const uint64_t pair = king_pair(pair_digit);
    const auto& kk = kings_->squares[pair];
    p.square[0] = kk[0];
    p.square[1] = kk[1];
    if (!slice_) return;
    const PawnConfig& image = images_[pair == pair_digit ? 0 : 1];
    for (const Group& g : groups_) {
        if (!g.fixed) continue;
        Bitboard b = image.pawns[g.color];
        for (int i = 0; i < g.count; ++i) p.square[g.first_slot + i] = pop_lsb(b);
    }
}

int IndexScheme::image_of(const Placement& q) const {
    PawnConfig pawns;
    for (const Group& g : groups_)
        if (g.fixed)
            for (int i = 0; i < g.count; ++i) pawns.pawns[g.color] |= square_bb(q.square[g.first_slot + i]);
    assert(pawns == images_[0] || pawns == images_[1]);
    return pawns == images_[0] ? 0 : 1;
}

uint64_t IndexScheme::rank_of_several(const Group& g, const Placement& p, Square low, Square high) const {
    assert(!g.fixed && g.count > 1);
    if (g.count == 2) {  // C(lo, 1) + C(hi, 2), branch-free: the order of the pair is random
        const int a = digit_square(p.square[g.first_slot], g.type, low, high);
        const int b = digit_square(p.square[g.first_slot + 1], g.type, low, high);
        const int lo = std::min(a, b), hi = std::max(a, b);
        return uint64_t(lo + hi * (hi - 1) / 2);
    }
    int sq[MAX_MEN];
    for (int i = 0; i < g.count; ++i) {
        sq[i] = digit_square(p.square[g.first_slot + i], g.type, low, high);
        for (int j = i; j > 0 && sq[j - 1] > sq[j]; --j) std::swap(sq[j - 1], sq[j]);  // groups are tiny
    }
    uint64_t rank = 0;
    for (int i = 0; i < g.count; ++i) rank += BINOMIAL.c[sq[i]][i + 1];
    return rank;
}

uint64_t IndexScheme::encode_oriented(const Placement& p, Symmetry first, Symmetry second, int image) const {
    if (first == IDENTITY && second == IDENTITY) return encode_canonical(p, image);  // most placements
    Placement q;
    for (int s = 0; s < men_; ++s) q.square[s] = SYMMETRY.sq[second][SYMMETRY.sq[first][p.square[s]]];
    return encode_canonical(q, image);
}

uint64_t IndexScheme::encode_canonical(const Placement& p, int image) const {
    const Square wk = p.square[0], bk = p.square[1];
    const Square low = std::min(wk, bk), high = std::max(wk, bk);
    uint64_t idx = uint64_t(kings_->number[wk][bk]);
    if (slice_) idx += uint64_t(kings_->count) * uint64_t(image);
    for (const Group& g : groups_) idx = idx * g.size + group_rank(g, p, low, high);
    return idx;
}

std::vector<uint64_t> IndexScheme::digit_radices() const {
    std::vector<uint64_t> radices{pair_radix_};
    for (const Group& g : groups_) radices.push_back(g.size);
    return radices;
}

std::vector<uint64_t> IndexScheme::pawn_digits(const PawnConfig& c) const {
    std::vector<uint64_t> digits(1 + groups_.size(), 0);
    for (size_t g = 0; g < groups_.size(); ++g) {
        if (groups_[g].type != PAWN) continue;
        Placement p;
        Bitboard b = c.pawns[groups_[g].color];
        for (int i = 0; i < groups_[g].count; ++i) p.square[groups_[g].first_slot + i] = pop_lsb(b);
        Group whole = groups_[g];
        whole.fixed = false;  // a slice's pawns too: their digit in the whole table
        digits[g + 1] = group_rank(whole, p, SQ_A1, SQ_A1);
    }
    return digits;
}

uint64_t IndexScheme::encode(const Placement& p) const { return encode(p, slice_ ? image_of(p) : 0); }

uint64_t IndexScheme::encode(const Placement& p, int image) const {
    const Square wk = p.square[0], bk = p.square[1];
    const Symmetry sym = kings_->symmetry[wk][bk];
    // A pawn table's only symmetry is the mirror, which swaps a slice's images when they differ.
    if (slice_ && sym != IDENTITY && images_[0] != images_[1]) image = 1 - image;
    uint64_t idx = encode_oriented(p, sym, IDENTITY, image);
    if (kings_->diagonal[wk][bk]) idx = std::min(idx, encode_oriented(p, sym, TRANSPOSE, image));
    return idx;
}

uint64_t IndexScheme::encode(const Position& pos) const { return encode(to_placement(pos)); }

std::optional<IndexScheme::LinearIndex> IndexScheme::linear_in(const Placement& q, int slot) const {
    const Square wk = q.square[0], bk = q.square[1];
    if (slot < 2 || slice_ || kings_->diagonal[wk][bk]) return std::nullopt;
    const Group& g = groups_[size_t(slot_group_[slot])];
    if (g.count > 1 || g.type == PAWN) return std::nullopt;
    const Symmetry s = kings_->symmetry[wk][bk];
    const Square owk = SYMMETRY.sq[s][wk], obk = SYMMETRY.sq[s][bk];
    LinearIndex linear{0, g.stride, SYMMETRY.sq[s], std::min(owk, obk), std::max(owk, obk)};
    linear.base = encode(q) - linear.at(q.square[slot]);  // at() without a base: his digit's part
    return linear;
}

uint64_t IndexScheme::encode_reoriented(uint64_t idx, const Placement& p, int slot, Square to,
                                        bool* reoriented) const {
    Placement moved = p;
    moved.square[slot] = to;
    const Square wk = p.square[0], bk = p.square[1];
    if (reoriented) {
        const Square nwk = moved.square[0], nbk = moved.square[1];
        *reoriented =
            kings_->diagonal[wk][bk] || kings_->symmetry[nwk][nbk] != IDENTITY || kings_->diagonal[nwk][nbk];
    }
    return slice_ ? encode(moved, image_of_entry(idx)) : encode(moved);  // the pawns stay
}

IndexScheme::KingMoveBase IndexScheme::king_move_base(const Placement& p, int slot, int image) const {
    KingMoveBase base;
    const Square other = p.square[1 - slot];
    uint64_t digits = uint64_t(image) * uint64_t(kings_->count) * pair_stride_;
    for (int k = 0; k < lone_pieces_; ++k) base.lone_squares |= square_bb(p.square[lone_men_[k].slot]);
    // The strides of the lone pieces by the count of the others below each.
    std::array<uint64_t, MAX_MEN> stride_in_order{};
    for (int k = 0; k < lone_pieces_; ++k) {
        const Square s = p.square[lone_men_[k].slot];
        digits += uint64_t(s - (s > other)) * lone_men_[k].stride;
        stride_in_order[size_t(popcount(base.lone_squares & (square_bb(s) - 1)))] = lone_men_[k].stride;
    }
    for (int k = lone_pieces_; k < lone_men_count_; ++k)
        digits +=
            uint64_t(digit_square(p.square[lone_men_[k].slot], PAWN, SQ_A1, SQ_A1)) * lone_men_[k].stride;
    base.rest[size_t(lone_pieces_)] = digits;
    for (int c = lone_pieces_; c-- > 0;)
        base.rest[size_t(c)] = base.rest[size_t(c) + 1] - stride_in_order[size_t(c)];
    return base;
}

void IndexScheme::reoriented_king_moves(uint64_t idx, const Placement& p, int slot, Bitboard targets,
                                        ReorientedMoves& out) const {
    const auto& by_symmetry = kings_->oriented_by[slot == 0 ? WHITE : BLACK][p.square[1 - slot]];
    const int image = slice_ ? image_of_entry(idx) : 0;
    for (Symmetry s = 1; s < SYMMETRY_COUNT && targets; ++s) {
        Bitboard turned = targets & by_symmetry[s];
        if (!turned) continue;
        targets &= ~turned;
        Placement q;
        for (int m = 0; m < men_; ++m) q.square[m] = SYMMETRY.sq[s][p.square[m]];
        // A pawn table's only symmetry is the mirror, which swaps a slice's images when they differ.
        const KingMoveBase base =
            king_move_base(q, slot, slice_ && images_[0] != images_[1] ? 1 - image : image);
        while (turned) {
            [[maybe_unused]] bool reoriented;
            const Square from = pop_lsb(turned);
            const uint64_t moved = king_moved(base, q, slot, SYMMETRY.sq[s][from]);
            assert(moved == encode_reoriented(idx, p, slot, from, &reoriented) && reoriented);
            out.index[size_t(out.count++)] = moved;
        }
    }
    // The kings land on the diagonal, where the transpose folds: encoded again.
    for (bool reoriented; targets;)
        out.index[size_t(out.count++)] = encode_reoriented(idx, p, slot, pop_lsb(targets), &reoriented);
}

uint64_t IndexScheme::ranks_of_several(const Placement& p, Square low, Square high) const {
    uint64_t part = 0;
    for (const Group& g : groups_)
        if (g.count > 1 && !g.fixed) part += rank_of_several(g, p, low, high) * g.stride;
    return part;
}

uint64_t IndexScheme::encode_group_moved(uint64_t idx, const Placement& p, int slot, Square to) const {
    const Group& g = groups_[size_t(slot_group_[slot])];
    assert(!g.fixed && g.count > 1);
    Placement moved = p;
    moved.square[slot] = to;
    const Square low = std::min(p.square[0], p.square[1]), high = std::max(p.square[0], p.square[1]);
    return idx + (group_rank(g, moved, low, high) - group_rank(g, p, low, high)) * g.stride;
}

void IndexScheme::unrank(const Group& g, uint64_t rank, Square low, Square high, Placement& p) const {
    if (g.fixed) return;  // placed with the kings
    if (g.count == 1) {   // a lone man, the most common group: its digit is its square
        p.square[g.first_slot] = expand(int(rank), g.type, low, high);
        return;
    }
    for_each_colex(g.count, rank, g.squares,
                   [&](int i, int x) { p.square[g.first_slot + i] = expand(x, g.type, low, high); });
}

uint64_t IndexScheme::combination_digits(int count, uint64_t rank) {
    uint64_t digits = 0;
    for_each_colex(count, rank, 62, [&](int, int x) { digits |= uint64_t(1) << x; });
    return digits;
}

bool IndexScheme::is_diagonal_twin(const Placement& p) const {
    return kings_->diagonal[p.square[0]][p.square[1]] &&
           encode_oriented(p, IDENTITY, TRANSPOSE, 0) < encode_oriented(p, IDENTITY, IDENTITY, 0);
}

bool IndexScheme::decode(uint64_t idx, Placement& p) const {
    uint64_t ranks[2 * PIECE_TYPE_COUNT];
    for (size_t g = groups_.size(); g-- > 0;) {
        const uint64_t rest = groups_[g].by_size.quotient(idx);
        ranks[g] = idx - rest * groups_[g].size;
        idx = rest;
    }
    place_kings(idx, p);
    const Square low = std::min(p.square[0], p.square[1]), high = std::max(p.square[0], p.square[1]);
    Bitboard occupied = square_bb(p.square[0]) | square_bb(p.square[1]);
    for (size_t g = 0; g < groups_.size(); ++g) {
        unrank(groups_[g], ranks[g], low, high, p);
        for (int i = 0; i < groups_[g].count; ++i) {
            const Square s = p.square[groups_[g].first_slot + i];
            if (occupied & square_bb(s)) return false;
            occupied |= square_bb(s);
        }
    }
    return !is_diagonal_twin(p);
}

int IndexScheme::step_fastest_man(uint64_t from, uint64_t to, Placement& p) const {
    if (fastest_lone_ < 0) return -1;
    const Group& g = groups_[size_t(fastest_lone_)];
    assert(g.stride == 1);
    const uint64_t run = g.by_size.quotient(from) * g.size;
    if (to < run || to - run >= g.size) return -1;
    const Square low = std::min(p.square[0], p.square[1]), high = std::max(p.square[0], p.square[1]);
    p.square[g.first_slot] = expand(int(to - run), g.type, low, high);
    return g.first_slot;
}

void IndexScheme::place_after(uint64_t from, uint64_t to, Placement& p, Position& pos) const {
    const Placement was = p;
    if (const int slot = step_fastest_man(from, to, p); slot >= 0) {
        pos.shift(slot_piece_[size_t(slot)], was.square[size_t(slot)], p.square[size_t(slot)]);
        return;
    }
    [[maybe_unused]] const bool entry = decode(to, p);
    assert(entry);
    const Color side = pos.side_to_move();
    pos = to_position(p);
    pos.set_side_to_move(side);
}

bool IndexScheme::decode(uint64_t idx, Position& pos) const {
    Placement p;
    if (!decode(idx, p)) return false;
    const Color side_to_move = pos.side_to_move();
    pos = to_position(p);
    pos.set_side_to_move(side_to_move);
    return true;
}

Position IndexScheme::to_position(const Placement& p) const {
    // Each bitboard is written once, as one word: ORing the men into a zeroed position one by one
    // makes each read wait for a wider store that the processor cannot forward.
    std::array<Bitboard, MAX_MEN> on;
    for (int s = 0; s < men_; ++s) on[size_t(s)] = square_bb(p.square[size_t(s)]);
    const auto men = [&](unsigned slots) {
        Bitboard b = 0;
        for (; slots; slots &= slots - 1) b |= on[size_t(std::countr_zero(slots))];
        return b;
    };
    Position pos;
    for (Color c : {WHITE, BLACK}) pos.set_pieces(c, men(slots_of_color_[c]));
    for (size_t t = 0; t < slots_of_type_.size(); ++t) pos.set_pieces(PieceType(t), men(slots_of_type_[t]));
    return pos;
}

Placement IndexScheme::to_placement(const Position& pos) const {
    Placement p;
    p.square[0] = pos.king(WHITE);
    p.square[1] = pos.king(BLACK);
    for (const Group& g : groups_) {
        int slot = g.first_slot;
        for (Bitboard b = pos.pieces(g.color, g.type); b;) p.square[slot++] = pop_lsb(b);
    }
    return p;
}

int IndexScheme::weight(const Position& canonical) const {
    if (pawns_) return 2;
    const Placement p = to_placement(canonical);
    if (kings_->diagonal[p.square[0]][p.square[1]] &&
        encode_oriented(p, IDENTITY, TRANSPOSE, 0) == encode_oriented(p, IDENTITY, IDENTITY, 0))
        return 4;
    return 8;
}

}  // namespace retro
