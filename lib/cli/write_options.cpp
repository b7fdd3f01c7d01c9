#include "cli/write_options.hpp"

#include <charconv>
#include <stdexcept>
#include <string>

#include "store/format.hpp"

namespace po = boost::program_options;

namespace retro {

void add_write_options(po::options_description& options) {
    options.add_options()(
        "codec", po::value<std::string>(),
        "block compression: zstd (the default: writes 1.5-3 times faster than xz and decodes "
        "6 times faster, files 1% smaller to 13% larger), xz (smallest; the default of "
        "--shipping) or zlib")(
        "level", po::value<std::string>(),
        "compression level (default: zstd 15, xz 6, zlib 9; xz 6e with --shipping); lower writes faster "
        "and larger files (docs/guide.md). xz takes an 'e' after the level (6e) for its extreme preset: "
        "1-14% smaller, about 1.5 times the writing time, as fast to read")(
        "block-entries", po::value<uint32_t>(),
        "entries per compressed block, a power of two from 1024 to 16777216 (default: 128 KiB of codes, "
        "1048576 with --shipping); smaller blocks make cold probes faster and files larger "
        "(docs/c-api.md#speed)")(
        "shipping",
        "write the shipping form: one side to move per table (the one that compresses smaller), xz 6e in "
        "blocks of 1 MiB of codes, 36-37% of the bytes of the full form; probes rebuild the other side by a "
        "one-ply search over the kept side and the sub-tables, which must lie beside it (docs/format.md)")(
        "self-contained",
        "store every value as solved (format versions 1-4), so that a file reads without its "
        "sub-tables; by default a value that a capture or promotion achieves may be stored as any value "
        "no better, which probes complete from the sub-tables (format version 6: 14-30% fewer bytes "
        "measured, hot probes about 3 times slower)");
}

namespace {

// "--level N", or "Ne" for xz's extreme preset.
void set_level(WriteOptions& w, const std::string& codec, const std::string& text) {
    const bool extreme = w.codec == Codec::Xz && !text.empty() && text.back() == 'e';
    const char* end = text.data() + text.size() - (extreme ? 1 : 0);
    int level = -1;
    const auto parsed = std::from_chars(text.data(), end, level);
    if (parsed.ec != std::errc() || parsed.ptr != end || level < 0 || level > codec_max_level(w.codec))
        throw std::runtime_error(
            "--level for " + codec + " takes 0 to " + std::to_string(codec_max_level(w.codec)) +
            (w.codec == Codec::Xz ? ", or 0e to 9e for the extreme preset" : "") + ", not '" + text + "'");
    w.level = level;
    w.xz_extreme = extreme;
}

}  // namespace

WriteOptions write_options_from(const po::variables_map& vm) {
    WriteOptions w;
    // A job writes its files fast; the shipping form, packed once for distribution, as small as can be.
    const std::string codec = vm.count("codec")      ? vm["codec"].as<std::string>()
                              : vm.count("shipping") ? "xz"
                                                     : "zstd";
    const auto chosen = codec_from_name(codec);
    if (!chosen) throw std::runtime_error("--codec takes xz, zstd or zlib, not '" + codec + "'");
    w.codec = *chosen;
    if (vm.count("level")) set_level(w, codec, vm["level"].as<std::string>());
    if (vm.count("block-entries")) {
        w.block_entries = vm["block-entries"].as<uint32_t>();
        if (!format::valid_block_entries(w.block_entries))
            throw std::runtime_error("--block-entries takes a power of two from " +
                                     std::to_string(format::MIN_BLOCK_ENTRIES) + " to " +
                                     std::to_string(format::MAX_BLOCK_ENTRIES));
    }
    if (vm.count("shipping")) {
        w.keep = WriteOptions::Sides::Smaller;
        if (!vm.count("level") && w.codec == Codec::Xz) w.xz_extreme = true;
        if (!vm.count("block-entries")) w.block_entries = SHIPPING_BLOCK_ENTRIES;
    }
    if (vm.count("self-contained")) w.settle_exits = false;
    return w;
}

}  // namespace retro
