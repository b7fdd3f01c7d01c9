#include "serve/target.hpp"

#include <algorithm>

#include "serve/request_error.hpp"

namespace retro {

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string decode(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+') {
            out += ' ';
        } else if (s[i] != '%') {
            out += s[i];
        } else {
            const int hi = i + 2 < s.size() ? hex_digit(s[i + 1]) : -1;
            const int lo = hi >= 0 ? hex_digit(s[i + 2]) : -1;
            if (lo < 0) throw RequestError(400, "malformed percent escape in the query: " + std::string(s));
            if (hi == 0 && lo == 0) throw RequestError(400, "NUL byte (%00) in the query");
            out += char(hi * 16 + lo);
            i += 2;
        }
    }
    return out;
}

}  // namespace

std::optional<std::string> Target::param(const std::string& name) const {
    const auto it = params.find(name);
    if (it == params.end()) return std::nullopt;
    return it->second;
}

Target parse_target(std::string_view target) {
    Target t;
    const size_t q = target.find('?');
    t.path = std::string(target.substr(0, q));
    if (q == std::string_view::npos) return t;
    std::string_view query = target.substr(q + 1);
    while (!query.empty()) {
        const size_t amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        if (pair.empty()) continue;
        const size_t eq = pair.find('=');
        const std::string_view value =
            eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
        t.params[decode(pair.substr(0, eq))] = decode(value);
    }
    return t;
}

std::string fen_from_param(std::string fen) {
    std::replace(fen.begin(), fen.end(), '_', ' ');
    return fen;
}

}  // namespace retro
