// The body of POST /standard/batch: a JSON array of FEN strings, ["fen", ...], or an object with
// them under "fens", {"fens": ["fen", ...]}.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace retro {

// The FENs of a batch body, in order. Throws RequestError: 400 for anything else than the two
// shapes above (with where and why), 413 for more than max_fens FENs.
std::vector<std::string> parse_batch_body(std::string_view body, size_t max_fens);

}  // namespace retro
