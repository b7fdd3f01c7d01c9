// Checkpoint files: a written state reads back; a damaged one (a wild count in the header, a cut,
// a flipped byte) reads as nullopt without throwing or allocating what the header claims.
#include "solve/checkpoint.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "checkpoint_test_util.hpp"
#include "index/index_scheme.hpp"
#include "store/checksum.hpp"
#include "store_test_util.hpp"

using namespace retro;
using namespace retro::store_test;

namespace {

SolverState some_state(const Material& m) {
    const uint64_t entries = IndexScheme(m).size();
    SolverState s;
    s.next_ply = 7;
    s.max_value = 12;
    s.window = 40;
    s.log_length = 1234;
    s.log_checksum = 5678;
    for (int side = 0; side < 2; ++side) s.codes[side].assign(entries, state::Code(side + 3));
    s.edges[WHITE] = {{1, 2, 3}, {4, 5, 6}};
    s.edges[BLACK] = {{7, 8, 9}};
    return s;
}

}  // namespace

TEST(Checkpoint, WrittenStateReadsBack) {
    ScratchDir dir("checkpoint");
    const Material m = Material::parse("KQvK");
    const fs::path path = dir.path / "KQvK.checkpoint";
    const SolverState s = some_state(m);
    write_checkpoint(path, m, s);
    const auto read = read_checkpoint(path, m);
    ASSERT_TRUE(read);
    EXPECT_EQ(read->next_ply, 7);
    EXPECT_EQ(read->max_value, 12);
    EXPECT_EQ(read->window, 40);
    EXPECT_EQ(read->log_length, 1234u);
    EXPECT_EQ(read->log_checksum, 5678u);
    EXPECT_EQ(read->codes, s.codes);
    for (int side = 0; side < 2; ++side) {
        ASSERT_EQ(read->edges[side].size(), s.edges[side].size());
        EXPECT_EQ(std::memcmp(read->edges[side].data(), s.edges[side].data(),
                              s.edges[side].size() * sizeof(EnPassantEdge)),
                  0);
    }
    EXPECT_FALSE(read_checkpoint(path, Material::parse("KRvK")));  // of another table
    EXPECT_FALSE(read_checkpoint(dir.path / "missing.checkpoint", m));
}

TEST(Checkpoint, PreviousVersionWithByteCapturesReadsBack) {
    // RETROCK2, written before distances took 16 bits: an edge's capture was a byte (255: a draw)
    // and a zero byte. Rewrite a current checkpoint into that form and read it.
    ScratchDir dir("checkpoint-v2");
    const Material m = Material::parse("KQvK");
    const fs::path path = dir.path / "KQvK.checkpoint";
    SolverState s = some_state(m);
    s.edges[WHITE][1].capture = DTM_DRAW;
    write_checkpoint(path, m, s);
    std::string bytes = read_bytes(path);
    constexpr size_t HEADER = 88, CHECKSUM = 80, CAPTURE = 16;  // lib/solve/checkpoint.cpp
    bytes[7] = '2';
    const size_t entries = s.codes[WHITE].size();
    const size_t white_edges = HEADER + entries;
    bytes[white_edges + sizeof(EnPassantEdge) + CAPTURE + 1] = 0;  // 0xFFFF becomes 255
    uint64_t sum = checksum64(bytes.data(), CHECKSUM);
    size_t at = HEADER;
    for (int side = 0; side < 2; ++side)
        for (const size_t n : {entries, s.edges[side].size() * sizeof(EnPassantEdge)}) {
            sum = checksum64(bytes.data() + at, n, sum);
            at += n;
        }
    std::memcpy(bytes.data() + CHECKSUM, &sum, sizeof sum);
    write_bytes(path, bytes);
    const auto read = read_checkpoint(path, m);
    ASSERT_TRUE(read);
    EXPECT_EQ(read->edges[WHITE][0].capture, 3);
    EXPECT_EQ(read->edges[WHITE][1].capture, DTM_DRAW);
    EXPECT_EQ(read->edges[BLACK][0].capture, 9);
}

TEST(Checkpoint, DamagedFilesReadAsNothing) {
    ScratchDir dir("checkpoint-damaged");
    const Material m = Material::parse("KQvK");
    const fs::path path = dir.path / "KQvK.checkpoint";
    write_checkpoint(path, m, some_state(m));
    const std::string good = read_bytes(path);

    auto expect_refused = [&](const std::string& what, const std::string& bytes) {
        write_bytes(path, bytes);
        std::optional<SolverState> read;
        EXPECT_NO_THROW(read = read_checkpoint(path, m)) << what;
        EXPECT_FALSE(read) << what;
    };
    for (const uint64_t edges : {uint64_t(1) << 60, ~uint64_t(0), uint64_t(3)})
        expect_refused("edge count " + std::to_string(edges), test::with_white_edge_count(good, edges));
    expect_refused("truncated", good.substr(0, good.size() - 1));
    expect_refused("header only", good.substr(0, 64));
    expect_refused("half a header", good.substr(0, 20));
    expect_refused("empty", "");
    expect_refused("a byte too many", good + '\0');
    std::string flipped = good;
    flipped[good.size() / 2] ^= 0x10;
    expect_refused("flipped", flipped);
}

TEST(Checkpoint, SetAsideMovesTheFileOutOfTheWay) {
    ScratchDir dir("checkpoint-aside");
    const fs::path path = dir.path / "KQvK.checkpoint";
    write_bytes(path, "damaged");
    EXPECT_EQ(set_aside_checkpoint(path), fs::path(path.string() + ".damaged"));
    EXPECT_FALSE(fs::exists(path));
    EXPECT_EQ(read_bytes(path.string() + ".damaged"), "damaged");
}

namespace {

// Kilobytes of transparent huge pages in the mapping that holds the first 2 MiB boundary after p
// (/proc/self/smaps; the madvise splits off the part before it as a mapping of its own).
uint64_t huge_page_kb_after(const void* p) {
    std::ifstream smaps("/proc/self/smaps");
    constexpr uintptr_t HUGE_PAGE = uintptr_t(2) << 20;
    const auto address = (reinterpret_cast<uintptr_t>(p) + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    bool inside = false;
    for (std::string line; std::getline(smaps, line);) {
        uintptr_t begin = 0, end = 0;
        if (std::sscanf(line.c_str(), "%lx-%lx ", &begin, &end) == 2 && line.find(':') > line.find(' ')) {
            inside = begin <= address && address < end;
        } else if (inside && line.starts_with("AnonHugePages:")) {
            return std::stoull(line.substr(14));
        }
    }
    return 0;
}

}  // namespace

// A resumed solve's arrays are asked for huge pages as a fresh solve's are (solve/huge_pages.hpp).
// Only testable where the kernel gives huge pages on request and not otherwise ("madvise").
TEST(Checkpoint, ResumedArraysAreOnHugePages) {
    std::ifstream mode_file("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string mode;
    std::getline(mode_file, mode);
    if (mode.find("[madvise]") == std::string::npos) GTEST_SKIP() << "transparent huge pages: " << mode;
    ScratchDir dir("checkpoint-huge");
    const Material m = Material::parse("KQvKP");
    ASSERT_GE(IndexScheme(m).size(), uint64_t(4) << 20);  // holds whole 2 MiB pages
    const fs::path path = dir.path / "KQvKP.checkpoint";
    write_checkpoint(path, m, some_state(m));
    const auto read = read_checkpoint(path, m);
    ASSERT_TRUE(read);
    for (int side = 0; side < 2; ++side)
        EXPECT_GT(huge_page_kb_after(read->codes[side].data()), 0u) << "side " << side;
}
