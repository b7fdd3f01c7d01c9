// Writes a seed corpus for the fuzz targets: small valid table files (KQvK, KRvK, KBvK) in every
// codec, with large and small blocks, DTM and WDL, in the natural and another digit order (format
// version 3), the shipping form and values settled by exits (versions 4 to 6), raw codec streams and
// a ranked block.
//
//   make_seeds DIR
#include <filesystem>
#include <fstream>
#include <iostream>

#include "probe/tablebase.hpp"
#include "solve/exit_settled.hpp"
#include "solve/solver.hpp"
#include "store/block_ranks.hpp"
#include "store/codec.hpp"
#include "store/table_file.hpp"

using namespace retro;
namespace fs = std::filesystem;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: make_seeds DIR\n";
        return 2;
    }
    const fs::path dir = argv[1];
    fs::create_directories(dir / "reader");
    fs::create_directories(dir / "codec");
    Tablebase tables;
    int n = 0;
    for (const char* name : {"KQvK", "KRvK", "KBvK"}) {
        std::shared_ptr<const Table> table = solve(Material::parse(name), tables);
        for (Codec codec : {Codec::Xz, Codec::Zstd, Codec::Zlib})
            for (uint32_t block : {1u << 10, 1u << 16}) {
                WriteOptions o;
                o.codec = codec, o.block_entries = block, o.min_bits = block == (1u << 10) ? 0 : 8;
                const std::string stem = std::to_string(n++) + "-";
                write_table(*table, dir / "reader" / (stem + name + ".rtb"), o);
                write_wdl(*table, dir / "reader" / (stem + name + ".rtw"), o);
                o.digit_order = {1, 0};  // format version 3
                write_table(*table, dir / "reader" / (stem + "order-" + name + ".rtb"), o);
                o.keep = WriteOptions::Sides::Smaller;  // format version 4
                write_table(*table, dir / "reader" / (stem + "shipping-" + name + ".rtb"), o);
                o.keep = WriteOptions::Sides::Both;  // format version 6
                const WriteSurvey survey = exit_settled(*table, tables);
                write_table(*table, dir / "reader" / (stem + "settled-" + name + ".rtb"), o, &survey);
                o.rank_blocks = false;  // format version 5
                write_table(*table, dir / "reader" / (stem + "settled-v5-" + name + ".rtb"), o, &survey);
            }
        tables.add(table);
    }
    // Raw streams: codec byte, two size bytes, then the stream.
    std::vector<uint8_t> plain(3000);
    for (size_t i = 0; i < plain.size(); ++i) plain[i] = uint8_t(i * i % 7);
    for (Codec codec : {Codec::Zlib, Codec::Xz, Codec::Zstd}) {
        const auto packed = compress(codec, codec_default_level(codec), plain.data(), plain.size());
        std::ofstream out(dir / "codec" / (codec_name(codec) + ".bin"), std::ios::binary);
        const char head[3] = {char(int(codec) - 1), char(plain.size() >> 8), char(plain.size() & 0xFF)};
        out.write(head, 3);
        out.write(reinterpret_cast<const char*>(packed.data()), std::streamsize(packed.size()));
    }
    // A ranked form: 0x80 + the index of 8 bits among the widths (0 1 2 4 8 16), the entries, the form.
    std::vector<uint8_t> few(3000);
    for (size_t i = 0; i < few.size(); ++i) few[i] = uint8_t(i % 5 ? 7 : i % 3);
    const auto ranked = ranked_block(few, uint32_t(few.size()), 8);
    std::ofstream out(dir / "codec" / "ranked.bin", std::ios::binary);
    const char head[3] = {char(0x80 + 4), char(few.size() >> 8), char(few.size() & 0xFF)};
    out.write(head, 3);
    out.write(reinterpret_cast<const char*>(ranked.data()), std::streamsize(ranked.size()));
    std::cout << "seeds in " << dir << "\n";
    return 0;
}
