// Which tables a table needs: every material one capture or promotion away, recursively.
#pragma once

#include <vector>

#include "index/material.hpp"

namespace retro {

// Canonical materials reached from m by one capture, promotion or capturing promotion (bare kings
// excluded: they are a draw without a table).
std::vector<Material> direct_subtables(const Material& m);

// m and everything it needs, canonical, each once, every table after all the tables it needs.
std::vector<Material> build_order(const std::vector<Material>& targets);

}  // namespace retro
