// tbpack: rewrites a directory of table files in another form (shipping or full, codec, level, block
// size) without solving again; scripts/roundtrip_forms.sh checks the result value by value.
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <set>

#include "cli/command_line.hpp"
#include "cli/write_options.hpp"
#include "index/dependencies.hpp"
#include "jobs/estimates.hpp"
#include "jobs/heap.hpp"
#include "jobs/progress.hpp"
#include "jobs/threads.hpp"
#include "probe/tablebase.hpp"
#include "solve/exit_settled.hpp"
#include "store/format.hpp"
#include "store/table_file.hpp"
#include "store/table_reader.hpp"

namespace fs = std::filesystem;
namespace po = boost::program_options;
using namespace retro;

namespace {

// Whether `to` is complete and what this pack would write from `from`: the same form (shipping or
// full, settled by exits or self-contained, codec, and the block size when one is asked for), and not
// older than its source. A rerun after an interruption skips it; a pack into another form, or after
// the source was built again, does not. (The level is not in the file: a pack at another level into
// the same directory wants --overwrite.)
bool packed_already(const fs::path& from, const fs::path& to, const WriteOptions& write) {
    if (!fs::exists(from) || !table_file_valid(to) || fs::last_write_time(to) < fs::last_write_time(from))
        return false;
    const format::Header h = TableReader(to, format::Metric::Dtm).header();
    return h.codec == write.codec && h.dropped.has_value() == (write.keep != WriteOptions::Sides::Both) &&
           h.exits_settled() == write.settle_exits &&
           (write.block_entries == 0 || h.block_entries == write.block_entries);
}

// Files settled by exits or in the shipping form read through the tables one capture or promotion
// away: warns when some of those are not in `to`, where a reader will look for them.
void warn_of_missing_subtables(const fs::path& to, const std::vector<std::string>& names,
                               const WriteOptions& write) {
    if (!write.settle_exits && write.keep == WriteOptions::Sides::Both) return;
    std::set<Material> missing;
    for (const std::string& name : names)
        for (const Material& sub : direct_subtables(Material::parse(name).canonical()))
            if (!fs::exists(table_path(to, sub))) missing.insert(sub);
    if (missing.empty()) return;
    std::cerr << "tbpack: warning: the files written read their values through the tables one capture or "
                 "promotion away, and "
              << list_names({missing.begin(), missing.end()}) << (missing.size() == 1 ? " is" : " are")
              << " not in " << to.string() << ": pack them there too, or write --self-contained files\n";
}

int pack(const fs::path& from, const fs::path& to, std::vector<std::string> names, const WriteOptions& write,
         bool overwrite) {
    if (fs::equivalent(from, to)) throw std::runtime_error("FROM_DIR and TO_DIR must differ");
    if (names.empty())
        for (const std::string& n : table_file_names(from)) names.push_back(n);
    uint64_t bytes_before = 0, bytes_after = 0;
    int skipped = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const std::string& name : names) {
        const Material m = Material::parse(name).canonical();
        // A rerun after an interruption goes on where it stopped (files are written whole or not at all).
        if (!overwrite && packed_already(table_path(from, m), table_path(to, m), write)) {
            bytes_before += fs::file_size(table_path(from, m));
            bytes_after += fs::file_size(table_path(to, m));
            ++skipped;
            std::cout << m.name() << ": complete in " << to.string() << ", skipped" << std::endl;
            continue;
        }
        const auto table_start = std::chrono::steady_clock::now();
        // A Tablebase per table: a file in the shipping form is rebuilt from the sub-tables beside it,
        // and all of them are freed before the next table.
        const Tablebase tables(from);
        const auto table = tables.find(m);
        if (!table) throw std::runtime_error("no " + table_path(from, m).string());
        write_settled_table(*table, table_path(to, m), write, tables);
        const uint64_t before = fs::file_size(table_path(from, m)), after = fs::file_size(table_path(to, m));
        bytes_before += before, bytes_after += after;
        std::cout << m.name() << ": " << format_bytes(before) << " -> " << format_bytes(after) << " in "
                  << format_duration(seconds_since(table_start)) << std::endl;
    }
    std::cout << names.size() << " tables: " << format_bytes(bytes_before) << " -> "
              << format_bytes(bytes_after) << " (" << bytes_before << " -> " << bytes_after << " bytes) in "
              << format_duration(seconds_since(start))
              << (skipped ? " (" + std::to_string(skipped) +
                                " complete already, skipped; --overwrite writes them again)"
                          : std::string())
              << "\n";
    warn_of_missing_subtables(to, names, write);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return_freed_memory_promptly();
    po::options_description visible(
        "tbpack: rewrites table files in another form without solving again.\n"
        "Usage: tbpack [options] FROM_DIR TO_DIR [MATERIAL...]\n\n"
        "Reads every DTM table file (*.rtb) of FROM_DIR, or the named materials, in either form (a\n"
        "file in the shipping form has its other side rebuilt from the sub-tables beside it), and\n"
        "writes it into TO_DIR with the options below: e.g. --shipping for the shipping form (xz 6e),\n"
        "or --codec xz for the smallest full form (zstd by default). Files are written whole or not at "
        "all,\nand tables whose file in TO_DIR is complete, in the form asked for (shipping or full,\n"
        "settled or self-contained, codec, block size) and not older than its source, are skipped\n"
        "(unless --overwrite; also to write another level): after an interruption the same command\n"
        "resumes.\n\n"
        "Options");
    int threads = 0;
    visible.add_options()("help,h", "show this help")("threads,t", po::value(&threads),
                                                      "worker threads (default: all cores)")(
        "overwrite", "write every table again, also those whose file in TO_DIR is complete in that form");
    add_write_options(visible);
    try {
        const CommandLine line = parse_command_line(argc, argv, visible);
        if (line.options.count("help") || line.arguments.size() < 2) {
            std::cout << visible << "\n";
            return line.options.count("help") ? 0 : 2;
        }
        const fs::path from = line.arguments[0], to = line.arguments[1];
        if (!fs::is_directory(from)) throw std::runtime_error("no such directory: " + from.string());
        fs::create_directories(to);
        const WriteOptions write = write_options_from(line.options);
        const std::vector<std::string> names(line.arguments.begin() + 2, line.arguments.end());
        return with_threads(
            threads, [&] { return pack(from, to, names, write, line.options.count("overwrite") > 0); });
    } catch (const po::error& e) {
        std::cerr << "tbpack: " << e.what() << " (see tbpack --help)\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "tbpack: error: " << e.what() << "\n";
        return 1;
    }
}
