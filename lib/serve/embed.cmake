# Turns INPUT (the page) into OUTPUT, a header defining its bytes as a constexpr array, so that the
# page needs no file at run time and any byte (quotes, backslashes, non-ASCII) survives.
file(READ ${INPUT} hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
string(REGEX REPLACE "(('\\\\x[0-9a-f][0-9a-f]',){16})" "\\1\n    " bytes "${bytes}")
file(WRITE ${OUTPUT}.tmp
     "// Generated from lib/serve/page.html by lib/serve/embed.cmake: do not edit.\n"
     "#pragma once\n\n#include <cstddef>\n\nnamespace retro::generated {\n\n"
     "constexpr std::size_t PAGE_HTML_SIZE = ${size};\n"
     "constexpr char PAGE_HTML[PAGE_HTML_SIZE + 1] = {\n    ${bytes}'\\0'};\n\n"
     "}  // namespace retro::generated\n")
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
