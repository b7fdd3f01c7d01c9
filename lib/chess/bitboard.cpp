#include "chess/bitboard.hpp"

#include <array>
#include <mutex>
#include <vector>

namespace retro {
namespace detail {
Magic ROOK_MAGICS[64];
Magic BISHOP_MAGICS[64];
Bitboard KING_ATTACKS[64];
Bitboard KNIGHT_ATTACKS[64];
Bitboard PAWN_ATTACKS[2][64];
Bitboard BETWEEN[64][64];
Bitboard LINE[64][64];
}  // namespace detail

namespace {

using detail::AttackEntry;
using detail::Magic;

// Sum over all squares of 2^(relevant bits): the sizes of the fancy-magic tables.
constexpr size_t ROOK_TABLE_SIZE = 102400;
constexpr size_t BISHOP_TABLE_SIZE = 5248;
AttackEntry ROOK_TABLE[ROOK_TABLE_SIZE];
AttackEntry BISHOP_TABLE[BISHOP_TABLE_SIZE];

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

// Magic multipliers found once by the search below (seeded xorshift) and kept, so start-up only
// fills the tables. The search remains for a multiplier that does not fit (it never should).
constexpr Bitboard ROOK_MAGIC_SEEDS[64] = {
    0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021d00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000a00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040a00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xc100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000a0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040a00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};
constexpr Bitboard BISHOP_MAGIC_SEEDS[64] = {
    0x10102002004a1420ULL, 0x8020040400584008ULL, 0x10510800811201c8ULL, 0x5204042080000088ULL,
    0x2204106880000002ULL, 0x1401042004000000ULL, 0x0400880410042004ULL, 0x0028208200a02020ULL,
    0x1500241990010e00ULL, 0x8001200182020a40ULL, 0x40004101030b0000ULL, 0x8002041042000100ULL,
    0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020a00ULL, 0x8000088400880520ULL,
    0x0405004010040100ULL, 0x1005823210040108ULL, 0x2708008102040011ULL, 0x4048200404009100ULL,
    0x0018104101400024ULL, 0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL,
    0x0006e080100c3040ULL, 0x0501044a11041800ULL, 0x9020300008004045ULL, 0x0894080000220040ULL,
    0x1001010083104000ULL, 0x5004030040900080ULL, 0x000400422c012400ULL, 0x0002128698404812ULL,
    0x1010108404900440ULL, 0x0928021182084100ULL, 0x2006080409020024ULL, 0x1010202020180080ULL,
    0xa010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL, 0x802a02020000b098ULL,
    0x0009015090004060ULL, 0x4000821082081001ULL, 0x0100210040420800ULL, 0x0800004010488a00ULL,
    0x2000081104004040ULL, 0x4c8e029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL,
    0x0000822802400008ULL, 0x00008a0101600000ULL, 0x3040003412080021ULL, 0x3040290220884800ULL,
    0x4a1500401041004aULL, 0x8010200282020781ULL, 0x0020203142209091ULL, 0x0070300600902110ULL,
    0x0040808800b62048ULL, 0x0000810400c44420ULL, 0x00080400440c0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810d00080ULL, 0x0400530411080200ULL, 0x4040702400932244ULL,
};

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

// The state of the search for magic multipliers, across the squares of one kind of slider.
struct MagicSearch {
    Prng prng{0x9E3779B97F4A7C15ULL};
    std::vector<int> epoch = std::vector<int>(4096, 0);  // the attempt that last wrote each slot
    int attempt = 0;
};

#if RETRO_PEXT_ATTACKS
// The attacks gathered onto the bits of the rays, at the offset PEXT gives the occupancy.
void fill_attacks(Magic& m, const std::vector<Bitboard>& occupancies, const std::vector<Bitboard>& references,
                  AttackEntry* slots, MagicSearch&) {
    for (size_t i = 0; i < occupancies.size(); ++i)
        slots[m.offset(occupancies[i])] = AttackEntry(_pext_u64(references[i], m.rays));
}
#else
// The kept multiplier, or the first random one under which no two occupancies of different attacks
// share a slot.
void fill_attacks(Magic& m, const std::vector<Bitboard>& occupancies, const std::vector<Bitboard>& references,
                  AttackEntry* slots, MagicSearch& search) {
    for (bool found = false, seeded = true; !found; seeded = false) {
        if (!seeded) {
            do m.magic = search.prng.sparse();
            while (popcount((m.mask * m.magic) >> 56) < 6);
        }
        ++search.attempt;
        found = true;
        for (size_t i = 0; i < occupancies.size(); ++i) {
            const unsigned idx = m.offset(occupancies[i]);
            if (search.epoch[idx] < search.attempt) {
                search.epoch[idx] = search.attempt;
                slots[idx] = references[i];
            } else if (slots[idx] != references[i]) {
                found = false;
                break;
            }
        }
    }
}
#endif

void init_sliders(const int (&dirs)[4][2], const Bitboard (&seeds)[64], Magic* magics, AttackEntry* table) {
    MagicSearch search;
    std::vector<Bitboard> occupancies, references;
    AttackEntry* next_slot = table;
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        const Bitboard edges =
            ((RANK_1 | RANK_8) & ~(RANK_1 << (8 * rank_of(s)))) |
            ((0x0101010101010101ULL | 0x8080808080808080ULL) & ~(0x0101010101010101ULL << file_of(s)));
        Magic& m = magics[s];
        m.rays = slide(s, dirs, 0);
        m.mask = m.rays & ~edges;
        const int bits = popcount(m.mask);
        m.shift = unsigned(64 - bits);
        m.magic = seeds[s];
        m.attacks = next_slot;
        occupancies.clear();
        references.clear();
        Bitboard subset = 0;
        do {  // Carry-Rippler enumeration of all subsets of the mask
            occupancies.push_back(subset);
            references.push_back(slide(s, dirs, subset));
            subset = (subset - m.mask) & m.mask;
        } while (subset);
        fill_attacks(m, occupancies, references, next_slot, search);
        next_slot += size_t(1) << bits;
    }
}

void build_tables() {
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        detail::KING_ATTACKS[s] =
            steps(s, {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}});
        detail::KNIGHT_ATTACKS[s] =
            steps(s, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}});
        detail::PAWN_ATTACKS[WHITE][s] = steps(s, {{-1, 1}, {1, 1}});
        detail::PAWN_ATTACKS[BLACK][s] = steps(s, {{-1, -1}, {1, -1}});
    }
    init_sliders(ROOK_DIRS, ROOK_MAGIC_SEEDS, detail::ROOK_MAGICS, ROOK_TABLE);
    init_sliders(BISHOP_DIRS, BISHOP_MAGIC_SEEDS, detail::BISHOP_MAGICS, BISHOP_TABLE);
    for (Square a = SQ_A1; a <= SQ_H8; ++a)
        for (Square b = SQ_A1; b <= SQ_H8; ++b) {
            Bitboard& gap = detail::BETWEEN[a][b];
            Bitboard& line = detail::LINE[a][b];
            const Bitboard ends = square_bb(a) | square_bb(b);
            if (rook_attacks(a, 0) & square_bb(b)) {
                gap = rook_attacks(a, square_bb(b)) & rook_attacks(b, square_bb(a));
                line = (rook_attacks(a, 0) & rook_attacks(b, 0)) | ends;
            } else if (bishop_attacks(a, 0) & square_bb(b)) {
                gap = bishop_attacks(a, square_bb(b)) & bishop_attacks(b, square_bb(a));
                line = (bishop_attacks(a, 0) & bishop_attacks(b, 0)) | ends;
            }
        }
}

}  // namespace

void init_bitboards() {
    static std::once_flag once;  // constant-initialised: safe during static initialisation
    std::call_once(once, build_tables);
}

}  // namespace retro
