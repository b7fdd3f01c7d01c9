// The text tbprobe prints: a full report for one position, and one line per FEN in batch mode.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "probe/tablebase.hpp"

namespace retro {

// "win 19 (White mates in 10)", "loss 0 (Black is checkmated)", "draw (stalemate)".
std::string value_summary(const Position& pos, Dtm value);

// Value, best move (UCI and SAN) and, when with_line, the line to mate in SAN and UCI. Throws
// ProbeError (or StoreError) when the position's table is missing or unreadable.
std::string probe_report(const Tablebase& tables, const Position& pos, bool with_line = true);

// "bad FEN: <why>": how every interface (batch lines, HTTP, Python) words a FEN it cannot read.
std::string bad_fen_reason(std::string_view why);

// One batch line: "FEN<TAB>win 19<TAB>d1d5", "FEN<TAB>draw<TAB>-" when there is no legal move, or
// "FEN<TAB>error: <reason>" for a bad FEN, a missing table or too many men. Never throws.
std::string batch_line(const Tablebase& tables, std::string_view fen);

// batch_line for every line of in (blank lines and lines starting with '#' are skipped), flushed
// line by line. Returns the number of error lines.
int run_batch(const Tablebase& tables, std::istream& in, std::ostream& out);

}  // namespace retro
