// Where the solver finds its sub-tables: whole tables by material. The probe layer's Tablebase is
// one; the solver needs nothing else of it, so it depends on this interface and not on probing.
#pragma once

#include <memory>

#include "index/dependencies.hpp"
#include "store/table.hpp"
#include "store/table_values.hpp"

namespace retro {

class SubtableSource {
public:
    // The table of this material or its colour swap, holding at least the values of `sides` to move
    // in its own orientation (Table::has_side: a solve needs one side of most sub-tables, half their
    // memory); nullptr when there is none. Throws StoreError when it exists but is corrupted.
    virtual std::shared_ptr<const Table> find(const Material& m, SideSet sides) const = 0;
    // The whole table.
    std::shared_ptr<const Table> find(const Material& m) const { return find(m, BOTH_SIDES); }
    // The values of the table of m (canonical), read a run at a time without holding them whole: from
    // its file, or from memory when the table was given whole; nullptr when there is none. Throws
    // StoreError when its file is corrupted.
    virtual std::unique_ptr<TableValues> values(const Material& m) const = 0;
    // The value for the side to move of a position of any table of the source, whatever the form of
    // its file (values settled by exits completed, a dropped side searched). Throws when the table is
    // missing or corrupted.
    virtual Dtm probe(const Position& pos) const = 0;

protected:
    ~SubtableSource() = default;
};

}  // namespace retro
