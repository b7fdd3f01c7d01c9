#include "probe/line.hpp"

#include "chess/movegen.hpp"

namespace retro {

std::string describe_long(Dtm v) {
    if (is_draw(v)) return "draw";
    if (v == 0) return "checkmated";
    const std::string plies = std::to_string(v) + (v == 1 ? " ply" : " plies");
    const int moves = mate_in_moves(v);
    if (is_win(v)) return "win in " + plies + " (mate in " + std::to_string(moves) + ")";
    return "loss in " + plies + " (mated in " + std::to_string(-moves) + ")";
}

int mate_in_moves(Dtm v) {
    if (is_draw(v)) return 0;
    return is_win(v) ? (v + 1) / 2 : -(v / 2);
}

std::vector<ScoredMove> ranked_moves(const Tablebase& tables, const Position& pos) {
    std::vector<ScoredMove> out;
    for (const auto& [move, value] : tables.rank_moves(pos)) out.push_back({move, value});  // in UCI order
    return out;
}

std::optional<ScoredMove> best_move(const Tablebase& tables, const Position& pos) {
    const auto ranked = ranked_moves(tables, pos);
    if (ranked.empty()) return std::nullopt;
    return ranked.front();
}

Line line_to_mate(const Tablebase& tables, const Position& pos) {
    Line line;
    line.value = tables.probe(pos);
    if (is_draw(line.value)) {
        if (!has_legal_move(pos)) {
            line.end = pos.in_check(pos.side_to_move()) ? Line::End::Checkmate : Line::End::Stalemate;
            line.note = line.end == Line::End::Stalemate ? "stalemate" : "checkmate, yet the tables say draw";
        } else {
            line.end = Line::End::Draw;
            line.note = "draw with best play: no line to mate";
        }
        return line;
    }
    Position cur = pos;
    Dtm expect = line.value;
    for (;;) {
        if (!has_legal_move(cur)) {
            const bool mate = cur.in_check(cur.side_to_move());
            line.end = mate ? Line::End::Checkmate : Line::End::Stopped;
            if (!mate)
                line.note = "stalemate after " + std::to_string(line.moves.size()) +
                            " plies, yet the tables said " + describe(expect);
            else if (expect != 0)
                line.note = "checkmate " + std::to_string(expect) + " plies earlier than the tables said";
            return line;
        }
        if (line.moves.size() >= line.value) {
            line.end = Line::End::Stopped;
            line.note =
                "no mate after " + std::to_string(line.value) + " plies: the tables contradict themselves";
            return line;
        }
        std::optional<ScoredMove> best;
        try {
            best = best_move(tables, cur);
        } catch (const std::exception& e) {
            line.end = Line::End::Stopped;
            line.note =
                std::string("line stops after ") + std::to_string(line.moves.size()) + " plies: " + e.what();
            return line;
        }
        if (best->value != expect) {
            line.end = Line::End::Stopped;
            line.note = "tables contradict themselves after " + std::to_string(line.moves.size()) +
                        " plies: expected " + describe(expect) + ", the best move gives " +
                        describe(best->value);
            return line;
        }
        line.moves.push_back(best->move);
        cur = make_move(cur, best->move);
        --expect;
    }
}

}  // namespace retro
