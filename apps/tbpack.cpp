// tbpack: rewrites a directory of table files in another form (shipping or full, codec, level, block
// size) without solving again; scripts/roundtrip_forms.sh checks the result value by value.
#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>

#include "cli/command_line.hpp"
#include "cli/write_options.hpp"
#include "jobs/estimates.hpp"
#include "jobs/heap.hpp"
#include "jobs/pack.hpp"
#include "jobs/progress.hpp"
#include "jobs/signals.hpp"
#include "jobs/threads.hpp"

namespace fs = std::filesystem;
namespace po = boost::program_options;
using namespace retro;

namespace {

int pack(const fs::path& from, const fs::path& to, std::vector<std::string> names, PackOptions options) {
    if (names.empty())
        for (const std::string& n : table_file_names(from)) names.push_back(n);
    StopSignals signals;
    options.write.control.stop = &StopSignals::flag();
    options.report = [](const std::string& line) { std::cout << line << std::endl; };
    const auto start = std::chrono::steady_clock::now();
    const PackResult r = pack_tables(from, to, names, options);
    if (r.interrupted) {
        const int sig = StopSignals::signal_number();
        std::cout << "interrupted" << (sig ? " by signal " + std::to_string(sig) : std::string()) << ": "
                  << r.stopped_at << ". " << r.packed << " tables packed, " << r.skipped
                  << " complete already. Run the same command again to go on." << std::endl;
        return 128 + (sig ? sig : SIGINT);
    }
    std::cout << names.size() << " tables: " << format_bytes(r.bytes_before) << " -> "
              << format_bytes(r.bytes_after) << " (" << r.bytes_before << " -> " << r.bytes_after
              << " bytes) in " << format_duration(seconds_since(start))
              << (r.skipped ? " (" + std::to_string(r.skipped) +
                                  " complete already, skipped; --overwrite writes them again)"
                            : std::string())
              << "\n";
    if (const std::vector<Material> missing = subtables_missing_from(to, names, options.write);
        !missing.empty())
        std::cerr << "tbpack: warning: the files written read their values through the tables one capture or "
                     "promotion away, and "
                  << list_names(missing) << (missing.size() == 1 ? " is" : " are") << " not in "
                  << to.string() << ": pack them there too, or write --self-contained files\n";
    if (!r.left_to_others.empty()) {
        std::cerr << "tbpack: " << list_names(r.left_to_others)
                  << (r.left_to_others.size() == 1 ? " was" : " were")
                  << " left to another process writing into " << to.string()
                  << "; run the same command again once it is done to check them\n";
        return 3;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    set_job_heap_thresholds();
    po::options_description visible(
        "tbpack: rewrites table files in another form without solving again.\n"
        "Usage: tbpack [options] FROM_DIR TO_DIR [MATERIAL...]\n\n"
        "Reads every DTM table file (*.rtb) of FROM_DIR, or the named materials, in either form (a\n"
        "file in the shipping form has its other side rebuilt from the sub-tables beside it), and\n"
        "writes it into TO_DIR with the options below: e.g. --shipping for the shipping form (xz 6e),\n"
        "or --codec xz for the smallest full form (zstd by default). Files are written whole or not at "
        "all,\nand tables whose file in TO_DIR is complete, in the form asked for (shipping or full,\n"
        "settled or self-contained, codec, block size) and not older than its source, are skipped\n"
        "(unless --overwrite; also to write another level). Ctrl-C or SIGTERM stops it within seconds\n"
        "(a second one at once), and the same command then goes on where it stopped. A table that\n"
        "another tbpack or tbgen is writing into TO_DIR is left to it (exit status 3).\n\n"
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
        PackOptions options;
        options.write = write_options_from(line.options);
        options.overwrite = line.options.count("overwrite") > 0;
        const std::vector<std::string> names(line.arguments.begin() + 2, line.arguments.end());
        return with_threads(threads, [&] { return pack(from, to, names, options); });
    } catch (const po::error& e) {
        std::cerr << "tbpack: " << e.what() << " (see tbpack --help)\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "tbpack: error: " << e.what() << "\n";
        return 1;
    }
}
