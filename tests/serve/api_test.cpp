// The HTTP API without the network (serve/api.hpp): lichess-shaped answers with known values, every
// error status, the batch body, and the pieces below them (JSON writer, request target).
#include "serve/api.hpp"

#include <gtest/gtest.h>

#include "probe/line.hpp"
#include "serve/batch_body.hpp"
#include "serve/json_writer.hpp"
#include "serve/request_error.hpp"
#include "serve/target.hpp"
#include "support/probe_test_tables.hpp"

using namespace retro;

namespace {

ApiReply get(const std::string& target, const Tablebase& tables = retro::testing::three_man_tables()) {
    return handle_request(tables, {"GET", target, ""});
}

ApiReply post_batch(const std::string& body, const ApiLimits& limits = {}) {
    return handle_request(retro::testing::three_man_tables(), {"POST", "/standard/batch", body}, limits);
}

// The query string of a FEN, spaces as %20.
std::string fen_query(const std::string& fen) {
    std::string out = "?fen=";
    for (char c : fen) out += c == ' ' ? std::string("%20") : std::string(1, c);
    return out;
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

std::string header(const ApiReply& r, const std::string& name) {
    for (const auto& [n, v] : r.headers)
        if (n == name) return v;
    return "";
}

const std::string NO_DTZ = R"("dtz":null,"precise_dtz":null)";
const std::string NOT_OVER = R"("checkmate":false,"stalemate":false,"insufficient_material":false)";

}  // namespace

TEST(ServeApi, KQvKWinIn13BestMoveFirstInLichessConvention) {
    const std::string fen = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1";
    const ApiReply r = get("/standard" + fen_query(fen));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.content_type, "application/json");
    // The position: a win in 13 plies for White. Its best move leaves Black lost in 12: "loss", -12.
    const std::string start =
        R"({"category":"win","dtm":13,)" + NO_DTZ + "," + NOT_OVER +
        R"(,"moves":[{"uci":"h1c6","san":"Qc6","zeroing":false,"category":"loss","dtm":-12,)" + NO_DTZ + "," +
        NOT_OVER + "}";
    EXPECT_EQ(r.body.substr(0, start.size()), start) << r.body.substr(0, 400);
    const auto ranked = ranked_moves(retro::testing::three_man_tables(), Position::from_fen(fen));
    EXPECT_EQ(count(r.body, R"("uci":)"), ranked.size());
    // Queen moves next to the king hang her: draws, after every win. Underscores stand for spaces.
    EXPECT_NE(r.body.find(R"({"uci":"h1e4","san":"Qe4+","zeroing":false,"category":"draw","dtm":0,)"),
              std::string::npos);
    EXPECT_EQ(get("/standard?fen=8/8/8/4k3/8/8/8/4K2Q_w_-_-_0_1").body, r.body);
    EXPECT_EQ(get("/standard?fen=8/8/8/4k3/8/8/8/4K2Q+w+-+-+0+1").body, r.body);
}

TEST(ServeApi, CheckmateStalemateDrawAndInsufficientMaterial) {
    // Mate in one: the mate first, leaving Black checkmated (loss, dtm 0).
    const ApiReply mate_in_one = get("/standard" + fen_query("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1"));
    EXPECT_EQ(mate_in_one.body.rfind(R"({"category":"win","dtm":1,)", 0), 0u) << mate_in_one.body;
    EXPECT_NE(mate_in_one.body.find(
                  R"("moves":[{"uci":"g1g8","san":"Qg8#","zeroing":false,"category":"loss","dtm":0,)" +
                  NO_DTZ + R"(,"checkmate":true,"stalemate":false,"insufficient_material":false})"),
              std::string::npos)
        << mate_in_one.body.substr(0, 500);
    EXPECT_EQ(count(mate_in_one.body, R"("checkmate":true)"), 1u);

    EXPECT_EQ(get("/standard" + fen_query("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")).body,
              R"({"category":"loss","dtm":0,)" + NO_DTZ +
                  R"(,"checkmate":true,"stalemate":false,"insufficient_material":false,"moves":[]})");
    EXPECT_EQ(get("/standard" + fen_query("k7/8/1QK5/8/8/8/8/8 b - - 0 1")).body,
              R"({"category":"draw","dtm":0,)" + NO_DTZ +
                  R"(,"checkmate":false,"stalemate":true,"insufficient_material":false,"moves":[]})");
    // The white king takes the queen: the only move, a capture, a draw by insufficient material.
    EXPECT_EQ(get("/standard" + fen_query("8/8/8/8/8/8/1q6/K6k w - - 0 1")).body,
              R"({"category":"draw","dtm":0,)" + NO_DTZ + "," + NOT_OVER +
                  R"(,"moves":[{"uci":"a1b2","san":"Kxb2","zeroing":true,"category":"draw","dtm":0,)" +
                  NO_DTZ + R"(,"checkmate":false,"stalemate":false,"insufficient_material":true}]})");
    // Bare kings need no table.
    const ApiReply kings = get("/standard" + fen_query("8/8/8/4k3/8/8/8/4K3 w - - 0 1"), Tablebase());
    EXPECT_EQ(kings.status, 200);
    EXPECT_EQ(kings.body.rfind(R"({"category":"draw","dtm":0,)" + NO_DTZ +
                                   R"(,"checkmate":false,"stalemate":false,"insufficient_material":true,)",
                               0),
              0u);
    EXPECT_EQ(count(kings.body, R"("insufficient_material":true)"), 6u);  // the position and its 5 moves
}

TEST(ServeApi, BadFenIs400AndMissingTableIs404) {
    const ApiReply bad = get("/standard?fen=not-a-fen");
    EXPECT_EQ(bad.status, 400);
    EXPECT_EQ(bad.body, R"({"error":"bad FEN: a FEN has 4 or 6 fields, this one has 1"})");
    const ApiReply illegal = get("/standard" + fen_query("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"));
    EXPECT_EQ(illegal.status, 400);
    EXPECT_NE(illegal.body.find("bad FEN: "), std::string::npos) << illegal.body;
    const ApiReply missing = get("/standard" + fen_query("8/8/8/4k3/8/8/8/2BNK3 w - - 0 1"));
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(missing.body, R"({"error":"no table for KBNvK"})");
    const ApiReply crowd =
        get("/standard" + fen_query("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"));
    EXPECT_EQ(crowd.status, 404);
    EXPECT_NE(crowd.body.find("32 men"), std::string::npos);
    EXPECT_EQ(get("/standard").status, 400);
    EXPECT_EQ(get("/standard").body, R"j({"error":"missing parameter: fen (/standard?fen=FEN)"})j");
    EXPECT_EQ(get("/standard?fen=8%2").status, 400);
    EXPECT_EQ(get("/standard?fen=8%00").status, 400);
}

TEST(ServeApi, Mainline) {
    const ApiReply r = get("/standard/mainline" + fen_query("8/8/8/4k3/8/8/8/4K2Q w - - 0 1"));
    EXPECT_EQ(r.status, 200);
    const std::string start = R"({"dtm":13,)" + NO_DTZ +
                              R"(,"mainline":[{"uci":"h1c6","san":"Qc6","dtm":-12,)" + NO_DTZ +
                              R"(},{"uci":"e5d4","san":"Kd4","dtm":11,)";
    EXPECT_EQ(r.body.substr(0, start.size()), start) << r.body;
    EXPECT_EQ(count(r.body, R"("uci":)"), 13u);
    const std::string end = R"({"uci":"e4a4","san":"Qa4#","dtm":0,)" + NO_DTZ + R"(}],"winner":"w"})";
    ASSERT_GE(r.body.size(), end.size());
    EXPECT_EQ(r.body.substr(r.body.size() - end.size()), end);
    // Black to move and lost: the line still ends with White's mate.
    const ApiReply black = get("/standard/mainline" + fen_query("8/8/8/4k3/8/8/8/4K2Q b - - 0 1"));
    EXPECT_EQ(black.body.substr(0, 10), R"({"dtm":-18)");
    EXPECT_EQ(count(black.body, R"("uci":)"), 18u);
    EXPECT_NE(black.body.find(R"("winner":"w")"), std::string::npos);
    EXPECT_EQ(get("/standard/mainline" + fen_query("8/8/8/8/8/8/1q6/K6k w - - 0 1")).body,
              R"({"dtm":0,)" + NO_DTZ + R"(,"mainline":[],"winner":null})");
    EXPECT_EQ(get("/standard/mainline" + fen_query("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")).body,
              R"({"dtm":0,)" + NO_DTZ + R"(,"mainline":[],"winner":"w"})");
    EXPECT_EQ(get("/standard/mainline?fen=x").status, 400);
    EXPECT_EQ(get("/standard/mainline" + fen_query("8/8/8/4k3/8/8/8/2BNK3 w - - 0 1")).status, 404);
}

TEST(ServeApi, BatchAnswersEachFenInOrderWithErrorEntries) {
    const std::string kqk = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1";
    const std::string single = get("/standard" + fen_query(kqk)).body;
    const ApiReply r =
        post_batch(R"({"fens": [")" + kqk + R"(", "bad", "8/8/8/4k3/8/8/8/2BNK3 w - - 0 1"]})");
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "[" + single +
                          R"(,{"error":"bad FEN: a FEN has 4 or 6 fields, this one has 1","status":400})"
                          R"(,{"error":"no table for KBNvK","status":404}])");
    EXPECT_EQ(post_batch(R"([")" + kqk + R"("])").body, "[" + single + "]");
    EXPECT_EQ(post_batch(" [ ] ").body, "[]");
}

TEST(ServeApi, BatchLimitsAndMalformedBodies) {
    ApiLimits two;
    two.max_batch = 2;
    const std::string fen = R"("8/8/8/4k3/8/8/8/4K2Q w - - 0 1")";
    EXPECT_EQ(post_batch("[" + fen + "," + fen + "]", two).status, 200);
    const ApiReply over = post_batch("[" + fen + "," + fen + "," + fen + "]", two);
    EXPECT_EQ(over.status, 413);
    EXPECT_EQ(over.body, R"({"error":"too many FENs in one batch: at most 2"})");
    for (const std::string body :
         {"", "{}", "[1]", R"({"fen": []})", "[\"a\",]", "[\"a\"] x", "[\"a", "null"}) {
        const ApiReply bad = post_batch(body);
        EXPECT_EQ(bad.status, 400) << body;
        EXPECT_EQ(bad.body.rfind(R"({"error":"batch body, at byte )", 0), 0u) << body << " -> " << bad.body;
    }
}

TEST(ServeApi, PathsMethodsCorsAndThePage) {
    const ApiReply unknown = get("/nope");
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.body.rfind(R"({"error":"no such path: /nope)", 0), 0u);
    const ApiReply put = handle_request(Tablebase(), {"PUT", "/standard?fen=x", ""});
    EXPECT_EQ(put.status, 405);
    EXPECT_EQ(header(put, "Allow"), "GET, HEAD, OPTIONS");
    const ApiReply get_batch = get("/standard/batch");
    EXPECT_EQ(get_batch.status, 405);
    EXPECT_EQ(header(get_batch, "Allow"), "POST, OPTIONS");
    const ApiReply preflight = handle_request(Tablebase(), {"OPTIONS", "/standard/batch", ""});
    EXPECT_EQ(preflight.status, 204);
    EXPECT_EQ(header(preflight, "Access-Control-Allow-Methods"), "POST, OPTIONS");
    EXPECT_EQ(header(preflight, "Access-Control-Allow-Headers"), "Content-Type");
    const ApiReply page = get("/");
    EXPECT_EQ(page.status, 200);
    EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
    EXPECT_EQ(page.body.rfind("<!doctype html>", 0), 0u);
    EXPECT_NE(page.body.find(R"(id="board")"), std::string::npos);
    EXPECT_EQ(page.body.find("http"), std::string::npos) << "the page loads nothing from elsewhere";
    EXPECT_EQ(handle_request(Tablebase(), {"HEAD", "/", ""}).body, page.body);  // the server drops it
}

TEST(ServeJson, WriterPlacesCommasAndEscapes) {
    JsonWriter w;
    w.begin_object().key("a").number(-12).key("b").begin_array().boolean(true).null().string("x").end_array();
    w.key("c").begin_object().end_object().key("d").raw("[1,2]").end_object();
    EXPECT_EQ(w.str(), R"({"a":-12,"b":[true,null,"x"],"c":{},"d":[1,2]})");
    std::string s;
    append_json_string(s, "q\"b\\n\nt\t\x01 é \xff\xc3 \xed\xa0\x80 \xf0\x9f\x98\x80");
    EXPECT_EQ(s, R"("q\"b\\n\nt\t\u0001 é \ufffd\ufffd \ufffd\ufffd\ufffd 😀")");
}

TEST(ServeJson, BatchBodyStringsAndShapes) {
    EXPECT_EQ(parse_batch_body(R"(["a\u00e9\ud83d\ude00\/\"", "b"])", 10),
              (std::vector<std::string>{"aé😀/\"", "b"}));
    EXPECT_EQ(parse_batch_body("\n{ \"fens\" : [ \"x\" ] }\n", 10), (std::vector<std::string>{"x"}));
    for (const char* bad : {R"(["\ud83d"])", R"(["\ude00"])", R"(["\x"])", "[\"a\nb\"]", R"({"fens":["a"],})",
                            R"({"other":["a"]})", R"(["\u12g4"])"}) {
        try {
            parse_batch_body(bad, 10);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const RequestError& e) {
            EXPECT_EQ(e.status(), 400) << bad;
        }
    }
}

TEST(ServeJson, RequestTargets) {
    const Target t = parse_target("/standard?fen=a%20b+c&x&&y=1&y=2");
    EXPECT_EQ(t.path, "/standard");
    EXPECT_EQ(t.param("fen"), "a b c");
    EXPECT_EQ(t.param("x"), "");
    EXPECT_EQ(t.param("y"), "2");
    EXPECT_FALSE(t.param("z"));
    EXPECT_EQ(parse_target("/").path, "/");
    EXPECT_EQ(fen_from_param("8/8_w_-_-"), "8/8 w - -");
    EXPECT_THROW(parse_target("/?fen=%zz"), RequestError);
}
