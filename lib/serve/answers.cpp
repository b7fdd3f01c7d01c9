#include "serve/answers.hpp"

#include "probe/game.hpp"
#include "probe/line.hpp"
#include "probe/notation.hpp"

namespace retro {

namespace {

// The fields lichess gives a position and each position after a move: its value for its side to
// move, and whether the game is over there.
void write_position_fields(JsonWriter& out, const Position& pos, Dtm value) {
    const GameEnd::Kind end = game_end(pos).kind;
    out.key("category").string(category(value));
    out.key("dtm").number(signed_dtm(value));
    out.key("dtz").null();
    out.key("precise_dtz").null();
    out.key("checkmate").boolean(end == GameEnd::Kind::Checkmate);
    out.key("stalemate").boolean(end == GameEnd::Kind::Stalemate);
    out.key("insufficient_material").boolean(insufficient_material(pos));
}

}  // namespace

void write_standard(JsonWriter& out, const Tablebase& tables, const Position& pos) {
    const Dtm value = tables.probe(pos);
    const auto moves = ranked_moves(tables, pos);
    out.begin_object();
    write_position_fields(out, pos, value);
    out.key("moves").begin_array();
    for (const ScoredMove& m : moves) {
        out.begin_object();
        out.key("uci").string(to_uci(m.move));
        out.key("san").string(to_san(pos, m.move));
        out.key("zeroing").boolean(m.move.capture || pos.type_on(m.move.from) == PAWN);
        write_position_fields(out, make_move(pos, m.move), value_after(m.value));
        out.end_object();
    }
    out.end_array();
    out.end_object();
}

void write_mainline(JsonWriter& out, const Tablebase& tables, const Position& pos) {
    const Line line = line_to_mate(tables, pos);
    out.begin_object();
    out.key("dtm").number(signed_dtm(line.value));
    out.key("dtz").null();
    out.key("precise_dtz").null();
    out.key("mainline").begin_array();
    Position cur = pos;
    Dtm after = line.value;
    for (const Move& m : line.moves) {
        after = value_after(after);
        out.begin_object();
        out.key("uci").string(to_uci(m));
        out.key("san").string(to_san(cur, m));
        out.key("dtm").number(signed_dtm(after));
        out.key("dtz").null();
        out.key("precise_dtz").null();
        out.end_object();
        cur = make_move(cur, m);
    }
    out.end_array();
    out.key("winner");
    if (line.end == Line::End::Checkmate)
        out.string(cur.side_to_move() == WHITE ? "b" : "w");
    else
        out.null();
    if (line.end == Line::End::Stopped) out.key("note").string(line.note);
    out.end_object();
}

void write_error(JsonWriter& out, std::string_view message) {
    out.begin_object().key("error").string(message).end_object();
}

}  // namespace retro
