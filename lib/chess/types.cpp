#include "chess/types.hpp"

#include <cctype>

namespace retro {

namespace {
constexpr char LETTERS[] = "KQRBNP";
}

char piece_letter(PieceType t) { return t < NO_PIECE_TYPE ? LETTERS[t] : '?'; }

PieceType piece_type_from_letter(char c) {
    const char upper = char(std::toupper(static_cast<unsigned char>(c)));
    for (int t = 0; t < PIECE_TYPE_COUNT; ++t)
        if (LETTERS[t] == upper) return PieceType(t);
    return NO_PIECE_TYPE;
}

std::string square_name(Square s) {
    if (s < 0 || s >= 64) return "-";
    return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

Square parse_square(const std::string& s) {
    if (s.size() != 2) return NO_SQUARE;
    const int file = s[0] - 'a';
    const int rank = s[1] - '1';
    return on_board(file, rank) ? make_square(file, rank) : NO_SQUARE;
}

}  // namespace retro
