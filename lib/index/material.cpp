#include "index/material.hpp"

#include <cctype>
#include <tuple>

namespace retro {

namespace {

constexpr int PIECE_VALUE[PIECE_TYPE_COUNT] = {0, 9, 5, 3, 3, 1};

// Larger means stronger: total value first, then the counts from queen down to pawn.
auto strength(const Material& m, Color c) {
    return std::make_tuple(m.value(c), m.count(c, QUEEN), m.count(c, ROOK), m.count(c, BISHOP),
                           m.count(c, KNIGHT), m.count(c, PAWN));
}

}  // namespace

Material Material::parse(const std::string& text) {
    const auto v = text.find_first_of("vV");
    if (v == std::string::npos || text.find_first_of("vV", v + 1) != std::string::npos)
        throw MaterialError("material '" + text + "' needs exactly one 'v' between the sides, as in KQvKR");
    Material m;
    const std::string sides[2] = {text.substr(0, v), text.substr(v + 1)};
    for (Color c : {WHITE, BLACK}) {
        for (char ch : sides[c]) {
            const PieceType t = piece_type_from_letter(ch);
            if (t == NO_PIECE_TYPE)
                throw MaterialError("material '" + text + "': '" + std::string(1, ch) +
                                    "' is not a piece letter (KQRBNP)");
            ++m.counts_[c][t];
        }
        if (m.counts_[c][KING] != 1)
            throw MaterialError("material '" + text + "': each side needs exactly one king");
    }
    if (m.total() > MAX_MEN)
        throw MaterialError("material '" + text + "' has " + std::to_string(m.total()) + " men; at most " +
                            std::to_string(MAX_MEN) + " are supported");
    return m;
}

Material Material::of(const Position& pos) {
    Material m;
    for (Color c : {WHITE, BLACK})
        for (int t = 0; t < PIECE_TYPE_COUNT; ++t)
            m.counts_[c][t] = uint8_t(popcount(pos.pieces(c, PieceType(t))));
    return m;
}

int Material::count(Color c) const {
    int n = 0;
    for (auto k : counts_[c]) n += k;
    return n;
}

std::string Material::name() const {
    std::string out;
    for (Color c : {WHITE, BLACK}) {
        if (c == BLACK) out += 'v';
        for (int t = 0; t < PIECE_TYPE_COUNT; ++t) out.append(counts_[c][t], piece_letter(PieceType(t)));
    }
    return out;
}

Material Material::color_swapped() const {
    Material m;
    m.counts_ = {counts_[BLACK], counts_[WHITE]};
    return m;
}

int Material::value(Color c) const {
    int v = 0;
    for (int t = QUEEN; t <= PAWN; ++t) v += PIECE_VALUE[t] * count(c, PieceType(t));
    return v;
}

int Material::largest_value(Color c) const {
    for (int t = QUEEN; t <= PAWN; ++t)
        if (count(c, PieceType(t))) return PIECE_VALUE[t];
    return 0;
}

bool Material::is_canonical() const { return strength(*this, WHITE) >= strength(*this, BLACK); }

Material Material::without(Color c, PieceType t) const {
    Material m = *this;
    --m.counts_[c][t];
    return m;
}

Material Material::with(Color c, PieceType t) const {
    Material m = *this;
    ++m.counts_[c][t];
    return m;
}

std::string list_names(const std::vector<Material>& materials) {
    std::string list;
    for (size_t i = 0; i < materials.size(); ++i)
        list += (i == 0 ? "" : i + 1 == materials.size() ? " and " : ", ") + materials[i].name();
    return list;
}

}  // namespace retro
