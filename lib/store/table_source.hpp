// Where the solver finds its sub-tables: whole tables by material. The probe layer's Tablebase is
// one; the solver needs nothing else of it, so it depends on this interface and not on probing.
#pragma once

#include <memory>

#include "index/dependencies.hpp"
#include "store/table.hpp"

namespace retro {

class TableSource {
public:
    // The table of this material or its colour swap, holding at least the values of `sides` to move
    // in its own orientation (Table::has_side: a solve needs one side of most sub-tables, half their
    // memory); nullptr when there is none. Throws StoreError when it exists but is corrupted.
    virtual std::shared_ptr<const Table> find(const Material& m, SideSet sides) const = 0;
    // The whole table.
    std::shared_ptr<const Table> find(const Material& m) const { return find(m, BOTH_SIDES); }

protected:
    ~TableSource() = default;
};

}  // namespace retro
