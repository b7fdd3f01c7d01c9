// Material signatures such as "KQvKR": which pieces each side has.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "chess/position.hpp"

namespace retro {

class MaterialError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

constexpr int MAX_MEN = 7;

class Material {
public:
    Material() = default;
    // Parses "KQvKR" (case-insensitive, 'v' between the sides). Throws MaterialError naming the fault.
    static Material parse(const std::string& text);
    static Material of(const Position& pos);

    int count(Color c, PieceType t) const { return counts_[c][t]; }
    int count(Color c) const;
    int total() const { return count(WHITE) + count(BLACK); }
    bool has_pawns() const { return counts_[WHITE][PAWN] + counts_[BLACK][PAWN] > 0; }
    // The men of c besides the king, in pawns: a queen 9, a rook 5, a bishop or a knight 3.
    int value(Color c) const;
    // The value of c's most valuable man besides the king (0 when c has a bare king).
    int largest_value(Color c) const;

    std::string name() const;  // pieces in KQRBNP order, white first: "KRPvKR"
    Material color_swapped() const;
    // Syzygy's orientation: the stronger side is white. Equal sides are canonical as they are.
    bool is_canonical() const;
    Material canonical() const { return is_canonical() ? *this : color_swapped(); }

    // The material after a piece of colour c and type t leaves (capture) or changes (promotion).
    Material without(Color c, PieceType t) const;
    Material with(Color c, PieceType t) const;

    friend bool operator==(const Material&, const Material&) = default;
    friend bool operator<(const Material& a, const Material& b) { return a.name() < b.name(); }

private:
    std::array<std::array<uint8_t, PIECE_TYPE_COUNT>, 2> counts_{};
};

// The names as a message lists them: "KQvK", "KQvK and KRvK", "KBvK, KNvK and KQvK".
std::string list_names(const std::vector<Material>& materials);

}  // namespace retro
