// The exceptions of the module, and how the library's exceptions become them: each carries the
// library's message, and subclasses the built-in exception a Python user would catch.
#include <Python.h>

#include <exception>
#include <string>

#include "bindings.hpp"
#include "index/material.hpp"
#include "jobs/plan.hpp"
#include "probe/report.hpp"
#include "probe/tablebase.hpp"
#include "solve/solve_error.hpp"
#include "store/store_error.hpp"

namespace py = pybind11;

namespace retro::python {

namespace {

// One reference to each is held here for good: the translator may run as long as the interpreter.
struct ErrorTypes {
    PyObject* base = nullptr;
    PyObject* fen = nullptr;
    PyObject* material = nullptr;
    PyObject* missing = nullptr;
    PyObject* file = nullptr;
    PyObject* generation = nullptr;
} types;

// A new exception class retrograde.NAME. pybind11's register_exception takes one base; FenError is
// both a retrograde.Error and a ValueError.
PyObject* add_exception(py::module_& m, const char* name, py::tuple bases, const char* doc) {
    const std::string qualified = std::string("retrograde.") + name;
    PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
    if (!type) throw py::error_already_set();
    m.add_object(name, py::reinterpret_borrow<py::object>(type));
    return type;
}

void translate(std::exception_ptr error) {
    try {
        std::rethrow_exception(error);
    } catch (const PositionError& e) {
        PyErr_SetString(types.fen, bad_fen_reason(e.what()).c_str());
    } catch (const MaterialError& e) {
        PyErr_SetString(types.material, e.what());
    } catch (const ProbeError& e) {
        PyErr_SetString(types.missing, e.what());
    } catch (const StoreError& e) {
        PyErr_SetString(types.file, e.what());
    } catch (const SolveError& e) {
        PyErr_SetString(types.generation, e.what());
    } catch (const JobError& e) {
        PyErr_SetString(types.generation, e.what());
    } catch (const Error& e) {
        PyErr_SetString(types.base, e.what());
    }
}

}  // namespace

void bind_errors(py::module_& m) {
    PyObject* base = types.base = add_exception(m, "Error", py::make_tuple(py::handle(PyExc_Exception)),
                                                "Base class of the errors of retrograde.");
    const auto with = [&](PyObject* builtin) {
        return py::make_tuple(py::handle(base), py::handle(builtin));
    };
    types.fen = add_exception(m, "FenError", with(PyExc_ValueError),
                              "A FEN that cannot be read, or a position that cannot be in a table "
                              "(castling rights, the side not to move in check, ...).");
    types.material = add_exception(m, "MaterialError", with(PyExc_ValueError),
                                   "A material such as 'KQvKR' that cannot be read or has too many men.");
    types.missing = add_exception(m, "TableMissing", with(PyExc_LookupError),
                                  "No table for the position's material in the directory, or more men "
                                  "than any table holds.");
    types.file = add_exception(m, "TableFileError", py::make_tuple(py::handle(base)),
                               "A table file that is truncated, corrupted or of another material, or "
                               "one that could not be written.");
    types.generation = add_exception(m, "GenerationError", py::make_tuple(py::handle(base)),
                                     "A generation job refused or failed (the directory is not writable "
                                     "or in use, the job does not fit in memory, a check failed).");
    py::register_exception_translator(translate);
}

}  // namespace retro::python
