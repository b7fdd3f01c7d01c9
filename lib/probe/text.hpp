// Small text helpers for the lines that users and GUIs type.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace retro {

// s without the white space (spaces, tabs, line ends) around it.
inline std::string trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return std::string(s.substr(b, e - b));
}

}  // namespace retro
