#include "index/material.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace retro;

namespace {

std::string material_error(const std::string& text) {
    try {
        Material::parse(text);
    } catch (const MaterialError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Material, ParsesCounts) {
    const Material kqkr = Material::parse("KQvKR");
    EXPECT_EQ(kqkr.count(WHITE, KING), 1);
    EXPECT_EQ(kqkr.count(WHITE, QUEEN), 1);
    EXPECT_EQ(kqkr.count(WHITE, ROOK), 0);
    EXPECT_EQ(kqkr.count(BLACK, KING), 1);
    EXPECT_EQ(kqkr.count(BLACK, ROOK), 1);
    EXPECT_EQ(kqkr.count(BLACK, QUEEN), 0);
    EXPECT_EQ(kqkr.count(WHITE), 2);
    EXPECT_EQ(kqkr.total(), 4);
    EXPECT_FALSE(kqkr.has_pawns());
    EXPECT_EQ(kqkr.name(), "KQvKR");

    const Material krpkr = Material::parse("KRPvKR");
    EXPECT_EQ(krpkr.count(WHITE, ROOK), 1);
    EXPECT_EQ(krpkr.count(WHITE, PAWN), 1);
    EXPECT_EQ(krpkr.count(BLACK, ROOK), 1);
    EXPECT_EQ(krpkr.total(), 5);
    EXPECT_TRUE(krpkr.has_pawns());
    EXPECT_EQ(krpkr.name(), "KRPvKR");

    EXPECT_EQ(Material::parse("KRRvKB").count(WHITE, ROOK), 2);
    EXPECT_EQ(Material::parse("KvK").total(), 2);
}

TEST(Material, CaseInsensitive) {
    EXPECT_EQ(Material::parse("krpvkr"), Material::parse("KRPvKR"));
    EXPECT_EQ(Material::parse("kQVkR"), Material::parse("KQvKR"));
    EXPECT_EQ(Material::parse("kqvkr").name(), "KQvKR");
}

TEST(Material, NameOrdersPiecesKQRBNP) {
    EXPECT_EQ(Material::parse("KPNBRvK").name(), "KRBNPvK");
    EXPECT_EQ(Material::parse("PKvKN").name(), "KPvKN");
}

TEST(Material, CanonicalName) {
    EXPECT_EQ(Material::parse("KvKR").canonical().name(), "KRvK");
    EXPECT_EQ(Material::parse("KNvKB").canonical().name(), "KBvKN");
    EXPECT_EQ(Material::parse("KPvKR").canonical().name(), "KRvKP");
    EXPECT_EQ(Material::parse("KRvKQ").canonical().name(), "KQvKR");
    EXPECT_EQ(Material::parse("KRvKRP").canonical().name(), "KRPvKR");
    for (const char* name :
         {"KQvK", "KRvK", "KPvK", "KQvKR", "KRPvKR", "KRBvKR", "KQRvKQ", "KBNvK", "KRvKR", "KvK"}) {
        const Material m = Material::parse(name);
        EXPECT_TRUE(m.is_canonical()) << name;
        EXPECT_EQ(m.canonical(), m) << name;
    }
    EXPECT_FALSE(Material::parse("KvKR").is_canonical());
    EXPECT_FALSE(Material::parse("KNvKB").is_canonical());
}

TEST(Material, ColorSwap) {
    EXPECT_EQ(Material::parse("KQvKR").color_swapped().name(), "KRvKQ");
    EXPECT_EQ(Material::parse("KRPvKR").color_swapped().name(), "KRvKRP");
    EXPECT_EQ(Material::parse("KvKR").color_swapped(), Material::parse("KRvK"));
    const Material m = Material::parse("KBNPvKQ");
    EXPECT_EQ(m.color_swapped().color_swapped(), m);
    EXPECT_EQ(m.color_swapped().canonical(), m.canonical());
}

TEST(Material, OfPosition) {
    const Position pos = Position::from_fen("8/8/8/3k4/8/2R5/1P6/K6r w - - 0 1");
    EXPECT_EQ(Material::of(pos), Material::parse("KRPvKR"));
    EXPECT_EQ(Material::of(pos.color_flipped()), Material::parse("KRvKRP"));
}

TEST(Material, WithAndWithout) {
    const Material m = Material::parse("KRPvKR");
    EXPECT_EQ(m.without(BLACK, ROOK).name(), "KRPvK");
    EXPECT_EQ(m.without(WHITE, PAWN).with(WHITE, QUEEN).name(), "KQRvKR");
}

TEST(Material, BadStringsRejected) {
    const struct {
        const char* text;
        const char* message;  // a substring of the error message
    } cases[] = {
        {"KQvQ", "each side needs exactly one king"},
        {"KKvK", "each side needs exactly one king"},
        {"QvK", "each side needs exactly one king"},
        {"KQvK7", "'7' is not a piece letter"},
        {"KXvK", "'X' is not a piece letter"},
        {"KQ vK", "' ' is not a piece letter"},
        {"KQRBNPvKP", "has 8 men; at most 7"},
        {"KQQQQvKQR", "has 8 men; at most 7"},
        {"KQK", "needs exactly one 'v'"},
        {"", "needs exactly one 'v'"},
        {"KvKvK", "needs exactly one 'v'"},
    };
    for (const auto& c : cases) {
        const std::string message = material_error(c.text);
        ASSERT_FALSE(message.empty()) << "accepted: '" << c.text << "'";
        EXPECT_NE(message.find(c.message), std::string::npos)
            << "'" << c.text << "': " << message << "\nexpected to contain: " << c.message;
    }
}
