// The parts of the Python module retrograde, each bound by its own file.
#pragma once

#include <pybind11/pybind11.h>

#include <stdexcept>

namespace retro::python {

// An error of the module's own, raised as retrograde.Error.
class Error : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// retrograde.Error and its subclasses; the library's exceptions become them.
void bind_errors(pybind11::module_& m);
// retrograde.Tablebase, Value and Move: probing, best moves, lines.
void bind_probing(pybind11::module_& m);
// retrograde.generate, Progress and JobResult: building tables through the job runner.
void bind_generation(pybind11::module_& m);

}  // namespace retro::python
