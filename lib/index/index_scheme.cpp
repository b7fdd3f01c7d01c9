#include "index/index_scheme.hpp"

#include <algorithm>

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

struct SymmetryTable {
    uint8_t sq[SYMMETRY_COUNT][64];
    SymmetryTable() {
        for (Symmetry s = 0; s < SYMMETRY_COUNT; ++s)
            for (Square q = 0; q < 64; ++q) sq[s][q] = uint8_t(apply_symmetry(s, q));
    }
};
const SymmetryTable SYMMETRY;

// Square of a piece among the 62 the kings leave free, and back.
inline int skip_kings(Square s, Square low, Square high) { return s - (s > low) - (s > high); }
inline Square restore_kings(int r, Square low, Square high) {
    if (r >= low) ++r;
    if (r >= high) ++r;
    return r;
}

}  // namespace

IndexScheme::IndexScheme(const Material& material)
    : material_(material),
      pawns_(material.has_pawns()),
      kings_(pawns_ ? &pawn_king_pairs() : &pawnless_king_pairs()) {
    size_ = uint64_t(kings_->count);
    for (Color c : {WHITE, BLACK})
        for (int t = QUEEN; t <= PAWN; ++t) {
            const int k = material.count(c, PieceType(t));
            if (k == 0) continue;
            const int squares = t == PAWN ? 48 : 62;
            groups_.push_back({c, PieceType(t), k, squares, BINOMIAL.c[squares][k]});
            size_ *= groups_.back().size;
        }
}

uint64_t IndexScheme::encode_oriented(const Position& pos, Symmetry first, Symmetry second) const {
    auto map = [&](Square s) { return Square(SYMMETRY.sq[second][SYMMETRY.sq[first][s]]); };
    const Square wk = map(pos.king(WHITE)), bk = map(pos.king(BLACK));
    const Square low = std::min(wk, bk), high = std::max(wk, bk);
    uint64_t idx = uint64_t(kings_->number[wk][bk]);
    for (const Group& g : groups_) {
        int sq[MAX_MEN];
        int n = 0;
        for (Bitboard b = pos.pieces(g.color, g.type); b;) {
            const Square s = map(pop_lsb(b));
            sq[n++] = g.type == PAWN ? s - 8 : skip_kings(s, low, high);
        }
        for (int i = 1; i < n; ++i)  // insertion sort: groups hold at most a few pieces
            for (int j = i; j > 0 && sq[j - 1] > sq[j]; --j) std::swap(sq[j - 1], sq[j]);
        uint64_t rank = 0;
        for (int i = 0; i < n; ++i) rank += BINOMIAL.c[sq[i]][i + 1];
        idx = idx * g.size + rank;
    }
    return idx;
}

uint64_t IndexScheme::encode(const Position& pos) const {
    const Square wk = pos.king(WHITE), bk = pos.king(BLACK);
    const Symmetry sym = kings_->symmetry[wk][bk];
    uint64_t idx = encode_oriented(pos, sym, IDENTITY);
    if (kings_->diagonal[wk][bk]) idx = std::min(idx, encode_oriented(pos, sym, TRANSPOSE));
    return idx;
}

bool IndexScheme::decode(uint64_t idx, Position& pos) const {
    uint64_t ranks[2 * PIECE_TYPE_COUNT];
    for (size_t g = groups_.size(); g-- > 0;) {
        ranks[g] = idx % groups_[g].size;
        idx /= groups_[g].size;
    }
    const auto& kk = kings_->squares[idx];
    const Square wk = kk[0], bk = kk[1];
    const Square low = std::min(wk, bk), high = std::max(wk, bk);
    const Color side_to_move = pos.side_to_move();
    pos = Position();
    pos.set_side_to_move(side_to_move);
    pos.put({WHITE, KING}, wk);
    pos.put({BLACK, KING}, bk);
    Bitboard occupied = square_bb(wk) | square_bb(bk);
    for (size_t g = 0; g < groups_.size(); ++g) {
        const Group& group = groups_[g];
        uint64_t rank = ranks[g];
        for (int i = group.count; i > 0; --i) {
            int x = group.squares - 1;
            while (BINOMIAL.c[x][i] > rank) --x;
            rank -= BINOMIAL.c[x][i];
            const Square s = group.type == PAWN ? x + 8 : restore_kings(x, low, high);
            if (occupied & square_bb(s)) return false;
            occupied |= square_bb(s);
            pos.put({group.color, group.type}, s);
        }
    }
    return !kings_->diagonal[wk][bk] || encode_oriented(pos, IDENTITY, TRANSPOSE) >= encode_oriented(pos, IDENTITY, IDENTITY);
}

int IndexScheme::weight(const Position& canonical) const {
    if (pawns_) return 2;
    const Square wk = canonical.king(WHITE), bk = canonical.king(BLACK);
    if (kings_->diagonal[wk][bk] &&
        encode_oriented(canonical, IDENTITY, TRANSPOSE) == encode_oriented(canonical, IDENTITY, IDENTITY))
        return 4;
    return 8;
}

}  // namespace retro
