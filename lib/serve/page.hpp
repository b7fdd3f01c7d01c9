// The page served at "/": lib/serve/page.html, embedded into the binary at build time.
#pragma once

#include <string_view>

namespace retro {

std::string_view page_html();

}  // namespace retro
