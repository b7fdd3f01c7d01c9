// Checkpoint files: a written state (and a pawn table's slice and the part of its slice store that
// holds the slices solved) reads back; a damaged one (a wild count in the header, a cut, a flipped
// byte) or one of an older version reads as nullopt without throwing or allocating what the header
// claims.
#include "solve/checkpoint.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "index/index_scheme.hpp"
#include "index/pawn_slices.hpp"
#include "index/rank_split.hpp"
#include "store/table_paths.hpp"
#include "support/checkpoint_test_util.hpp"
#include "support/store_test_util.hpp"

using namespace retro;
using namespace retro::store_test;

namespace {

SweepState some_state(uint64_t entries) {
    SweepState s = blank_sweep_state(entries);
    s.next_ply = 7;
    s.max_value = 12;
    s.window = 40;
    s.log_length = 1234;
    s.log_checksum = 5678;
    for (int side = 0; side < 2; ++side) s.codes[side].assign(entries, state::Code(side + 3));
    for (uint64_t i = 0; i < entries; i += 3) s.exits.assign(WHITE, i, true);
    for (uint64_t i = 1; i < entries; i += 5) s.exits.assign(BLACK, i, true);
    return s;
}

void expect_same_state(const SweepState& read, const SweepState& s) {
    EXPECT_EQ(read.next_ply, s.next_ply);
    EXPECT_EQ(read.max_value, s.max_value);
    EXPECT_EQ(read.window, s.window);
    EXPECT_EQ(read.log_length, s.log_length);
    EXPECT_EQ(read.log_checksum, s.log_checksum);
    EXPECT_EQ(read.codes, s.codes);
    EXPECT_EQ(read.exits.words, s.exits.words);
}

SweepState third_slice_state(const Material& m) {
    return some_state(IndexScheme(m, pawn_configs(m)[2]).size());
}

// KPvK's slices solved before its third: some length and checksum of its slice store.
constexpr StoredSlices SOME_SOLVED{123456, 0x1234567890abcdefULL};

}  // namespace

TEST(Checkpoint, WrittenStateReadsBack) {
    ScratchDir dir("checkpoint");
    const Material m = Material::parse("KQvK");
    const fs::path path = dir.path / "KQvK.checkpoint";
    const SweepState s = some_state(IndexScheme(m).size());
    write_checkpoint(path, m, 0, &s, {});
    const auto read = read_checkpoint(path, m);
    ASSERT_TRUE(read);
    EXPECT_EQ(read->slice, 0);
    EXPECT_EQ(read->solved.length, 0u);
    ASSERT_TRUE(read->state);
    expect_same_state(*read->state, s);
    EXPECT_FALSE(read_checkpoint(path, Material::parse("KRvK")));  // of another table
    EXPECT_FALSE(read_checkpoint(dir.path / "missing.checkpoint", m));
}

TEST(Checkpoint, SliceAndSolvedValuesReadBack) {
    ScratchDir dir("checkpoint-slices");
    const Material m = Material::parse("KPvK");
    const fs::path path = dir.path / "KPvK.checkpoint";
    const SweepState s = third_slice_state(m);
    write_checkpoint(path, m, 2, &s, SOME_SOLVED);
    auto read = read_checkpoint(path, m);
    ASSERT_TRUE(read);
    EXPECT_EQ(read->slice, 2);
    ASSERT_TRUE(read->state);
    expect_same_state(*read->state, s);
    EXPECT_EQ(read->solved.length, SOME_SOLVED.length);
    EXPECT_EQ(read->solved.checksum, SOME_SOLVED.checksum);

    // Between slices, and after the last: no state.
    const int slices = int(pawn_configs(m).size());
    for (int slice : {3, slices}) {
        write_checkpoint(path, m, slice, nullptr, SOME_SOLVED);
        read = read_checkpoint(path, m);
        ASSERT_TRUE(read);
        EXPECT_EQ(read->slice, slice);
        EXPECT_FALSE(read->state);
        EXPECT_EQ(read->solved.checksum, SOME_SOLVED.checksum);
    }

    // A state of the wrong size, a state after the last slice, or a slice the table does not have.
    const SweepState longer = some_state(s.codes[WHITE].size() + 1);
    write_checkpoint(path, m, 2, &longer, SOME_SOLVED);
    EXPECT_FALSE(read_checkpoint(path, m));
    write_checkpoint(path, m, slices, &s, SOME_SOLVED);
    EXPECT_FALSE(read_checkpoint(path, m));
    write_checkpoint(path, m, slices + 1, nullptr, SOME_SOLVED);
    EXPECT_FALSE(read_checkpoint(path, m));

    // A pawnless table has no slice store.
    const Material pawnless = Material::parse("KQvK");
    const SweepState whole = some_state(IndexScheme(pawnless).size());
    write_checkpoint(path, pawnless, 0, &whole, SOME_SOLVED);
    EXPECT_FALSE(read_checkpoint(path, pawnless));
}

TEST(Checkpoint, ARanksPartReadsBackAsThatRanksOnly) {
    ScratchDir dir("checkpoint-ranks");
    const Material m = Material::parse("KRvKN");
    const IndexScheme scheme(m);
    const fs::path path = dir.path / "KRvKN.rank1.checkpoint";
    const RankPart part{1, 3};
    // Rank 1 of 3 holds 154 of the 462 king pairs.
    const SweepState s = some_state(scheme.size() / 462 * 154);
    ASSERT_EQ(s.codes[WHITE].size(), king_pair_ranges(scheme, 3)[1].size());
    write_checkpoint(path, m, 0, &s, {}, part);
    const auto read = read_checkpoint(path, m, part);
    ASSERT_TRUE(read && read->state);
    EXPECT_EQ(read->part, part);
    expect_same_state(*read->state, s);
    EXPECT_EQ(checkpoint_ranks(path, m), 3);
    EXPECT_FALSE(checkpoint_ranks(path, Material::parse("KRvKB")));
    // Read as another rank's part, or as one process's.
    for (const RankPart other : {RankPart{0, 3}, RankPart{2, 3}, RankPart{1, 2}, RankPart{}})
        EXPECT_FALSE(read_checkpoint(path, m, other)) << other.rank << " of " << other.ranks;
    // The whole index's state is not a rank's part.
    const SweepState whole = some_state(scheme.size());
    write_checkpoint(path, m, 0, &whole, {}, part);
    EXPECT_FALSE(read_checkpoint(path, m, part));
    write_checkpoint(path, m, 0, &whole, {});
    EXPECT_TRUE(read_checkpoint(path, m));
    EXPECT_EQ(checkpoint_ranks(path, m), 1);
}

TEST(Checkpoint, OlderVersionsAreRefused) {
    // Version 3 held a whole pawn table with its en passant edges, version 4 the values of the
    // slices solved, version 5 named the part of the slice store that holds them, version 6 the rank
    // whose part it holds, version 7 held the entries with exits, and version 8 reads code 127 as an
    // entry whose moves are not counted yet.
    ScratchDir dir("checkpoint-v4");
    const Material m = Material::parse("KQvK");
    const fs::path path = dir.path / "KQvK.checkpoint";
    const SweepState s = some_state(IndexScheme(m).size());
    write_checkpoint(path, m, 0, &s, {});
    for (char version : {'3', '4', '5', '6', '7'}) {
        std::string bytes = read_bytes(path);
        bytes[7] = version;
        write_bytes(path, bytes);
        EXPECT_FALSE(read_checkpoint(path, m)) << version;
        write_checkpoint(path, m, 0, &s, {});
    }
}

TEST(Checkpoint, DamagedFilesReadAsNothing) {
    ScratchDir dir("checkpoint-damaged");
    const Material m = Material::parse("KPvK");
    const fs::path path = dir.path / "KPvK.checkpoint";
    const SweepState s = third_slice_state(m);
    write_checkpoint(path, m, 2, &s, SOME_SOLVED);
    const std::string good = read_bytes(path);

    auto expect_refused = [&](const std::string& what, const std::string& bytes) {
        write_bytes(path, bytes);
        std::optional<Checkpoint> read;
        EXPECT_NO_THROW(read = read_checkpoint(path, m)) << what;
        EXPECT_FALSE(read) << what;
    };
    for (const uint64_t count : {uint64_t(1) << 60, ~uint64_t(0), uint64_t(3)})
        expect_refused("entries " + std::to_string(count), test::with_state_entries(good, count));
    expect_refused("truncated", good.substr(0, good.size() - 1));
    expect_refused("header only", good.substr(0, 104));
    expect_refused("half a header", good.substr(0, 20));
    expect_refused("empty", "");
    expect_refused("a byte too many", good + '\0');
    std::string flipped = good;
    flipped[good.size() / 2] ^= 0x10;
    expect_refused("flipped", flipped);
    std::string exits_flipped = good;
    exits_flipped[good.size() - 1] ^= 0x01;  // in the last word of black's entries with exits
    expect_refused("an exit bit flipped", exits_flipped);
}

TEST(Checkpoint, SetAsideMovesTheFileOutOfTheWay) {
    ScratchDir dir("checkpoint-aside");
    const fs::path path = dir.path / "KQvK.checkpoint";
    write_bytes(path, "damaged");
    EXPECT_EQ(set_aside_checkpoint(path), damaged_checkpoint_path(path));
    EXPECT_FALSE(fs::exists(path));
    EXPECT_EQ(read_bytes(damaged_checkpoint_path(path)), "damaged");
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

// A resumed solve's state is asked for huge pages as a fresh solve's is (store/entry_bytes.hpp): the
// sweeps touch it at random. Only testable where the kernel gives huge pages on request and not
// otherwise ("madvise").
TEST(Checkpoint, ResumedArraysAreOnHugePages) {
    std::ifstream mode_file("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string mode;
    std::getline(mode_file, mode);
    if (mode.find("[madvise]") == std::string::npos) GTEST_SKIP() << "transparent huge pages: " << mode;
    ScratchDir dir("checkpoint-huge");
    const Material m = Material::parse("KRPvKR");
    const fs::path path = dir.path / "KRPvKR.checkpoint";
    const SweepState s = some_state(IndexScheme(m, pawn_configs(m)[0]).size());
    ASSERT_GE(s.codes[WHITE].size(), uint64_t(4) << 20);  // holds whole 2 MiB pages
    write_checkpoint(path, m, 0, &s, {});
    const auto read = read_checkpoint(path, m);
    ASSERT_TRUE(read && read->state);
    for (Color side : {WHITE, BLACK})
        EXPECT_GT(huge_page_kb_after(read->state->codes[side].data()), 0u) << "side " << side;
}
