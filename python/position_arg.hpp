// Positions as Python functions take them: a FEN string, or any object with a fen() method that
// returns one (a python-chess Board), so the module works with python-chess without needing it.
#pragma once

#include <pybind11/pybind11.h>

#include "chess/position.hpp"

namespace retro::python {

// Throws PositionError (retrograde.FenError) for a bad FEN, TypeError for an object that is neither.
// Call with the GIL held.
Position position_arg(pybind11::handle arg);

}  // namespace retro::python
