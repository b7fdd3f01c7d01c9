// The C API (include/retrograde.h, libretrograde.so) in this process: its answers against the
// library's, position by position, from several threads at once; bitboards; corrupted files. The C
// program in capi_installed.c checks the installed library from C.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "retrograde.h"
#include "support/probe_test_tables.hpp"
#include "support/random_positions.hpp"
#include "support/store_test_util.hpp"

using namespace retro;

namespace {

// Tables of `tables` written to a scratch directory, with zstd: quick to write, and to read again
// when the small caches below evict blocks (capi_installed.sh reads tbgen's xz files).
std::unique_ptr<store_test::ScratchDir> written(const std::string& name, const Tablebase& tables,
                                                const std::vector<std::string>& materials) {
    auto dir = std::make_unique<store_test::ScratchDir>(name);
    WriteOptions zstd;
    zstd.codec = Codec::Zstd;
    for (const auto& material : materials) {
        const Material m = Material::parse(material);
        write_table(*tables.find(m), table_path(dir->path, m), zstd);
    }
    return dir;
}

const std::filesystem::path& three_man_dir() {
    static const auto dir = written("capi-3", retro::testing::three_man_tables(), {"KQvK", "KRvK"});
    return dir->path;
}

const std::filesystem::path& kqkr_dir() {
    static const auto dir = written("capi-4", retro::testing::kqkr_tables(), {"KQvK", "KRvK", "KQvKR"});
    return dir->path;
}

struct Handle {
    retro_tablebase* tb = nullptr;
    explicit Handle(const std::filesystem::path& dir, size_t cache_bytes = 0) {
        EXPECT_EQ(retro_open(dir.c_str(), cache_bytes, &tb), RETRO_OK) << retro_last_error();
    }
    ~Handle() { retro_close(tb); }
};

// The bitboards of pos, built square by square (not as the library converts them).
retro_position bits_of(const Position& pos) {
    retro_position b{};
    uint64_t* by_type[] = {&b.kings, &b.queens, &b.rooks, &b.bishops, &b.knights, &b.pawns};
    for (int s = 0; s < 64; ++s) {
        const PieceType type = pos.type_on(Square(s));
        if (type == NO_PIECE_TYPE) continue;
        *by_type[type] |= uint64_t(1) << s;
        (pos.color_on(Square(s)) == WHITE ? b.white : b.black) |= uint64_t(1) << s;
    }
    b.side_to_move = pos.side_to_move() == WHITE ? RETRO_WHITE : RETRO_BLACK;
    b.ep_square = pos.ep_square() == NO_SQUARE ? 0 : int(pos.ep_square());
    return b;
}

// Random positions of the materials, colours swapped half the time.
std::vector<Position> random_positions(const std::string& seed, const std::vector<std::string>& materials,
                                       int n) {
    auto rng = retro::test::seeded_rng(seed);
    std::vector<Position> out;
    for (int i = 0; i < n; ++i) {
        const Position pos =
            retro::test::random_position(Material::parse(materials[i % materials.size()]), rng);
        out.push_back(rng() & 1 ? pos.color_flipped() : pos);
    }
    return out;
}

// What the C API says about pos (its value, and the value of each move when with_moves), or why it
// fails, as one comparable line.
std::string through_c(const retro_tablebase* tb, const Position& pos, bool with_moves = true) {
    const retro_position bits = bits_of(pos);
    retro_value v{};
    if (retro_probe(tb, &bits, &v) != RETRO_OK) return std::string("error: ") + retro_last_error();
    std::ostringstream line;
    line << v.dtm << " " << v.wdl;
    if (!with_moves) return line.str();
    retro_move moves[RETRO_MAX_MOVES];
    size_t n = 0;
    if (retro_moves(tb, &bits, moves, RETRO_MAX_MOVES, &n) != RETRO_OK)
        return std::string("error: ") + retro_last_error();
    for (size_t i = 0; i < n; ++i) line << " " << moves[i].uci << "=" << moves[i].value.dtm;
    return line.str();
}

// The same from the library.
std::string through_library(const Tablebase& tables, const Position& pos, bool with_moves = true) {
    const Dtm v = tables.probe(pos);
    std::ostringstream line;
    line << v << " " << (is_win(v) ? 1 : is_loss(v) ? -1 : 0);
    if (with_moves)
        for (const auto& [m, value] : tables.rank_moves(pos)) line << " " << to_uci(m) << "=" << value;
    return line.str();
}

}  // namespace

TEST(CApi, MatchesTheLibrary) {
    const Handle h(kqkr_dir());
    for (const Position& pos : random_positions("capi-match", {"KQvKR"}, 300)) {
        ASSERT_EQ(through_c(h.tb, pos), through_library(retro::testing::kqkr_tables(), pos)) << pos.fen();
        retro_value by_fen{}, by_bits{};
        const retro_position bits = bits_of(pos);
        ASSERT_EQ(retro_probe_fen(h.tb, pos.fen().c_str(), &by_fen), RETRO_OK);
        ASSERT_EQ(retro_probe(h.tb, &bits, &by_bits), RETRO_OK);
        EXPECT_EQ(by_fen.dtm, by_bits.dtm);
        retro_position parsed{};
        ASSERT_EQ(retro_parse_fen(pos.fen().c_str(), &parsed), RETRO_OK);
        EXPECT_EQ(through_c(h.tb, pos), through_c(h.tb, Position::from_fen(pos.fen())));
        EXPECT_EQ(parsed.white, bits.white);
        EXPECT_EQ(parsed.rooks, bits.rooks);
        EXPECT_EQ(parsed.side_to_move, bits.side_to_move);
    }
}

// One handle, four threads, a cache of one byte, which keeps only the last block read (KQvK and
// KRvK have one block per side): the threads evict each other's blocks all the time. Each thread's
// error message stays its own. Small tables, so that ThreadSanitizer runs it in seconds.
TEST(CApi, ConcurrentProbes) {
    const Handle h(three_man_dir(), 1);
    constexpr int THREADS = 4, POSITIONS = 300;
    std::vector<std::vector<Position>> positions;
    std::vector<std::vector<std::string>> expected(THREADS);
    for (int t = 0; t < THREADS; ++t) {
        positions.push_back(
            random_positions("capi-threads-" + std::to_string(t), {"KQvK", "KRvK"}, POSITIONS));
        for (int i = 0; i < POSITIONS; ++i)
            expected[t].push_back(
                through_library(retro::testing::three_man_tables(), positions[t][i], i % 10 == 0));
    }
    std::vector<int> mismatches(THREADS, 0), message_errors(THREADS, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < THREADS; ++t)
        threads.emplace_back([&, t] {
            // 1, 2, 3 or 5 fields: each thread's own message.
            const int fields = t == 3 ? 5 : t + 1;
            const std::string bad = std::string("x y z w v").substr(0, 2 * fields - 1);
            const std::string message = "a FEN has 4 or 6 fields, this one has " + std::to_string(fields);
            for (int i = 0; i < POSITIONS; ++i) {
                mismatches[t] += through_c(h.tb, positions[t][i], i % 10 == 0) != expected[t][i];
                if (i % 10 == 0) {
                    retro_value v{};
                    message_errors[t] += retro_probe_fen(h.tb, bad.c_str(), &v) != RETRO_ERR_BAD_FEN;
                    std::this_thread::yield();
                    message_errors[t] += retro_last_error() != message;
                }
            }
        });
    for (auto& t : threads) t.join();
    for (int t = 0; t < THREADS; ++t) {
        EXPECT_EQ(mismatches[t], 0) << "thread " << t;
        EXPECT_EQ(message_errors[t], 0) << "thread " << t;
    }
}

TEST(CApi, AFileWhoseSubTablesAreMissingIsUnreadableNotMissing) {
    // The shipping form rebuilds its dropped side from the tables one capture away: without them the
    // file is there but cannot be read, which a caller must not take for a missing table.
    store_test::ScratchDir dir("capi-no-subtables");
    const Material kqkr = Material::parse("KQvKR");
    WriteOptions shipping;
    shipping.codec = Codec::Zstd;
    shipping.keep = WriteOptions::Sides::WhiteToMove;
    write_table(*retro::testing::kqkr_tables().find(kqkr), table_path(dir.path, kqkr), shipping);
    retro_tablebase* tb = nullptr;
    ASSERT_EQ(retro_open(dir.path.c_str(), 0, &tb), RETRO_OK);
    retro_value v{};
    EXPECT_EQ(retro_probe_fen(tb, "8/8/8/4k3/8/8/1r6/QK6 w - - 0 1", &v), RETRO_ERR_CORRUPTED);
    EXPECT_NE(std::string(retro_last_error())
                  .find("KQvKR.rtb reads its values through the tables one capture "
                        "or promotion away, and KQvK and KRvK are missing from"),
              std::string::npos)
        << retro_last_error();
    retro_close(tb);
}

TEST(CApi, BitboardsWithEnPassant) {
    // Black's d4 pawn may take e3 en passant: a legal right, so the bitboards are accepted and only
    // the table is missing.
    retro_position parsed{};
    ASSERT_EQ(retro_parse_fen("8/8/8/k7/3pP3/8/8/K7 b - e3 0 1", &parsed), RETRO_OK) << retro_last_error();
    EXPECT_EQ(parsed.ep_square, 20);
    EXPECT_EQ(parsed.pawns, (uint64_t(1) << 27) | (uint64_t(1) << 28));
    EXPECT_EQ(parsed.side_to_move, RETRO_BLACK);
    const Handle h(three_man_dir());
    retro_value v{};
    EXPECT_EQ(retro_probe(h.tb, &parsed, &v), RETRO_ERR_MISSING_TABLE);
    EXPECT_EQ(std::string(retro_last_error()).rfind("no table for KPvKP", 0), 0u) << retro_last_error();
    retro_position bad = parsed;
    bad.ep_square = 21;  // f3: no pawn pushed there
    EXPECT_EQ(retro_probe(h.tb, &bad, &v), RETRO_ERR_BAD_POSITION);
    bad.ep_square = 64;
    EXPECT_EQ(retro_probe(h.tb, &bad, &v), RETRO_ERR_BAD_POSITION);
    EXPECT_STREQ(retro_last_error(), "ep_square must be a square from 0 to 63 (0: none), not 64");
    bad = parsed;
    bad.side_to_move = 2;
    EXPECT_EQ(retro_probe(h.tb, &bad, &v), RETRO_ERR_BAD_POSITION);
    bad = parsed;
    bad.rooks = bad.kings;
    EXPECT_EQ(retro_probe(h.tb, &bad, &v), RETRO_ERR_BAD_POSITION);
    EXPECT_STREQ(retro_last_error(), "a square is in two piece bitboards");
    bad = parsed;
    bad.knights = uint64_t(1) << 63;
    EXPECT_EQ(retro_probe(h.tb, &bad, &v), RETRO_ERR_BAD_POSITION);
    EXPECT_STREQ(retro_last_error(), "the piece bitboards and the colour bitboards hold different squares");
}

TEST(CApi, CorruptedFileAndNotADirectory) {
    store_test::ScratchDir dir("capi-corrupt");
    const Material kqk = Material::parse("KQvK");
    std::string bytes = store_test::read_bytes(table_path(three_man_dir(), kqk));
    bytes[bytes.size() - 10] ^= 0x20;  // in the last block
    store_test::write_bytes(table_path(dir.path, kqk), bytes);
    retro_tablebase* tb = nullptr;
    ASSERT_EQ(retro_open(dir.path.c_str(), 0, &tb), RETRO_OK);
    // Probe every position of the last block's side until one reads the damaged block.
    retro_status status = RETRO_OK;
    for (const Position& pos : [] {
             auto rng = retro::test::seeded_rng("capi-corrupt");
             std::vector<Position> out;
             for (int i = 0; i < 400; ++i)
                 out.push_back(retro::test::random_position(Material::parse("KQvK"), rng));
             return out;
         }()) {
        retro_value v{};
        if ((status = retro_probe_fen(tb, pos.fen().c_str(), &v)) != RETRO_OK) break;
    }
    EXPECT_EQ(status, RETRO_ERR_CORRUPTED);
    EXPECT_NE(std::string(retro_last_error()).find("KQvK.rtb: block"), std::string::npos)
        << retro_last_error();
    EXPECT_NE(std::string(retro_last_error()).find("corrupted file"), std::string::npos)
        << retro_last_error();
    retro_close(tb);

    store_test::write_bytes(dir.path / "file", "x");
    tb = nullptr;
    EXPECT_EQ(retro_open((dir.path / "file").c_str(), 0, &tb), RETRO_ERR_DIRECTORY);
    EXPECT_EQ(tb, nullptr);
    EXPECT_EQ(std::string(retro_last_error()), "not a directory: " + (dir.path / "file").string());
    EXPECT_EQ(retro_open(dir.path.c_str(), 0, nullptr), RETRO_ERR_ARGUMENT);
    EXPECT_STREQ(retro_last_error(), "the handle pointer is null");
}
