// Table files (format v1): round trips for every codec and code width, WDL bitbases, atomic writes
// and their failures, and bad files (wrong name, garbage, wrong metric).
#include <gtest/gtest.h>

#include <functional>

#include "store/format.hpp"
#include "store/table_reader.hpp"
#include "store_test_util.hpp"

using namespace retro;
using namespace retro::store_test;

namespace {

// Holes may hold any value after a round trip (when filled); every legal entry must match.
void expect_same_legal_values(const Table& expected, const Table& actual, const std::string& what) {
    ASSERT_EQ(expected.material(), actual.material()) << what;
    uint64_t checked = 0, bad = 0;
    for_each_legal(expected.scheme, [&](Color side, uint64_t i, const Position&) {
        ++checked;
        if (expected.value(side, i) != actual.value(side, i) && bad++ < 5)
            ADD_FAILURE() << what << ": side " << int(side) << " entry " << i << ": wrote "
                          << describe(expected.value(side, i)) << ", read "
                          << describe(actual.value(side, i));
    });
    EXPECT_GT(checked, 0u);
    EXPECT_EQ(bad, 0u) << what;
}

StoreError expect_store_error(const std::function<void()>& f) {
    try {
        f();
    } catch (const StoreError& e) {
        return e;
    }
    ADD_FAILURE() << "no StoreError";
    return StoreError("");
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST(StoreFile, RoundTripEveryCodecBlockSizeAndWidth) {
    ScratchDir dir("roundtrip");
    for (const char* name : {"KQvK", "KPvK"}) {
        const auto table = small_table(name);
        for (Codec codec : {Codec::Xz, Codec::Zstd, Codec::Zlib})
            for (uint32_t block : {1u << 10, 1u << 16})
                for (int min_bits : {0, 8})
                    for (bool fill : {false, true}) {
                        WriteOptions o;
                        o.codec = codec, o.block_entries = block, o.min_bits = min_bits, o.fill_holes = fill;
                        // The extreme preset's streams decode alike.
                        o.xz_extreme = codec == Codec::Xz && fill;
                        const auto path = table_path(dir.path, table->material());
                        write_table(*table, path, o);
                        const std::string what = std::string(name) + " " + codec_name(codec) + " block " +
                                                 std::to_string(block) +
                                                 " bits>=" + std::to_string(min_bits) +
                                                 (fill ? " filled" : "") + (o.xz_extreme ? " extreme" : "");
                        const auto back = read_table(path);
                        expect_same_legal_values(*table, *back, what);
                        // Unfilled, even the holes come back as they were.
                        if (!fill) {
                            EXPECT_TRUE(*back == *table) << what;
                        }
                        EXPECT_TRUE(table_file_valid(path)) << what;
                    }
    }
}

TEST(StoreFile, HeaderDescribesTheTable) {
    ScratchDir dir("header");
    const auto table = small_table("KQvK");
    const auto path = table_path(dir.path, table->material());
    write_table(*table, path);
    const TableReader reader(path, format::Metric::Dtm);
    const format::Header& h = reader.header();
    EXPECT_EQ(h.material.name(), "KQvK");
    EXPECT_EQ(h.codec, Codec::Xz);
    EXPECT_EQ(h.entries_per_side, table->scheme.size());
    EXPECT_EQ(h.block_count, 2 * h.blocks_per_side());
    EXPECT_EQ(h.offsets.back(), fs::file_size(path));
    for (const auto& side : h.sides) {
        EXPECT_LE(side.dictionary.size(), size_t(1) << side.bits);
        EXPECT_TRUE(side.bits == 0 || side.bits == 8);  // default: byte codes
    }
    // The dictionary lists white's values by falling frequency: KQvK is mostly won for white.
    EXPECT_TRUE(is_win(h.sides[WHITE].dictionary[0]));
    EXPECT_TRUE(is_loss(h.sides[BLACK].dictionary[0]));
    // Smaller than one byte per entry and side.
    EXPECT_LT(fs::file_size(path), 2 * table->scheme.size() / 4);
}

TEST(StoreFile, WritingIsDeterministic) {
    ScratchDir dir("deterministic");
    const auto table = small_table("KPvK");
    write_table(*table, dir.path / "KPvK.rtb");
    const std::string first = read_bytes(dir.path / "KPvK.rtb");
    write_table(*table, dir.path / "KPvK.rtb");
    EXPECT_TRUE(read_bytes(dir.path / "KPvK.rtb") == first);
}

TEST(StoreFile, WdlBitbase) {
    ScratchDir dir("wdl");
    for (const char* name : {"KQvK", "KRvK", "KPvK"}) {
        const auto table = small_table(name);
        const auto path = wdl_path(dir.path, table->material());
        EXPECT_EQ(path.filename().string(), std::string(name) + ".rtw");
        write_wdl(*table, path);
        write_table(*table, table_path(dir.path, table->material()));
        const auto wdl = read_wdl(path);
        const TableReader reader(path, format::Metric::Wdl);
        uint64_t bad = 0;
        for_each_legal(table->scheme, [&](Color side, uint64_t i, const Position& pos) {
            const Wdl expected = wdl_of(table->value(side, i));
            if (wdl->value(side, i) != expected || Wdl(reader.value(side, i)) != expected ||
                Wdl(reader.value(pos)) != expected || Wdl(reader.value(pos.color_flipped())) != expected)
                ++bad;
        });
        EXPECT_EQ(bad, 0u) << name;
        for (const auto& side : reader.header().sides) EXPECT_LE(side.dictionary.size(), 3u);
        EXPECT_LT(fs::file_size(path), fs::file_size(table_path(dir.path, table->material()))) << name;
        // A bitbase is not a DTM table, and the other way round.
        fs::copy_file(path, dir.path / (std::string(name) + ".rtb"), fs::copy_options::overwrite_existing);
        const auto e = expect_store_error([&] { read_table(dir.path / (std::string(name) + ".rtb")); });
        EXPECT_TRUE(contains(e.what(), "WDL bitbase")) << e.what();
    }
}

TEST(StoreFile, WrongNameGarbageAndMissingFiles) {
    ScratchDir dir("badfiles");
    const auto krk = small_table("KRvK");
    const fs::path wrong = dir.path / "KQvK.rtb";
    write_table(*krk, wrong);
    auto e = expect_store_error([&] { read_table(wrong); });
    EXPECT_TRUE(contains(e.what(), wrong.string())) << e.what();
    EXPECT_TRUE(contains(e.what(), "holds KRvK")) << e.what();
    EXPECT_FALSE(table_file_valid(wrong));

    const std::vector<std::pair<std::string, std::string>> garbage = {
        {"", "not a retrograde table file"},
        {"hello world, this is no table\n", "not a retrograde table file"},
        {std::string(100000, '\0'), "not a retrograde table file"},
        {std::string("RETROTB\0", 8), "truncated"},
        {std::string("RETROTB\0\0\0\0\0", 12) + std::string(100, 'x'), "unsupported format version 0"},
    };
    for (const auto& [bytes, message] : garbage) {
        write_bytes(dir.path / "KQvK.rtb", bytes);
        e = expect_store_error([&] { read_table(dir.path / "KQvK.rtb"); });
        EXPECT_TRUE(contains(e.what(), message)) << e.what();
        EXPECT_TRUE(contains(e.what(), (dir.path / "KQvK.rtb").string())) << e.what();
    }
    e = expect_store_error([&] { read_table(dir.path / "KBvK.rtb"); });
    EXPECT_TRUE(contains(e.what(), "cannot open")) << e.what();
    fs::create_directories(dir.path / "KNvK.rtb");
    e = expect_store_error([&] { read_table(dir.path / "KNvK.rtb"); });
    EXPECT_TRUE(contains(e.what(), "KNvK.rtb")) << e.what();
}

TEST(StoreFile, TablebaseProbesFilesBlockByBlock) {
    ScratchDir dir("tablebase");
    for (const char* name : {"KQvK", "KRvK", "KPvK"})
        write_table(*small_table(name), table_path(dir.path, Material::parse(name)));
    const Tablebase files(dir.path, 1 << 20);
    const Tablebase& memory = small_tables();
    uint64_t probes = 0, bad = 0;
    for (const char* name : {"KQvK", "KPvK"}) {
        const auto table = small_table(name);
        for_each_legal(table->scheme, [&](Color, uint64_t, const Position& pos) {
            for (const Position& p : {pos, pos.color_flipped()}) {
                ++probes;
                if (files.probe(p) != memory.probe(p)) ++bad;
            }
        });
    }
    EXPECT_EQ(bad, 0u) << "of " << probes;
    // Each block decoded once, however often it was probed.
    EXPECT_EQ(files.cache().misses(), files.cache().blocks());
    EXPECT_LT(files.cache().misses() * 100, probes);
    EXPECT_LE(files.cache().bytes(), size_t(1) << 20);
    // find() still gives the solver a whole table.
    const auto whole = files.find(Material::parse("KvKR"));
    ASSERT_TRUE(whole);
    expect_same_legal_values(*small_table("KRvK"), *whole, "find");
    EXPECT_FALSE(files.find(Material::parse("KBvK")));
    EXPECT_THROW(files.probe(Position::from_fen("8/8/8/4k3/8/8/8/1B2K3 w - - 0 1")), ProbeError);
}

TEST(StoreFile, UnwritableDirectoryLeavesNoFile) {
    ScratchDir dir("unwritable");
    const auto table = small_table("KQvK");
    const fs::path missing = dir.path / "no" / "such" / "dir" / "KQvK.rtb";
    auto e = expect_store_error([&] { write_table(*table, missing); });
    EXPECT_TRUE(contains(e.what(), "cannot create")) << e.what();
    EXPECT_TRUE(contains(e.what(), missing.string())) << e.what();
    EXPECT_FALSE(fs::exists(missing));
    // A directory where the file should go cannot be replaced.
    fs::create_directories(dir.path / "KQvK.rtb");
    e = expect_store_error([&] { write_table(*table, dir.path / "KQvK.rtb"); });
    EXPECT_TRUE(contains(e.what(), "rename")) << e.what();
    EXPECT_FALSE(fs::exists(dir.path / "KQvK.rtb.tmp"));
}

TEST(StoreFile, FullDiskLeavesNoFileAndKeepsTheOldOne) {
    ScratchDir dir("full");
    const auto table = small_table("KPvK");
    const fs::path path = table_path(dir.path, table->material());
    {
        const FileSizeLimit full_disk(1000);
        const auto e = expect_store_error([&] { write_table(*table, path); });
        EXPECT_TRUE(contains(e.what(), "write failed")) << e.what();
        EXPECT_FALSE(fs::exists(path));
        EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
    }
    // With a good file in place, a failed rewrite leaves it untouched.
    write_table(*table, path);
    const std::string good = read_bytes(path);
    {
        const FileSizeLimit full_disk(1000);
        EXPECT_THROW(write_table(*small_table("KQvK"), path), StoreError);
    }
    EXPECT_TRUE(read_bytes(path) == good);
    EXPECT_TRUE(table_file_valid(path));
}

TEST(StoreFile, ProgressCountsEveryBlockAndAStopLeavesNoFile) {
    ScratchDir dir("stop");
    const auto table = small_table("KPvK");
    const fs::path path = table_path(dir.path, table->material());
    WriteOptions o;
    o.block_entries = 1 << 10;
    std::vector<uint32_t> said;
    uint32_t blocks = 0;
    o.control.progress = [&](Control::Count, uint64_t done, uint64_t all) {
        said.push_back(done), blocks = all;
    };
    write_table(*table, path, o);
    EXPECT_EQ(blocks, TableReader(path, format::Metric::Dtm).header().block_count);
    ASSERT_EQ(said.size(), size_t(blocks) + 1);
    for (uint32_t k = 0; k <= blocks; ++k) EXPECT_EQ(said[k], k);

    // Stopped after the third block: the old file untouched, the blocks written so far kept for the
    // next write (tests/store_write_journal_test.cpp).
    const std::string good = read_bytes(path);
    std::atomic<bool> stop{false};
    o.control.stop = &stop;
    o.control.progress = [&](Control::Count, uint64_t done, uint64_t) { stop = stop || done == 3; };
    try {
        write_table(*small_table("KQvK"), path, o);
        ADD_FAILURE() << "the write was not stopped";
    } catch (const Stopped& e) {
        EXPECT_TRUE(contains(e.what(), "stopped")) << e.what();
    }
    EXPECT_TRUE(read_bytes(path) == good);
    EXPECT_TRUE(fs::exists(path.string() + ".tmp"));
    EXPECT_TRUE(fs::exists(path.string() + ".tmp.journal"));
}

TEST(StoreFile, BadWriteOptionsAreRefused) {
    ScratchDir dir("options");
    const auto table = small_table("KQvK");
    WriteOptions o;
    o.block_entries = 1000;
    EXPECT_THROW(write_table(*table, dir.path / "KQvK.rtb", o), StoreError);
    o = {};
    o.codec = Codec::Zlib, o.level = 10;
    EXPECT_THROW(write_table(*table, dir.path / "KQvK.rtb", o), StoreError);
    o = {};
    o.codec = Codec::Zstd, o.xz_extreme = true;  // only xz has an extreme preset
    EXPECT_THROW(write_table(*table, dir.path / "KQvK.rtb", o), StoreError);
    EXPECT_TRUE(fs::is_empty(dir.path));
}

TEST(StoreFile, TableFileNamesListsOnlyDtmTables) {
    ScratchDir dir("names");
    for (const char* name : {"KQvKR.rtb", "KQvK.rtb", "KQvK.rtw", "notes.txt", "KRvK.rtb.tmp"})
        write_bytes(dir.path / name, "x");
    fs::create_directories(dir.path / "KPvK.rtb");  // a directory, not a table
    EXPECT_EQ(table_file_names(dir.path), (std::set<std::string>{"KQvK", "KQvKR"}));
    EXPECT_THROW(table_file_names(dir.path / "missing"), fs::filesystem_error);
}
