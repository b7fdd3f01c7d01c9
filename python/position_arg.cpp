#include "position_arg.hpp"

#include <string>

#include "probe/text.hpp"

namespace py = pybind11;

namespace retro::python {

namespace {

std::string type_name(py::handle h) { return py::str(py::type::handle_of(h).attr("__name__")); }

}  // namespace

Position position_arg(py::handle arg) {
    if (py::isinstance<py::str>(arg)) return Position::from_fen(trim(arg.cast<std::string>()));
    if (!py::hasattr(arg, "fen"))
        throw py::type_error("a position is a FEN string or an object with a fen() method, not a " +
                             type_name(arg));
    const py::object fen = arg.attr("fen")();
    if (!py::isinstance<py::str>(fen))
        throw py::type_error(type_name(arg) + ".fen() returned a " + type_name(fen) + ", not a str");
    return Position::from_fen(trim(fen.cast<std::string>()));
}

}  // namespace retro::python
