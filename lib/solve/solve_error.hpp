// Errors of the solve layer.
#pragma once

#include <stdexcept>

namespace retro {

class SolveError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Thrown when a stop was requested; the work done is in the checkpoint, if one was named.
class SolveInterrupted : public SolveError {
    using SolveError::SolveError;
};

}  // namespace retro
