// Probing from Python: retrograde.Tablebase over the library's Tablebase, best move, moves and line,
// with the GIL released while the library works, so threads probe in parallel.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "chess/movegen.hpp"
#include "position_arg.hpp"
#include "probe/line.hpp"
#include "probe/notation.hpp"
#include "probe/report.hpp"

namespace py = pybind11;

namespace retro::python {

namespace {

// A value for the side to move (store/dtm.hpp).
struct Value {
    Dtm dtm;
};

// A move with its notations and its value for the side that plays it (win n: it mates in n plies).
struct ScoredNotation {
    std::string uci, san;
    Dtm value;
};

ScoredNotation notate(const Position& pos, const Move& m, Dtm value) {
    return {to_uci(m), to_san(pos, m), value};
}

void bind_value(py::module_& m) {
    py::class_<Value>(m, "Value",
                      "A value for the side to move. str() gives it as `tbprobe --batch` prints it: "
                      "'win 13', 'loss 0' (checkmated), 'draw'.")
        .def_property_readonly(
            "category", [](const Value& v) { return category(v.dtm); }, "'win', 'loss' or 'draw'")
        .def_property_readonly(
            "dtm", [](const Value& v) { return signed_dtm(v.dtm); },
            "Distance to mate in plies, signed as in lichess's API: positive for a win, negative "
            "for a loss, 0 when checkmated or drawn")
        .def("__str__", [](const Value& v) { return describe(v.dtm); })
        .def("__repr__", [](const Value& v) { return "<retrograde.Value " + describe(v.dtm) + ">"; })
        .def(
            "__eq__", [](const Value& a, const Value& b) { return a.dtm == b.dtm; }, py::is_operator())
        .def("__hash__", [](const Value& v) { return py::hash(py::int_(v.dtm)); });
}

void bind_move(py::module_& m) {
    py::class_<ScoredNotation>(m, "Move",
                               "A legal move with its value for the side that plays it: 'win 13' "
                               "means it mates in 13 plies. str() gives its UCI.")
        .def_readonly("uci", &ScoredNotation::uci, "'h1c6', 'e7e8q'")
        .def_readonly("san", &ScoredNotation::san, "'Qc6', 'e8=Q+'")
        .def_property_readonly(
            "value", [](const ScoredNotation& s) { return Value{s.value}; }, "a retrograde.Value")
        .def("__str__", [](const ScoredNotation& s) { return s.uci; })
        .def("__repr__", [](const ScoredNotation& s) {
            return "<retrograde.Move " + s.uci + " " + s.san + " " + describe(s.value) + ">";
        });
}

}  // namespace

void bind_probing(py::module_& m) {
    bind_value(m);
    bind_move(m);
    py::class_<Tablebase>(m, "Tablebase",
                          "A directory of table files (from tbgen or retrograde.generate). Safe to probe "
                          "from several threads at once; the GIL is released while probing.")
        .def(py::init<std::filesystem::path, size_t>(), py::arg("directory"),
             py::arg("cache_bytes") = BlockCache::DEFAULT_BYTES,
             "cache_bytes: the most decompressed blocks kept in memory for probing")
        .def(
            "probe",
            [](const Tablebase& tb, const py::object& position) {
                const Position pos = position_arg(position);
                py::gil_scoped_release unlocked;
                return Value{tb.probe(pos)};
            },
            py::arg("position"), "The value of the position for its side to move (a retrograde.Value).")
        .def(
            "best_move",
            [](const Tablebase& tb, const py::object& position) -> std::optional<std::string> {
                const Position pos = position_arg(position);
                py::gil_scoped_release unlocked;
                const auto best = best_move(tb, pos);
                if (!best) return std::nullopt;
                return to_uci(best->move);
            },
            py::arg("position"),
            "The best move in UCI ('h1c6'), None when there is no legal move: the quickest mate, else a "
            "draw, else the longest resistance; among equals the first in UCI order.")
        .def(
            "moves",
            [](const Tablebase& tb, const py::object& position) {
                const Position pos = position_arg(position);
                py::gil_scoped_release unlocked;
                std::vector<ScoredNotation> out;
                for (const auto& [move, value] : tb.rank_moves(pos)) out.push_back(notate(pos, move, value));
                return out;
            },
            py::arg("position"),
            "Every legal move as a retrograde.Move, best first; each value is for the side to move, so "
            "the first has the position's value.")
        .def(
            "line",
            [](const Tablebase& tb, const py::object& position) {
                const Position pos = position_arg(position);
                py::gil_scoped_release unlocked;
                const Line line = line_to_mate(tb, pos);
                if (line.end == Line::End::Stopped) throw Error(line.note);
                std::vector<ScoredNotation> out;
                Position at = pos;
                for (const Move& move : line.moves) {
                    out.push_back(notate(at, move, Dtm(line.value - out.size())));
                    at = make_move(at, move);
                }
                return out;
            },
            py::arg("position"),
            "The line to mate with best play by both sides, as retrograde.Move objects whose values "
            "count down ('win 13', 'loss 12', ..., 'win 1': the mate); as many moves as the "
            "position's DTM; [] for a draw or a checkmated side. Raises retrograde.Error when a "
            "table on the way is missing.")
        .def(
            "report",
            [](const Tablebase& tb, const py::object& position, bool line) {
                const Position pos = position_arg(position);
                py::gil_scoped_release unlocked;
                return probe_report(tb, pos, line);
            },
            py::arg("position"), py::arg("line") = true,
            "The text `tbprobe FEN` prints: value, best move and (with line) the line to mate.");
}

}  // namespace retro::python
