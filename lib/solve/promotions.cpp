#include "solve/promotions.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <mutex>

#include "chess/position.hpp"
#include "index/legal_entries.hpp"
#include "index/men_on_squares.hpp"
#include "index/symmetry.hpp"
#include "parallel/parallel_for.hpp"
#include "solve/solve_error.hpp"
#include "store/table_values.hpp"

namespace retro {

namespace {

constexpr PieceType PIECES[] = {QUEEN, ROOK, BISHOP, KNIGHT};
// Entries of a table read at a time (in the order its file stores them).
constexpr uint64_t RUN = uint64_t(1) << 20;

Square mirror(Square s) { return apply_symmetry(MIRROR_FILE, s); }

// The pawns of `side` on its seventh rank.
Bitboard about_to_promote(const PawnConfig& c, Color side) { return c.pawns[side] & seventh_rank(side); }

// The values of one table a slice's pawns of `side` promote into (as `piece`), for every such pawn.
class PromotionReader {
public:
    PromotionReader(const IndexScheme& slice, Color side, PieceType piece, const SubtableSource& tables)
        : slice_(slice),
          side_(side),
          piece_(piece),
          tables_(tables),
          after_(slice.material().without(side, PAWN).with(side, piece)),
          flip_(!after_.is_canonical()),
          first_image_(slice.slice_config()),
          second_image_(mirrored(first_image_)) {
        values_ = tables.values(after_.canonical());
        if (!values_)
            throw SolveError(slice.material().name() + " needs the table " + after_.canonical().name() +
                             ", which is missing");
        exact_ = values_->exact(flip_ ? side : ~side);
        const bool pawns = after_.has_pawns();
        for (Symmetry g = 0; g < SYMMETRY_COUNT; ++g)
            if (!pawns || g == IDENTITY || g == MIRROR_FILE) symmetries_.push_back(g);
        for (Bitboard b = about_to_promote(first_image_, side); b;) {
            const Square from = pop_lsb(b), to = from + pawn_push(side);
            promotion_squares_ |= square_bb(to) | square_bb(mirror(to));
            auto& target = targets_.emplace_back(std::make_unique<Target>());
            target->from = from;
            target->bytes.assign(slice.size(), Table::DRAW_BYTE);
        }
        // Where the new piece stands in the table's own orientation when a symmetry brings it onto a
        // promotion square (the symmetries form a group: each one's inverse is among them).
        for (Symmetry g : symmetries_)
            for (Bitboard b = promotion_squares_; b;) {
                const Square s = apply_symmetry(g, pop_lsb(b));
                candidate_squares_ |= square_bb(flip_ ? flip_rank(s) : s);
            }
        for (Square s = SQ_A1; s <= SQ_H8; ++s)
            for (size_t i = 0; i < symmetries_.size(); ++i)
                if (promotion_squares_ & square_bb(apply_symmetry(symmetries_[i], s)))
                    symmetries_onto_[s] |= uint32_t(1) << i;
    }

    // Reads the table in runs, in parallel; stops early when `stop` is raised.
    void read(const std::atomic<bool>* stop) {
        const IndexScheme& table = values_->scheme();
        const Color to_move = flip_ ? side_ : ~side_;  // in the table's own colours
        const Piece new_piece{flip_ ? ~side_ : side_, piece_};
        // Not a structured binding: clang before 16 cannot capture one in the lambda below.
        const auto to_read = spans_to_read();
        const DigitOrder& order = to_read.first;
        // The entries are placed only when the new piece may stand on a candidate square.
        const DigitOrder walk = order.natural() ? DigitOrder(table.digit_radices()) : order;
        int new_piece_slot = 2;
        while (table.piece_of_slot(new_piece_slot) != new_piece) ++new_piece_slot;
        const MenOnSquares new_piece_on(table, new_piece_slot, candidate_squares_);
        std::vector<std::pair<uint64_t, uint64_t>> runs;  // [first, first + n) in `order`
        for (const auto& [first, n] : to_read.second)
            for (uint64_t at = first; at < first + n; at += RUN)
                runs.emplace_back(at, std::min(RUN, first + n - at));
        par::parallel_for(size_t(0), runs.size(), [&](size_t r) {
            if (stop && stop->load(std::memory_order_relaxed)) return;
            const auto [first, n] = runs[r];
            std::vector<Dtm> values;
            if (exact_) {
                values.resize(n);
                values_->read(to_move, order, first, n, values.data());
            }
            std::vector<std::pair<size_t, Table::LongValue>> long_values;
            Placement p;
            walk.for_each_digits(first, n, [&](uint64_t i, uint64_t idx, const uint64_t* digit) {
                if (!new_piece_on.may_stand(digit[0], digit[new_piece_on.digit()]) || !table.decode(idx, p))
                    return;
                bool candidate = false;
                for (int s = 2; s < table.men(); ++s)
                    candidate |=
                        table.piece_of_slot(s) == new_piece && (candidate_squares_ & square_bb(p.square[s]));
                if (candidate) reach(p, exact_ ? values[i] : DTM_DRAW, long_values);
            });
            if (long_values.empty()) return;
            std::lock_guard lock(mutex_);
            for (const auto& [t, v] : long_values) targets_[t]->long_values.push_back(v);
        });
    }

    void take(PromotionTargets& out) {
        for (auto& t : targets_) {
            auto& list = t->long_values;
            std::sort(list.begin(), list.end(), [](auto& a, auto& b) { return a.index < b.index; });
            list.erase(
                std::unique(list.begin(), list.end(), [](auto& a, auto& b) { return a.index == b.index; }),
                list.end());
            Table::Bytes bytes;
            Table::LongValues long_values;
            bytes[side_] = std::move(t->bytes);
            long_values[side_] = std::move(list);
            out.values.push_back({side_, t->from, piece_,
                                  std::make_shared<Table>(slice_, std::move(bytes), std::move(long_values))});
        }
    }

private:
    // The order to read the table in and the spans of it to read: with pawns left after the
    // promotion, only the entries with those pawns (in either image), when the order has the pawn
    // digits first (a table in memory, or a file written so); else the whole table.
    std::pair<DigitOrder, std::vector<std::pair<uint64_t, uint64_t>>> spans_to_read() const {
        const IndexScheme& table = values_->scheme();
        DigitOrder order = values_->natural_order();
        if (after_.has_pawns() && values_->reads_in(pawn_digits_first(table)))
            order = pawn_digits_first(table);
        if (!pawn_digits_lead(table, order)) return {order, {{0, table.size()}}};
        std::vector<std::pair<uint64_t, uint64_t>> spans;
        for (const auto& t : targets_) {
            PawnConfig left = first_image_;  // the pawns left after the promotion
            left.pawns[side_] &= ~square_bb(t->from);
            for (PawnConfig c : {left, mirrored(left)}) {
                if (flip_) c = {{__builtin_bswap64(c.pawns[BLACK]), __builtin_bswap64(c.pawns[WHITE])}};
                const auto span = pawn_run(table, order, c);
                if (std::find(spans.begin(), spans.end(), span) == spans.end()) spans.push_back(span);
            }
        }
        return {order, spans};
    }

    struct Target {
        Square from;  // in the slice's first image
        EntryBytes bytes;
        std::vector<Table::LongValue> long_values;
    };

    // The entry p of the table (its value `value` when read exactly): every image of its position
    // in which the new piece stands on a promotion square of the slice is one promotion's result.
    void reach(const Placement& p, Dtm value, std::vector<std::pair<size_t, Table::LongValue>>& long_values) {
        const IndexScheme& table = values_->scheme();
        const int men = table.men();
        std::array<Piece, MAX_MEN> piece{};
        std::array<Square, MAX_MEN> square{};
        for (int s = 0; s < men; ++s) {  // in the colours and orientation of the material after the promotion
            piece[s] = table.piece_of_slot(s);
            square[s] = p.square[s];
            if (flip_) {
                piece[s].color = ~piece[s].color;
                square[s] = flip_rank(square[s]);
            }
        }
        uint32_t onto = 0;  // the symmetries (by their place in symmetries_) worth trying
        for (int s = 2; s < men; ++s)
            if (piece[s] == Piece{side_, piece_}) onto |= symmetries_onto_[square[s]];
        while (onto) {
            const Symmetry g = symmetries_[size_t(std::countr_zero(onto))];
            onto &= onto - 1;
            std::array<Square, MAX_MEN> q{};
            Bitboard occupied = 0;
            PawnConfig pawns;
            for (int s = 0; s < men; ++s) {
                q[s] = apply_symmetry(g, square[s]);
                occupied |= square_bb(q[s]);
                if (piece[s].type == PAWN) pawns.pawns[piece[s].color] |= square_bb(q[s]);
            }
            for (int s = 2; s < men; ++s) {
                if (piece[s] != Piece{side_, piece_} || !(promotion_squares_ & square_bb(q[s]))) continue;
                const Square from = q[s] - pawn_push(side_);
                PawnConfig before_pawns = pawns;
                before_pawns.pawns[side_] |= square_bb(from);
                if ((occupied & square_bb(from)) ||
                    (before_pawns != first_image_ && before_pawns != second_image_))
                    continue;
                Position before, after;
                for (int o = 0; o < men; ++o) {
                    after.put(piece[o], q[o]);
                    if (o != s) before.put(piece[o], q[o]);
                }
                before.put({side_, PAWN}, from);
                after.set_side_to_move(~side_);
                if (!is_legal_entry(after)) continue;  // the promotion leaves its king in check
                const Dtm v = exact_ ? value : tables_.probe(after);
                // The pawn's square in the slice's first image: where it stands once the kings bring
                // the position into the slice's orientation (mirrored when the white king is on
                // files e-h), mirrored again in the second image. (A slice whose pawns are their own
                // mirror image has only a first image, whichever way the pawns are read.)
                const Symmetry oriented = pawn_king_pairs().symmetry[after.king(WHITE)][after.king(BLACK)];
                const Square canonical_from = apply_symmetry(oriented, from);
                const bool first_image =
                    oriented == IDENTITY ? before_pawns == first_image_ : before_pawns == second_image_;
                const Square first_image_from = first_image ? canonical_from : mirror(canonical_from);
                const size_t t = size_t(std::find_if(targets_.begin(), targets_.end(),
                                                     [&](auto& x) { return x->from == first_image_from; }) -
                                        targets_.begin());
                assert(t < targets_.size());  // a pawn of the image on its seventh rank
                const uint64_t idx = slice_.encode(slice_.to_placement(before));
                std::atomic_ref<uint8_t>(targets_[t]->bytes[idx])
                    .store(Table::byte_of(v), std::memory_order_relaxed);
                if (Table::byte_of(v) == Table::LONG_BYTE) long_values.push_back({t, {idx, v}});
            }
        }
    }

    const IndexScheme& slice_;
    const Color side_;
    const PieceType piece_;
    const SubtableSource& tables_;
    const Material after_;  // the material after the promotion, in the slice's colours
    const bool flip_;       // its table holds it with the colours swapped
    const PawnConfig first_image_, second_image_;
    std::unique_ptr<TableValues> values_;
    bool exact_ = true;
    std::vector<Symmetry> symmetries_;
    Bitboard promotion_squares_ = 0;  // in both images
    Bitboard candidate_squares_ = 0;
    // By the new piece's square, in the material after the promotion: the symmetries (bit i for
    // symmetries_[i]) that bring it onto a promotion square.
    std::array<uint32_t, 64> symmetries_onto_{};
    std::vector<std::unique_ptr<Target>> targets_;
    std::mutex mutex_;
};

}  // namespace

PromotionTargets read_promotions(const IndexScheme& slice, const SubtableSource& tables,
                                 const std::atomic<bool>* stop) {
    PromotionTargets out;
    out.in_part = true;
    for (Color side : {WHITE, BLACK}) {
        if (!about_to_promote(slice.slice_config(), side)) continue;
        for (PieceType piece : PIECES) {
            PromotionReader reader(slice, side, piece, tables);
            reader.read(stop);
            reader.take(out);
        }
    }
    return out;
}

uint64_t promotions_memory(const IndexScheme& slice) {
    const PawnConfig& c = slice.slice_config();
    const int pawns = popcount(about_to_promote(c, WHITE)) + popcount(about_to_promote(c, BLACK));
    return uint64_t(pawns) * std::size(PIECES) * slice.size();
}

}  // namespace retro
