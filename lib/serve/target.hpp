// The target of an HTTP request ("/standard?fen=8/8/8/4k3/8/8/8/4K2Q%20w%20-%20-%200%201"): its path
// and its decoded query parameters.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace retro {

struct Target {
    std::string path;
    std::map<std::string, std::string> params;  // the last one wins when a name repeats

    std::optional<std::string> param(const std::string& name) const;
};

// Splits the target at '?' and decodes the query as a form does: "%20" and '+' are spaces. Throws
// RequestError (400) for a malformed percent escape or a decoded NUL byte.
Target parse_target(std::string_view target);

// The FEN of a "fen" parameter: lichess lets '_' stand for ' ' so that FENs need no escaping.
std::string fen_from_param(std::string fen);

}  // namespace retro
