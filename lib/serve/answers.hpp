// The server's answers as JSON, in the shape of lichess's tablebase API (lila-tablebase): values for
// the side to move, "category" "win"/"loss"/"draw" and "dtm" in signed plies (positive: the side to
// move mates in that many plies; negative: it is mated in that many; 0: checkmated, or a draw), as
// category() and signed_dtm() of store/dtm.hpp give them.
// lichess's DTZ fields ("dtz", "precise_dtz") are there and null, lichess's word for unknown; the
// variant fields and the other metrics (dtc, dtw) are left out. docs/server.md has examples.
#pragma once

#include <string_view>

#include "probe/tablebase.hpp"
#include "serve/json_writer.hpp"

namespace retro {

// GET /standard: category, dtm, checkmate, stalemate, insufficient_material, and "moves", every
// legal move best first (ties in UCI order), each with uci, san, zeroing and the same fields for the
// position after it, for its side to move (so the best move of a win has category "loss"). Throws
// ProbeError when a needed table is missing, StoreError when a file is corrupted.
void write_standard(JsonWriter& out, const Tablebase& tables, const Position& pos);

// GET /standard/mainline: "dtm" of pos, "mainline", the line of perfect play to mate (uci, san, and
// the dtm after each move, for the side then to move), empty for a draw; "winner" "w", "b" or null.
// A line cut short by a missing table or tables that contradict themselves is still answered, with
// "winner" null and a "note" saying why. Throws ProbeError when pos itself cannot be probed.
void write_mainline(JsonWriter& out, const Tablebase& tables, const Position& pos);

// {"error": message}
void write_error(JsonWriter& out, std::string_view message);

}  // namespace retro
