// The HTTP API without the network: a request's method, target and body in, the reply out. The
// server (serve/http_server.hpp) only moves bytes; everything a client sees is decided here.
//
//   GET  /                     the page (serve/page.hpp)
//   GET  /standard?fen=FEN     the position and every move (serve/answers.hpp)
//   GET  /standard/mainline?fen=FEN
//   POST /standard/batch       body ["FEN", ...] or {"fens": [...]}: one answer each, in order
//
// Errors are JSON {"error": reason}: 400 for a bad FEN or request, 404 for a position without its
// table (or with too many men) and for unknown paths, 405 for a method a path does not take (with
// Allow), 413 for a batch over the limit, 500 for a corrupted table file. In a batch, a FEN that
// fails gets {"error": reason, "status": code} in its place and the others are answered.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "probe/tablebase.hpp"

namespace retro {

struct ApiRequest {
    std::string method;  // "GET", "POST", ...
    std::string target;  // "/standard?fen=..."
    std::string body;
};

struct ApiReply {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type
};

struct ApiLimits {
    size_t max_batch = 1000;  // FENs in one POST /standard/batch
};

// {"error": message} with that status, as every error reply is (also the server's own, such as 413).
ApiReply error_reply(int status, std::string_view message);

// Never throws (a failure of the library becomes a 500 reply). HEAD is answered as GET; the server
// leaves out the body. OPTIONS (a browser's CORS preflight) gets 204 with the allowed methods.
ApiReply handle_request(const Tablebase& tables, const ApiRequest& request, const ApiLimits& limits = {});

}  // namespace retro
