// The values of a solved table as the writer and the statistics read them, a run of entries at a
// time in the order a file stores them (store/digit_order.hpp): from a whole Table in memory, or
// from a pawn table's slice store on disk (store/slice_store.hpp), a few slices in memory at a time.
#pragma once

#include <cstdint>
#include <memory>

#include "index/pawn_slices.hpp"
#include "store/digit_order.hpp"
#include "store/slice_runs.hpp"
#include "store/slice_store.hpp"
#include "store/table.hpp"
#include "store/table_reader.hpp"

namespace retro {

// The order with a pawn table's pawn digits first (in index order), then the others in index order:
// the entries with the same pawns stand together, a slice's image in one run.
DigitOrder pawn_digits_first(const IndexScheme& scheme);
// Whether `order` stores scheme's pawn digits first (in any order among themselves); the runs of
// entries with pawns `c` (any orientation), [first, first + n), when it does.
bool pawn_digits_lead(const IndexScheme& scheme, const DigitOrder& order);
std::pair<uint64_t, uint64_t> pawn_run(const IndexScheme& scheme, const DigitOrder& order,
                                       const PawnConfig& c);

class TableValues {
public:
    virtual ~TableValues() = default;
    virtual const IndexScheme& scheme() const = 0;
    const Material& material() const { return scheme().material(); }
    // Whether read() takes this order.
    virtual bool reads_in(const DigitOrder& order) const = 0;
    // The order the values are cheapest to read in, for a pass that may take any.
    virtual DigitOrder natural_order() const = 0;
    // The values of `side` to move of the n entries stored at [first, first + n) in `order`.
    // Thread-safe.
    virtual void read(Color side, const DigitOrder& order, uint64_t first, uint64_t n, Dtm* out) const = 0;
    // Whether read() gives the exact value of every entry of `side` to move: not from a file that
    // settles values by exits (format version 5) or drops that side (the shipping form), where only
    // a probe through the Tablebase knows them.
    virtual bool exact(Color) const { return true; }
};

// A side the table does not hold (read for the other side only) reads as draws, as a file's dropped
// side does: not exact.
class MemoryValues final : public TableValues {
public:
    explicit MemoryValues(const Table& table) : table_(table) {}
    // The same, keeping the table alive.
    explicit MemoryValues(std::shared_ptr<const Table> table) : table_(*table), keep_(std::move(table)) {}
    const IndexScheme& scheme() const override { return table_.scheme; }
    bool reads_in(const DigitOrder&) const override { return true; }
    DigitOrder natural_order() const override { return {}; }
    void read(Color side, const DigitOrder& order, uint64_t first, uint64_t n, Dtm* out) const override;
    bool exact(Color side) const override { return table_.has_side(side); }

private:
    const Table& table_;
    std::shared_ptr<const Table> keep_;
};

// A table file, read in the order it stores its entries, a few blocks at a time.
class FileValues final : public TableValues {
public:
    explicit FileValues(std::shared_ptr<const TableReader> reader) : reader_(std::move(reader)) {}
    const IndexScheme& scheme() const override { return reader_->scheme(); }
    bool reads_in(const DigitOrder& order) const override {
        return order.order() == reader_->digit_order().order();
    }
    DigitOrder natural_order() const override { return reader_->digit_order(); }
    void read(Color side, const DigitOrder& order, uint64_t first, uint64_t n, Dtm* out) const override;
    bool exact(Color side) const override {
        return reader_->stores(side) && !reader_->header().exits_settled();
    }

private:
    std::shared_ptr<const TableReader> reader_;
};

// Reads the orders with the pawn digits first (in any order among themselves), where a run of
// entries with the same pawns lies in one slice: at most `cache_bytes` of slices are kept, the
// most recently used.
class SliceStoreValues final : public TableValues {
public:
    SliceStoreValues(const SliceStore& store, uint64_t cache_bytes);
    const IndexScheme& scheme() const override { return scheme_; }
    bool reads_in(const DigitOrder& order) const override;
    // The pawn digits, then the others in index order.
    DigitOrder natural_order() const override;
    void read(Color side, const DigitOrder& order, uint64_t first, uint64_t n, Dtm* out) const override;

private:
    const SliceStore& store_;
    IndexScheme scheme_;
    SliceLocator locator_;
    SliceCache<Table> cache_;
};

}  // namespace retro
