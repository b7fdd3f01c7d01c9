#include "index/pawn_slices.hpp"

#include <algorithm>
#include <cassert>
#include <functional>

#include "index/index_scheme.hpp"

namespace retro {

namespace {

constexpr PieceType PIECES[] = {QUEEN, ROOK, BISHOP, KNIGHT};

uint64_t choose(int n, int k) {
    uint64_t r = 1;
    for (int i = 1; i <= k; ++i) r = r * uint64_t(n - k + i) / uint64_t(i);
    return r;
}

// Calls f(b) for every set of k squares of `squares`, as a bitboard.
void for_each_subset(Bitboard squares, int k, Bitboard chosen, const std::function<void(Bitboard)>& f) {
    if (k == 0) return f(chosen);
    while (popcount(squares) >= k) {
        const Square s = pop_lsb(squares);
        for_each_subset(squares, k - 1, chosen | square_bb(s), f);
    }
}

// The slices reached, each once with the union of its sides to move.
class Reached {
public:
    // A move by `mover` that leads to material m, in the mover's orientation, with the pawns on c.
    void add(Material m, PawnConfig c, Color mover) {
        if (m.total() == 2) return;  // bare kings: a draw without a table
        Color to_move = ~mover;
        if (!m.is_canonical()) {  // colours swapped: the board turns upside down
            m = m.color_swapped();
            c = {{__builtin_bswap64(c.pawns[BLACK]), __builtin_bswap64(c.pawns[WHITE])}};
            to_move = ~to_move;
        }
        c = m.has_pawns() ? canonical_mirror(c) : PawnConfig{};
        for (auto& r : list_)
            if (r.material == m && r.config == c) {
                r.sides |= side_bit(to_move);
                return;
            }
        list_.push_back({m, c, side_bit(to_move)});
    }
    std::vector<SliceReached> take() { return std::move(list_); }

private:
    std::vector<SliceReached> list_;
};

// The moves of `us`'s pawn on s: pushes (with the en passant captures a double push allows),
// captures of pawns and pieces, promotions.
void pawn_moves(const Material& m, const PawnConfig& c, Color us, Square s, Reached& out) {
    const Color them = ~us;
    const Bitboard pawns = c.pawns[WHITE] | c.pawns[BLACK];
    const Square to = s + pawn_push(us);
    const bool promotes = relative_rank(us, to) == 7;
    const auto moved = [&](Square dest) {
        PawnConfig n = c;
        n.pawns[us] ^= square_bb(s) | square_bb(dest);
        return n;
    };
    PawnConfig removed = c;
    removed.pawns[us] &= ~square_bb(s);
    const Material promoted_from = m.without(us, PAWN);

    if (!(pawns & square_bb(to))) {
        if (promotes)
            for (PieceType t : PIECES) out.add(promoted_from.with(us, t), removed, us);
        else
            out.add(m, moved(to), us);
        const Square two = to + pawn_push(us);
        if (relative_rank(us, s) == 1 && !(pawns & square_bb(two))) {
            out.add(m, moved(two), us);
            for (int df : {-1, 1}) {
                if (!on_board(file_of(two) + df, rank_of(two))) continue;
                const Square beside = make_square(file_of(two) + df, rank_of(two));
                if (!(c.pawns[them] & square_bb(beside))) continue;
                PawnConfig n = removed;  // their pawn takes ours en passant, landing on `to`
                n.pawns[them] ^= square_bb(beside) | square_bb(to);
                out.add(promoted_from, n, them);
            }
        }
    }
    for (int df : {-1, 1}) {
        if (!on_board(file_of(to) + df, rank_of(to))) continue;
        const Square target = make_square(file_of(to) + df, rank_of(to));
        if (c.pawns[us] & square_bb(target)) continue;
        if (c.pawns[them] & square_bb(target)) {
            PawnConfig n = moved(target);
            n.pawns[them] &= ~square_bb(target);
            out.add(m.without(them, PAWN), n, us);
            continue;
        }
        for (PieceType victim : PIECES) {
            if (!m.count(them, victim)) continue;
            if (promotes)
                for (PieceType t : PIECES)
                    out.add(promoted_from.without(them, victim).with(us, t), removed, us);
            else
                out.add(m.without(them, victim), moved(target), us);
        }
    }
}

}  // namespace

int pawn_advance(const PawnConfig& c) {
    int sum = 0;
    for (Bitboard b = c.pawns[WHITE]; b;) sum += rank_of(pop_lsb(b));
    for (Bitboard b = c.pawns[BLACK]; b;) sum += 7 - rank_of(pop_lsb(b));
    return sum;
}

std::vector<PawnConfig> pawn_configs(const Material& m) {
    std::vector<PawnConfig> configs;
    for_each_subset(PAWN_RANKS, m.count(WHITE, PAWN), 0, [&](Bitboard white) {
        for_each_subset(PAWN_RANKS & ~white, m.count(BLACK, PAWN), 0, [&](Bitboard black) {
            const PawnConfig c{{white, black}};
            if (canonical_mirror(c) == c) configs.push_back(c);
        });
    });
    std::stable_sort(configs.begin(), configs.end(), [](const PawnConfig& a, const PawnConfig& b) {
        return pawn_advance(a) > pawn_advance(b);
    });
    return configs;
}

uint64_t slice_entries(const Material& m) {
    const uint64_t size = IndexScheme(m).size();
    if (!m.has_pawns()) return size;
    // The index has a digit for each colour's pawns, each a choice among the 48 squares of ranks 2-7.
    return 2 * size / choose(48, m.count(WHITE, PAWN)) / choose(48, m.count(BLACK, PAWN));
}

bool solved_in_waves(const Material& m, uint64_t below) { return m.has_pawns() && slice_entries(m) < below; }

int wave_batch_end(const std::vector<PawnConfig>& configs, int k, int threads) {
    assert(k >= 0 && k < int(configs.size()) && threads >= 1);
    const int last = std::min(int(configs.size()), k + WAVE_BATCH_PER_THREAD * threads);
    int end = k + 1;
    while (end < last && pawn_advance(configs[size_t(end)]) == pawn_advance(configs[size_t(k)])) ++end;
    return end;
}

std::vector<SliceReached> slices_reached(const Material& m, const PawnConfig& c) {
    Reached out;
    for (Color us : {WHITE, BLACK}) {
        const Color them = ~us;
        // Kings and pieces take pieces and pawns.
        for (PieceType victim : PIECES)
            if (m.count(them, victim)) out.add(m.without(them, victim), c, us);
        for (Bitboard b = c.pawns[them]; b;) {
            PawnConfig n = c;
            n.pawns[them] &= ~square_bb(pop_lsb(b));
            out.add(m.without(them, PAWN), n, us);
        }
        for (Bitboard b = c.pawns[us]; b;) pawn_moves(m, c, us, pop_lsb(b), out);
    }
    return out.take();
}

SliceLocator::SliceLocator(const Material& m) {
    const IndexScheme whole(m);
    radix_ = whole.digit_radices();
    pawn_digit_.assign(radix_.size(), false);
    for (size_t d = 0; d < radix_.size(); ++d) pawn_digit_[d] = whole.is_pawn_digit(d);
    pairs_ = radix_[0];
    uint64_t pawn_tuples = 1;
    slice_weight_.assign(radix_.size(), 0);
    for (size_t d = radix_.size(); d-- > 1;) {
        if (pawn_digit_[d]) {
            pawn_tuples *= radix_[d];
        } else {
            slice_weight_[d] = piece_entries_;
            piece_entries_ *= radix_[d];
        }
    }
    slice_weight_[0] = piece_entries_;
    slice_of_.assign(pawn_tuples, NONE);
    const auto configs = pawn_configs(m);
    for (uint32_t k = 0; k < configs.size(); ++k)
        for (int image = 0; image < 2; ++image) {
            const PawnConfig pawns = image ? mirrored(configs[k]) : configs[k];
            const std::vector<uint64_t> digits = whole.pawn_digits(pawns);
            uint64_t tuple = 0;
            for (size_t d = 1; d < radix_.size(); ++d)
                if (pawn_digit_[d]) tuple = tuple * radix_[d] + digits[d];
            // A configuration that is its own mirror image has only the first image.
            if (slice_of_[tuple] == NONE) slice_of_[tuple] = k << 1 | uint32_t(image);
        }
}

std::optional<SliceLocator::Where> SliceLocator::locate(uint64_t idx) const {
    uint64_t tuple = 0, tuple_weight = 1, index = 0;
    for (size_t d = radix_.size(); d-- > 1;) {
        const uint64_t digit = idx % radix_[d];
        idx /= radix_[d];
        if (pawn_digit_[d]) {
            tuple += digit * tuple_weight;
            tuple_weight *= radix_[d];
        } else {
            index += digit * slice_weight_[d];
        }
    }
    auto where = slice_of_tuple(tuple);
    if (where) where->index += idx * slice_weight_[0] + index;
    return where;
}

SlicePeak slice_peak(const Material& m) {
    SlicePeak peak;
    std::vector<std::pair<Material, uint64_t>> entries;  // slice_entries, once per material
    const auto entries_of = [&](const Material& x) {
        for (const auto& [material, n] : entries)
            if (material == x) return n;
        entries.emplace_back(x, slice_entries(x));
        return entries.back().second;
    };
    const uint64_t own = 2 * entries_of(m);
    for (const PawnConfig& c : pawn_configs(m)) {
        SlicePeak here{c, own, 0, 0};
        for (const SliceReached& r : slices_reached(m, c))
            (r.material.has_pawns() ? here.pawn_slices_bytes : here.pawnless_bytes) +=
                entries_of(r.material) * uint64_t(popcount(r.sides));
        if (here.total() > peak.total()) peak = here;
    }
    return peak;
}

}  // namespace retro
