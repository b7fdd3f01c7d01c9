#include "probe/report.hpp"

#include <istream>
#include <ostream>

#include "chess/movegen.hpp"
#include "index/material.hpp"
#include "probe/line.hpp"
#include "probe/notation.hpp"
#include "probe/text.hpp"

namespace retro {

std::string value_summary(const Position& pos, Dtm value) {
    const Color stm = pos.side_to_move();
    std::string out = describe(value);
    if (is_draw(value)) {
        if (!has_legal_move(pos)) out += " (stalemate)";
        return out;
    }
    if (value == 0) return out + " (" + color_title(stm) + " is checkmated)";
    const int moves = mate_in_moves(value);
    if (is_win(value)) return out + " (" + color_title(stm) + " mates in " + std::to_string(moves) + ")";
    return out + " (" + color_title(stm) + " is mated in " + std::to_string(-moves) + ")";
}

std::string probe_report(const Tablebase& tables, const Position& pos, bool with_line) {
    const Dtm value = tables.probe(pos);
    std::string out = "position: " + pos.fen() + "\n";
    out += "material: " + Material::of(pos).name() + ", " + color_name(pos.side_to_move()) + " to move\n";
    out += "value:    " + value_summary(pos, value) + "\n";
    const auto best = best_move(tables, pos);
    if (best)
        out += "best:     " + to_uci(best->move) + " (" + to_san(pos, best->move) + ")\n";
    else
        out += "best:     - (no legal move)\n";
    if (!with_line) return out;
    if (is_draw(value) || value == 0) {
        out += "line:     none (" +
               std::string(value == 0 ? "already checkmated" : "no mate with best play") + ")\n";
        return out;
    }
    const Line line = line_to_mate(tables, pos);
    out += "line:     " + std::to_string(line.moves.size()) + " plies" +
           (line.end == Line::End::Checkmate ? ", ends in checkmate" : "") + "\n";
    out += "  SAN:    " + san_line(pos, line.moves) + "\n";
    out += "  UCI:    " + uci_line(line.moves) + "\n";
    if (!line.note.empty()) out += "  note:   " + line.note + "\n";
    return out;
}

std::string bad_fen_reason(std::string_view why) { return "bad FEN: " + std::string(why); }

std::string batch_line(const Tablebase& tables, std::string_view text) {
    const std::string fen = trim(text);
    Position pos;
    try {
        pos = Position::from_fen(fen);
    } catch (const std::exception& e) {
        return fen + "\terror: " + bad_fen_reason(e.what());
    }
    try {
        const Dtm value = tables.probe(pos);
        const auto best = best_move(tables, pos);
        return fen + "\t" + describe(value) + "\t" + (best ? to_uci(best->move) : "-");
    } catch (const std::exception& e) {
        return fen + "\terror: " + e.what();
    }
}

int run_batch(const Tablebase& tables, std::istream& in, std::ostream& out) {
    int errors = 0;
    std::string line;
    while (std::getline(in, line)) {
        const std::string fen = trim(line);
        if (fen.empty() || fen.front() == '#') continue;
        const std::string result = batch_line(tables, fen);
        if (result.find("\terror: ") != std::string::npos) ++errors;
        out << result << "\n" << std::flush;
    }
    return errors;
}

}  // namespace retro
