#include "serve/api.hpp"

#include <array>

#include "probe/report.hpp"
#include "probe/text.hpp"
#include "serve/answers.hpp"
#include "serve/batch_body.hpp"
#include "serve/page.hpp"
#include "serve/request_error.hpp"
#include "serve/target.hpp"

namespace retro {

namespace {

enum class Endpoint { Page, Standard, Mainline, Batch };

struct Route {
    std::string_view path;
    Endpoint endpoint;
    std::string_view method;  // GET also takes HEAD
};

constexpr std::array<Route, 4> ROUTES = {{
    {"/", Endpoint::Page, "GET"},
    {"/standard", Endpoint::Standard, "GET"},
    {"/standard/mainline", Endpoint::Mainline, "GET"},
    {"/standard/batch", Endpoint::Batch, "POST"},
}};

std::string allowed_methods(const Route& route) {
    return route.method == "GET" ? "GET, HEAD, OPTIONS" : std::string(route.method) + ", OPTIONS";
}

// 400 for what the client sent (a request or a FEN the server cannot read), 404 for a position it
// has no table for, 500 for the server's own trouble (a corrupted table file).
int status_of(const std::exception& e) {
    if (const auto* r = dynamic_cast<const RequestError*>(&e)) return r->status();
    if (dynamic_cast<const PositionError*>(&e)) return 400;
    if (dynamic_cast<const ProbeError*>(&e)) return 404;
    return 500;
}

std::string reason_of(const std::exception& e) {
    return dynamic_cast<const PositionError*>(&e) ? bad_fen_reason(e.what()) : std::string(e.what());
}

ApiReply json_reply(int status, std::string body) {
    ApiReply r;
    r.status = status;
    r.body = std::move(body);
    return r;
}

Position fen_param(const Target& target) {
    const auto fen = target.param("fen");
    if (!fen) throw RequestError(400, "missing parameter: fen (" + target.path + "?fen=FEN)");
    return Position::from_fen(trim(fen_from_param(*fen)));
}

std::string batch_answer(const Tablebase& tables, const std::string& body, const ApiLimits& limits) {
    JsonWriter out;
    out.begin_array();
    for (const std::string& fen : parse_batch_body(body, limits.max_batch)) {
        // Each answer in its own writer, so that a failure halfway leaves no half object behind.
        JsonWriter one;
        try {
            write_standard(one, tables, Position::from_fen(trim(fen)));
            out.raw(one.str());
        } catch (const std::exception& e) {
            out.begin_object().key("error").string(reason_of(e)).key("status").number(status_of(e));
            out.end_object();
        }
    }
    out.end_array();
    return out.take();
}

ApiReply answer(const Tablebase& tables, const ApiRequest& request, const ApiLimits& limits) {
    const Target target = parse_target(request.target);
    const Route* route = nullptr;
    for (const Route& r : ROUTES)
        if (r.path == target.path) route = &r;
    if (!route)
        return error_reply(404, "no such path: " + target.path +
                                    " (try /standard?fen=..., /standard/mainline?fen=..., "
                                    "POST /standard/batch, or / for the page)");
    if (request.method == "OPTIONS") {
        ApiReply r = json_reply(204, "");
        r.content_type.clear();
        r.headers = {{"Allow", allowed_methods(*route)},
                     {"Access-Control-Allow-Methods", allowed_methods(*route)},
                     {"Access-Control-Allow-Headers", "Content-Type"},
                     {"Access-Control-Max-Age", "86400"}};
        return r;
    }
    const bool takes =
        request.method == route->method || (route->method == "GET" && request.method == "HEAD");
    if (!takes) {
        ApiReply r = error_reply(405, request.method + " is not allowed on " + target.path +
                                          " (allowed: " + allowed_methods(*route) + ")");
        r.headers = {{"Allow", allowed_methods(*route)}};
        return r;
    }
    JsonWriter out;
    switch (route->endpoint) {
        case Endpoint::Page: {
            ApiReply r = json_reply(200, std::string(page_html()));
            r.content_type = "text/html; charset=utf-8";
            return r;
        }
        case Endpoint::Standard:
            write_standard(out, tables, fen_param(target));
            return json_reply(200, out.take());
        case Endpoint::Mainline:
            write_mainline(out, tables, fen_param(target));
            return json_reply(200, out.take());
        case Endpoint::Batch:
            return json_reply(200, batch_answer(tables, request.body, limits));
    }
    return error_reply(500, "unhandled endpoint");
}

}  // namespace

ApiReply error_reply(int status, std::string_view message) {
    JsonWriter out;
    write_error(out, message);
    return json_reply(status, out.take());
}

ApiReply handle_request(const Tablebase& tables, const ApiRequest& request, const ApiLimits& limits) {
    try {
        return answer(tables, request, limits);
    } catch (const std::exception& e) {
        return error_reply(status_of(e), reason_of(e));
    } catch (...) {
        return error_reply(500, "internal error");
    }
}

}  // namespace retro
