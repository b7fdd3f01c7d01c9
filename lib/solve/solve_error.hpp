// Errors of the solve layer.
#pragma once

#include <stdexcept>

namespace retro {

class SolveError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace retro
