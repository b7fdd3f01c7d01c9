#include "chess/bitboard.hpp"

#include <array>
#include <vector>

namespace retro {
namespace detail {
Magic ROOK_MAGICS[64];
Magic BISHOP_MAGICS[64];
Bitboard KING_ATTACKS[64];
Bitboard KNIGHT_ATTACKS[64];
Bitboard PAWN_ATTACKS[2][64];
}  // namespace detail

namespace {

using detail::Magic;

// Sum over all squares of 2^(relevant bits): the sizes of the fancy-magic tables.
constexpr size_t ROOK_TABLE_SIZE = 102400;
constexpr size_t BISHOP_TABLE_SIZE = 5248;
Bitboard ROOK_TABLE[ROOK_TABLE_SIZE];
Bitboard BISHOP_TABLE[BISHOP_TABLE_SIZE];

constexpr int ROOK_DIRS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BISHOP_DIRS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

Bitboard slide(Square s, const int (&dirs)[4][2], Bitboard occupied) {
    Bitboard result = 0;
    for (const auto& d : dirs) {
        int f = file_of(s) + d[0], r = rank_of(s) + d[1];
        while (on_board(f, r)) {
            const Square t = make_square(f, r);
            result |= square_bb(t);
            if (occupied & square_bb(t)) break;
            f += d[0];
            r += d[1];
        }
    }
    return result;
}

Bitboard steps(Square s, std::initializer_list<std::array<int, 2>> deltas) {
    Bitboard result = 0;
    for (const auto& d : deltas)
        if (on_board(file_of(s) + d[0], rank_of(s) + d[1]))
            result |= square_bb(make_square(file_of(s) + d[0], rank_of(s) + d[1]));
    return result;
}

// xorshift64*: a fixed seed keeps the magics, and so the tables, identical on every run.
struct Prng {
    uint64_t state;
    uint64_t next() {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 2685821657736338717ULL;
    }
    uint64_t sparse() { return next() & next() & next(); }
};

void init_magics(const int (&dirs)[4][2], Magic* magics, Bitboard* table) {
    Prng prng{0x9E3779B97F4A7C15ULL};
    std::vector<Bitboard> occupancies, references;
    std::vector<int> epoch(4096, 0);
    int attempt = 0;
    Bitboard* next_slot = table;
    for (Square s = 0; s < 64; ++s) {
        const Bitboard edges = ((RANK_1 | RANK_8) & ~(RANK_1 << (8 * rank_of(s)))) |
                               ((0x0101010101010101ULL | 0x8080808080808080ULL) &
                                ~(0x0101010101010101ULL << file_of(s)));
        Magic& m = magics[s];
        m.mask = slide(s, dirs, 0) & ~edges;
        const int bits = popcount(m.mask);
        m.shift = unsigned(64 - bits);
        m.attacks = next_slot;
        occupancies.clear();
        references.clear();
        Bitboard subset = 0;
        do {  // Carry-Rippler enumeration of all subsets of the mask
            occupancies.push_back(subset);
            references.push_back(slide(s, dirs, subset));
            subset = (subset - m.mask) & m.mask;
        } while (subset);
        for (bool found = false; !found;) {
            do m.magic = prng.sparse();
            while (popcount((m.mask * m.magic) >> 56) < 6);
            ++attempt;
            found = true;
            for (size_t i = 0; i < occupancies.size(); ++i) {
                const unsigned idx = m.offset(occupancies[i]);
                if (epoch[idx] < attempt) {
                    epoch[idx] = attempt;
                    next_slot[idx] = references[i];
                } else if (next_slot[idx] != references[i]) {
                    found = false;
                    break;
                }
            }
        }
        next_slot += size_t(1) << bits;
    }
}

}  // namespace

void init_bitboards() {
    static bool done = false;
    if (done) return;
    for (Square s = 0; s < 64; ++s) {
        detail::KING_ATTACKS[s] =
            steps(s, {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}});
        detail::KNIGHT_ATTACKS[s] =
            steps(s, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}});
        detail::PAWN_ATTACKS[WHITE][s] = steps(s, {{-1, 1}, {1, 1}});
        detail::PAWN_ATTACKS[BLACK][s] = steps(s, {{-1, -1}, {1, -1}});
    }
    init_magics(ROOK_DIRS, detail::ROOK_MAGICS, ROOK_TABLE);
    init_magics(BISHOP_DIRS, detail::BISHOP_MAGICS, BISHOP_TABLE);
    done = true;
}

namespace {
const bool BITBOARDS_READY = (init_bitboards(), true);
}

}  // namespace retro
