// Where the solver finds its sub-tables: whole tables by material. The probe layer's Tablebase is
// one; the solver needs nothing else of it, so it depends on this interface and not on probing.
#pragma once

#include <memory>

#include "store/table.hpp"

namespace retro {

class TableSource {
public:
    // The whole table of this material or its colour swap; nullptr when there is none. Throws
    // StoreError when it exists but is corrupted.
    virtual std::shared_ptr<const Table> find(const Material& m) const = 0;

protected:
    ~TableSource() = default;
};

}  // namespace retro
