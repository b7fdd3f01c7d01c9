// The end of a scheme's solve, after the last layer: every entry not decided is a draw; the decided
// ones take their distance from the layer log in place of their codes.
#pragma once

#include "solve/layer_log.hpp"
#include "solve/scheme_context.hpp"

namespace retro {

// The values, as a Table holds them (its bytes, and its list for the long distances), with the
// survey; takes c's codes and survey.
SolvedScheme final_values(SchemeContext& c, LayerLog& log);

}  // namespace retro
