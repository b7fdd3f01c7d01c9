// The index of one slice of a pawn table (IndexScheme(material, pawns)): the slices of a table
// partition its entries, each entry's slice index and table index (table_index, encode and
// SliceLocator) name the same placement both ways,
// the cursor steps through a slice as decode reads it, and a piece move's cheap index is the full one.
#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "index/index_cursor.hpp"
#include "index/index_scheme.hpp"
#include "index/pawn_slices.hpp"

using namespace retro;

namespace {

// Whether two placements put the same men on the same squares (like men in any order).
bool same_men(const IndexScheme& scheme, const Placement& a, const Placement& b) {
    std::array<Bitboard, 16> x{}, y{};
    for (int s = 0; s < scheme.men(); ++s) {
        const Piece p = scheme.piece_of_slot(s);
        x[p.color * 8 + p.type] |= square_bb(a.square[s]);
        y[p.color * 8 + p.type] |= square_bb(b.square[s]);
    }
    return x == y;
}

// Whether two pawns of a placement stand on one square.
bool pawns_collide(const IndexScheme& scheme, const Placement& p) {
    Bitboard seen = 0;
    for (int s = 2; s < scheme.men(); ++s) {
        if (scheme.piece_of_slot(s).type != PAWN) continue;
        if (seen & square_bb(p.square[s])) return true;
        seen |= square_bb(p.square[s]);
    }
    return false;
}

// Every slice of m against the whole table: each valid slice entry is a valid table entry whose
// placement maps back to it, and every valid table entry lies in exactly one slice. The table indices
// of a run of entries step by table_run_stride().
void check_partition(const Material& m) {
    const IndexScheme table(m);
    const SliceLocator locator(m);
    std::vector<bool> seen(table.size());
    uint64_t held = 0;
    const auto configs = pawn_configs(m);
    for (uint32_t k = 0; k < configs.size(); ++k) {
        const IndexScheme slice(m, configs[k]);
        EXPECT_TRUE(slice.is_slice());
        EXPECT_TRUE(slice.size() == slice_entries(m) || 2 * slice.size() == slice_entries(m));
        IndexCursor cursor(slice, 0);
        const uint64_t run = slice.table_run(), run_stride = slice.table_run_stride();
        EXPECT_EQ(slice.size() % run, 0u);
        for (uint64_t i = 0; i < slice.size(); ++i, cursor.next()) {
            if (i % run) {  // within a run, one step of table_run_stride() from its neighbour
                EXPECT_EQ(slice.table_index(i), slice.table_index(i - 1) + run_stride)
                    << m.name() << " slice entry " << i;
            }
            Placement p;
            const bool valid = slice.decode(i, p);
            EXPECT_EQ(cursor.valid(), valid) << m.name() << " slice entry " << i;
            if (!valid) continue;
            EXPECT_TRUE(same_men(slice, cursor.placement(), p));
            const uint64_t g = table.encode(p);
            EXPECT_EQ(slice.table_index(i), g) << m.name() << " slice entry " << i;
            Placement q;
            EXPECT_TRUE(table.decode(g, q));
            EXPECT_TRUE(same_men(table, p, q)) << m.name() << " slice entry " << i;
            EXPECT_EQ(slice.encode(q), i) << m.name() << " slice entry " << i;
            const auto where = locator.locate(g);  // the way back, by digits
            ASSERT_TRUE(where) << m.name() << " entry " << g;
            EXPECT_EQ(where->slice, k) << m.name() << " entry " << g;
            EXPECT_EQ(where->index, i) << m.name() << " entry " << g;
            EXPECT_FALSE(seen[g]) << m.name() << " entry " << g << " in two slices";
            seen[g] = true;
            ++held;
        }
    }
    uint64_t valid = 0;
    for (IndexCursor cursor(table, 0); cursor.index() < table.size(); cursor.next()) {
        valid += cursor.valid();
        // Colliding pawns are in no slice; everything else is in one.
        EXPECT_EQ(bool(locator.locate(cursor.index())), !pawns_collide(table, cursor.placement()))
            << m.name() << " entry " << cursor.index();
        EXPECT_EQ(bool(seen[cursor.index()]), cursor.valid()) << m.name() << " entry " << cursor.index();
    }
    EXPECT_EQ(held, valid);
    EXPECT_GT(held, table.size() / 2);
}

PawnConfig pawns(std::initializer_list<const char*> white, std::initializer_list<const char*> black) {
    PawnConfig c;
    for (const char* s : white) c.pawns[WHITE] |= square_bb(parse_square(s));
    for (const char* s : black) c.pawns[BLACK] |= square_bb(parse_square(s));
    return c;
}

}  // namespace

TEST(SliceIndex, TheSlicesOfATablePartitionItsEntries) {
    check_partition(Material::parse("KPvK"));
    check_partition(Material::parse("KPvKP"));
    check_partition(Material::parse("KPPvK"));  // slices with a mirror-symmetric pair (a3 h3): one image
}

TEST(SliceIndex, ASliceIsTheKingPairsOfBothImagesTimesThePieces) {
    const Material krpvk = Material::parse("KRPvK");
    const IndexScheme slice(krpvk, pawns({"b5"}, {}));
    EXPECT_EQ(slice.size(), 2u * 1806 * 62);
    EXPECT_EQ(slice.digit_radices(), (std::vector<uint64_t>{2 * 1806, 62, 1}));
    // a3 and h3 are one another's image: one image, 1806 pairs.
    EXPECT_EQ(IndexScheme(Material::parse("KPPvK"), pawns({"a3", "h3"}, {})).size(), 1806u);
}

TEST(SliceIndex, APieceMoveIsEncodedCheaplyWithinTheSlice) {
    const Material m = Material::parse("KRPvKN");
    const IndexScheme slice(m, pawns({"c6"}, {}));
    int moved = 0;
    for (uint64_t i = 0; i < slice.size(); i += 997) {
        Placement p;
        if (!slice.decode(i, p)) continue;
        for (int slot = 2; slot < slice.men(); ++slot) {
            if (slice.piece_of_slot(slot).type == PAWN) continue;
            for (Square to = SQ_A1; to <= SQ_H8; ++to) {
                bool taken = false;
                for (int s = 0; s < slice.men(); ++s) taken |= p.square[s] == to;
                if (taken) continue;
                Placement q = p;
                q.square[slot] = to;
                ASSERT_EQ(slice.encode_moved(i, p, slot, to), slice.encode(q));
                ++moved;
            }
        }
    }
    EXPECT_GT(moved, 10000);
}

TEST(SliceIndex, PawnsThatDoNotFitTheMaterialAreRefused) {
    const Material m = Material::parse("KPvKP");
    EXPECT_THROW(IndexScheme(m, pawns({"a2"}, {})), std::invalid_argument);      // no black pawn
    EXPECT_THROW(IndexScheme(m, pawns({"a1"}, {"b5"})), std::invalid_argument);  // rank 1
    EXPECT_THROW(IndexScheme(m, pawns({"h2"}, {"h5"})), std::invalid_argument);  // not canonical
    EXPECT_THROW(IndexScheme(Material::parse("KQvK"), PawnConfig{}), std::invalid_argument);
    EXPECT_NO_THROW(IndexScheme(m, canonical_mirror(pawns({"h2"}, {"h5"}))));
}
