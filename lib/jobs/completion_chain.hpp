// Which complete tables a table's reading completes from their own sub-tables, and in which order a
// job reads them so that each is completed once.
#pragma once

#include <functional>
#include <vector>

#include "index/dependencies.hpp"

namespace retro {

// Whether reading `sub` for `sides` to move completes its file from its own sub-tables: the file
// settles values by exits or drops a side, and no current exact copy holds those sides.
using CompletedWhenRead = std::function<bool(const Material& sub, SideSet sides)>;

// The tables reading m's direct sub-tables completes (those `completed` names, and recursively the
// sub-tables each of them reads whole to complete itself, for the sides it reads), each with the
// sides read, sub-tables first. The promotions of m that capture nothing are left out when
// `promotions_in_part` (read a run at a time, never completed). Read in this order, each with an
// exact copy written once complete, every table of the chain is completed once, from copies;
// otherwise a table is completed again within each completion that reads it (KBvK 96 times
// for KPPvKP).
std::vector<SubtableSides> completion_chain(const Material& m, bool promotions_in_part,
                                            const CompletedWhenRead& completed);

}  // namespace retro
