// Bad files: a table file with any one bit flipped, or cut at any length, is rejected with a
// StoreError that names the file: at open when the damage is in the header, at the first probe of
// the block when it is in a block. Never a crash, never a wrong value.
#include <gtest/gtest.h>

#include "solve/exit_settled.hpp"
#include "store/codec.hpp"
#include "store/format.hpp"
#include "store/table_reader.hpp"
#include "support/store_test_util.hpp"

using namespace retro;
using namespace retro::store_test;

namespace {

// Checks every variant of the file at `path` (the good bytes in `good`): each single-bit flip and each
// truncation, read from memory (TableReader over bytes; the file path only names it), and a sample of
// them from disk. Returns a description of the first variant that was not rejected as expected.
std::string check_all_variants(const fs::path& path, const std::string& good, format::Metric metric) {
    const TableReader original(good, path, metric);
    const format::Header& h = original.header();
    // The block a byte belongs to, or -1 for the header.
    auto block_of = [&](uint64_t offset) -> int64_t {
        if (offset < h.offsets[0]) return -1;
        const auto it = std::upper_bound(h.offsets.begin(), h.offsets.end(), offset);
        return int64_t(it - h.offsets.begin()) - 1;
    };
    const std::string name = path.string();
    // From disk: every 97th flip and truncation (writing a file per variant is slow).
    auto open = [&](const std::string& bytes, size_t i) {
        if (i % 97) return TableReader(bytes, path, metric);
        write_bytes(path, bytes);
        return TableReader(path, metric);
    };
    std::string bytes = good;
    for (size_t i = 0; i < good.size(); ++i) {
        bytes[i] = char(good[i] ^ (1 << (i % 8)));
        const std::string variant = bytes;
        bytes[i] = good[i];
        const int64_t block = block_of(i);
        try {
            const TableReader reader = open(variant, i);
            if (block < 0) return "flip at header byte " + std::to_string(i) + " accepted at open";
            // Blocks other than the damaged one still read (spot-check the first and the last).
            for (uint32_t b : {0u, h.block_count - 1})
                if (int64_t(b) != block) reader.block(b);
            try {
                reader.block(uint32_t(block));
            } catch (const StoreError& e) {
                if (std::string(e.what()).find(name) == std::string::npos)
                    return std::string("message without the file name: ") + e.what();
                continue;
            }
            return "flip at byte " + std::to_string(i) + " in block " + std::to_string(block) + " accepted";
        } catch (const StoreError& e) {
            if (std::string(e.what()).find(name) == std::string::npos)
                return std::string("message without the file name: ") + e.what();
            if (block >= 0)
                return "flip in block " + std::to_string(block) + " rejected at open: " + e.what();
        }
    }
    for (size_t length = 0; length < good.size(); ++length) {
        try {
            const TableReader reader = open(good.substr(0, length), length);
            return "truncation to " + std::to_string(length) + " bytes accepted at open";
        } catch (const StoreError& e) {
            if (std::string(e.what()).find(name) == std::string::npos)
                return std::string("message without the file name: ") + e.what();
        }
    }
    try {
        const TableReader reader = open(good + "x", 0);
        return "a trailing byte accepted";
    } catch (const StoreError&) {
    }
    write_bytes(path, good);
    return "";
}

// check_all_variants of the DTM file at `path`, after checking that it has this format version.
std::string check_all_variants_of_version(const fs::path& path, uint32_t version) {
    const std::string good = read_bytes(path);
    if (TableReader(good, path, format::Metric::Dtm).header().version != version)
        return "not a version " + std::to_string(version) + " file";
    return check_all_variants(path, good, format::Metric::Dtm);
}

}  // namespace

TEST(StoreCorruption, EveryBitFlipAndTruncationOfKQvKIsRejected) {
    ScratchDir dir("corrupt-dtm");
    const auto table = small_table("KQvK");
    const fs::path path = table_path(dir.path, table->material());
    write_table(*table, path);
    const std::string good = read_bytes(path);
    EXPECT_EQ(check_all_variants(path, good, format::Metric::Dtm), "");
    EXPECT_TRUE(table_file_valid(path));
}

TEST(StoreCorruption, EveryBitFlipAndTruncationOfAVersion3FileIsRejected) {
    // Entries stored in another digit order: the order's bytes are header bytes like the others.
    ScratchDir dir("corrupt-order");
    const fs::path path = write_in_swapped_digit_order("KRvK", dir.path);
    EXPECT_EQ(check_all_variants_of_version(path, format::VERSION_DIGIT_ORDER), "");
}

TEST(StoreCorruption, EveryBitFlipAndTruncationOfAVersion4FileIsRejected) {
    // The shipping form: one side's blocks, the dropped side's byte and its empty record.
    ScratchDir dir("corrupt-shipping");
    const auto table = small_table("KRvK");
    const fs::path path = table_path(dir.path, table->material());
    WriteOptions o;
    o.keep = WriteOptions::Sides::Smaller;
    write_table(*table, path, o);
    EXPECT_EQ(check_all_variants_of_version(path, format::VERSION_ONE_SIDE), "");
}

TEST(StoreCorruption, EveryBitFlipAndTruncationOfVersion5And6FilesIsRejected) {
    // Values settled by exits, both sides kept (byte 35 zero), blocks ranked again (version 6) or not
    // (5). Every entry is marked settled: only the bytes matter here, not which values a reader
    // completes; in version 6 each block is then its fill code at rank width 0.
    ScratchDir dir("corrupt-settled");
    const auto table = small_table("KRvK");
    const fs::path path = table_path(dir.path, table->material());
    WriteSurvey survey = exit_settled(*table, small_tables());
    for (auto& words : survey.settled.words) std::fill(words.begin(), words.end(), ~uint64_t(0));
    WriteOptions o;
    write_table(*table, path, o, &survey);
    EXPECT_EQ(check_all_variants_of_version(path, format::VERSION_BLOCKS_RANKED), "");
    o.rank_blocks = false;
    write_table(*table, path, o, &survey);
    EXPECT_EQ(check_all_variants_of_version(path, format::VERSION_EXITS_SETTLED), "");
}

TEST(StoreCorruption, RankedBlocksThatDecodeYetBreakTheirFormAreRejected) {
    // Behind the block CRC and the codec: a version 6 block rewritten with a bad ranked form, its
    // CRC and offsets made good again, is refused at its first read, naming the block.
    ScratchDir dir("corrupt-ranked");
    const auto table = small_table("KQvK");
    const fs::path path = table_path(dir.path, table->material());
    const WriteSurvey survey = exit_settled(*table, small_tables());
    WriteOptions o;
    o.codec = Codec::Zstd, o.block_entries = 1 << 12;
    write_table(*table, path, o, &survey);
    const std::string good = read_bytes(path);
    const TableReader original(good, path, format::Metric::Dtm);
    const format::Header& h = original.header();
    // The first block whose codes are ranked narrower than the file's 8 bits, decoded.
    std::vector<uint8_t> ranked;
    uint32_t b = 0;
    for (; b < h.block_count && (ranked.empty() || ranked[0] >= 8); ++b) {
        ranked.resize(1 << 14);
        ranked.resize(decompress_at_most(h.codec,
                                         reinterpret_cast<const uint8_t*>(good.data()) + h.offsets[b],
                                         h.offsets[b + 1] - h.offsets[b], ranked.data(), ranked.size()));
    }
    ASSERT_LT(ranked[0], 8);
    --b;
    // The file with block b's stored bytes from `form`, offsets, CRCs and the header CRC rewritten.
    const auto with_block = [&](const std::vector<uint8_t>& form) {
        format::Header changed = h;
        const std::vector<uint8_t> stored = compress(h.codec, 3, form.data(), form.size());
        std::string blocks;
        for (uint32_t k = 0; k < h.block_count; ++k) {
            const std::string bytes = k == b ? std::string(stored.begin(), stored.end())
                                             : good.substr(h.offsets[k], h.offsets[k + 1] - h.offsets[k]);
            changed.block_crc[k] = crc32_of(bytes.data(), bytes.size());
            blocks += bytes;
            changed.offsets[k + 1] = changed.offsets[k] + bytes.size();
        }
        const std::vector<uint8_t> header = format::serialize(changed);
        return std::string(header.begin(), header.end()) + blocks;
    };
    const auto refusal = [&](const std::vector<uint8_t>& form) {
        try {
            TableReader(with_block(form), path, format::Metric::Dtm).block(b);
        } catch (const StoreError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    ASSERT_EQ(refusal(ranked), "accepted");  // rewritten as it was
    const std::string where = "block " + std::to_string(b) + " of ";
    auto bad = ranked;
    bad[0] = 3;
    EXPECT_NE(refusal(bad).find(where), std::string::npos) << refusal(bad);
    EXPECT_NE(refusal(bad).find("bad rank width 3"), std::string::npos) << refusal(bad);
    bad = ranked;
    bad.push_back(0);
    EXPECT_NE(refusal(bad).find("bytes where"), std::string::npos) << refusal(bad);
    bad = ranked;
    bad[2] = uint8_t(h.sides[h.side_of_block(b)].dictionary.size());  // a code past the dictionary
    EXPECT_NE(refusal(bad).find("beyond the dictionary"), std::string::npos) << refusal(bad);
}

TEST(StoreCorruption, EveryBitFlipAndTruncationWithSmallBlocksIsRejected) {
    // Many small blocks of every codec: the damage lands in block offsets, CRCs and block data.
    ScratchDir dir("corrupt-small");
    const auto table = small_table("KQvK");
    const fs::path path = table_path(dir.path, table->material());
    for (Codec codec : {Codec::Zstd, Codec::Zlib}) {
        WriteOptions o;
        o.codec = codec, o.block_entries = 1 << 12, o.min_bits = 0;
        write_table(*table, path, o);
        EXPECT_EQ(check_all_variants(path, read_bytes(path), format::Metric::Dtm), "") << codec_name(codec);
    }
}

TEST(StoreCorruption, EveryBitFlipOfAWdlBitbaseIsRejected) {
    ScratchDir dir("corrupt-wdl");
    const auto table = small_table("KRvK");
    const fs::path path = wdl_path(dir.path, table->material());
    write_wdl(*table, path);
    EXPECT_EQ(check_all_variants(path, read_bytes(path), format::Metric::Wdl), "");
}

TEST(StoreCorruption, ProbesOfADamagedBlockFailEveryTimeOthersStillWork) {
    ScratchDir dir("corrupt-probe");
    const auto table = small_table("KPvK");
    const fs::path path = table_path(dir.path, table->material());
    WriteOptions o;
    o.block_entries = 1 << 12;
    o.search_digit_order = false;  // block 3 then holds the entries 12288-16383
    write_table(*table, path, o);
    std::string bytes = read_bytes(path);
    const uint64_t damaged_offset = [&] {
        const TableReader r(path, format::Metric::Dtm);
        return r.header().offsets[3] + 5;  // inside block 3 (white's entries 12288-16383)
    }();
    bytes[damaged_offset] ^= 0x10;
    write_bytes(path, bytes);
    const Tablebase files(dir.path);
    uint64_t rejected = 0, right = 0, wrong = 0;
    for_each_legal(table->scheme, [&](Color side, uint64_t i, const Position& pos) {
        try {
            (files.probe(pos) == table->value(side, i) ? right : wrong)++;
        } catch (const StoreError& e) {
            EXPECT_EQ(side, WHITE);
            EXPECT_EQ(i >> 12, 3u);
            EXPECT_NE(std::string(e.what()).find("block 3"), std::string::npos) << e.what();
            ++rejected;
        }
    });
    EXPECT_EQ(wrong, 0u);
    EXPECT_GT(rejected, 1000u);
    EXPECT_GT(right, 100000u);
    EXPECT_THROW(read_table(path), StoreError);
    EXPECT_FALSE(table_file_valid(path));
}
