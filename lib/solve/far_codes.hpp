// The far-code scans: a distance found beyond the window of plies the codes hold
// (solve/entry_state.hpp) is kept as FAR_WIN or FAR_LOSS, and derived again from the entry's exits
// when the window comes near it, as it was when found: a far win is its quickest winning exit, a far
// loss its longest exit win plus one.
#pragma once

#include "solve/scheme_context.hpp"

namespace retro {

// Before layer n is swept, every window.refresh() plies: the far distances that now fit the window
// become pending.
void refresh_far(SchemeContext& c, int n);

}  // namespace retro
