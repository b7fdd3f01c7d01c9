// The Python module retrograde: a thin layer over the library in lib/ (docs/python.md).
#include "bindings.hpp"

PYBIND11_MODULE(retrograde, m) {
    m.doc() =
        "Chess endgame tables with exact distance to mate: generate them and probe them.\n\n"
        "    tb = retrograde.Tablebase('tables')\n"
        "    tb.probe('8/8/8/4k3/8/8/8/4K2Q w - - 0 1')   # <retrograde.Value win 13>\n\n"
        "Positions are FEN strings or objects with a fen() method (python-chess boards). See "
        "docs/python.md.";
    retro::python::bind_errors(m);
    retro::python::bind_probing(m);
    retro::python::bind_generation(m);
}
