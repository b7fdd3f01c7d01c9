// tbgen: builds endgame tables by retrograde analysis, or verifies table files.
#include <sys/resource.h>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>

#include "solve/dependencies.hpp"
#include "solve/solver.hpp"
#include "solve/statistics.hpp"
#include "solve/verifier.hpp"
#include "store/table_file.hpp"

namespace po = boost::program_options;
using namespace retro;

namespace {

std::string megabytes(uint64_t bytes) { return std::to_string((bytes + (1 << 19)) >> 20) + " MiB"; }

uint64_t peak_rss_bytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return uint64_t(usage.ru_maxrss) * 1024;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int verify_files(const std::vector<std::string>& files) {
    int status = 0;
    for (const auto& file : files) {
        const std::filesystem::path path(file);
        Tablebase tables(path.parent_path().empty() ? "." : path.parent_path());
        std::shared_ptr<const Table> table = read_table(path);
        tables.add(table);
        const auto start = std::chrono::steady_clock::now();
        const VerifyResult r = verify_table(*table, tables);
        if (r.mismatch) {
            std::cout << file << ": FAILED: " << *r.mismatch << "\n";
            status = 1;
        } else {
            std::cout << file << ": ok, " << r.checked << " positions re-derived by forward moves in "
                      << seconds_since(start) << " s\n";
        }
    }
    return status;
}

int generate(const std::vector<std::string>& names, const std::filesystem::path& dir, bool json, bool quiet,
             bool verify) {
    std::vector<Material> targets;
    for (const auto& n : names) targets.push_back(Material::parse(n).canonical());
    std::filesystem::create_directories(dir);
    Tablebase tables(dir);
    const auto order = build_order(targets);
    std::cerr << "tables in dependency order:";
    for (const auto& m : order) std::cerr << ' ' << m.name();
    std::cerr << "\n";
    for (const Material& m : order) {
        std::shared_ptr<const Table> table;
        try {
            table = tables.find(m);
        } catch (const StoreError& e) {
            std::cerr << "warning: " << e.what() << "; solving it again\n";
        }
        if (table) {
            std::cerr << m.name() << ": loaded " << table_path(dir, m).string() << "\n";
        } else {
            std::cerr << m.name() << ": solving " << IndexScheme(m).size() << " entries per side, estimated peak "
                      << megabytes(solver_memory_estimate(m)) << " beside its sub-tables\n";
            const auto start = std::chrono::steady_clock::now();
            SolveOptions options;
            if (!quiet) options.progress = &std::cerr;
            std::shared_ptr<Table> solved = solve(m, tables, options);
            const double secs = seconds_since(start);
            write_table(*solved, table_path(dir, m));
            std::cerr << m.name() << ": solved in " << secs << " s ("
                      << uint64_t(2 * solved->scheme.size() / std::max(secs, 1e-9)) << " entries/s), written to "
                      << table_path(dir, m).string() << "\n";
            tables.add(solved);
            table = solved;
        }
        if (verify) {
            const VerifyResult r = verify_table(*table, tables);
            if (r.mismatch) throw std::runtime_error(m.name() + ": verification failed: " + *r.mismatch);
            std::cerr << m.name() << ": verified " << r.checked << " positions by forward moves\n";
        }
        if (std::find(targets.begin(), targets.end(), m) != targets.end()) {
            const auto stats = compute_statistics(*table);
            std::cout << (json ? format_json(stats) + "\n" : format_text(stats));
        }
    }
    std::cerr << "peak memory: " << megabytes(peak_rss_bytes()) << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    po::options_description visible(
        "tbgen: build chess endgame tables (exact distance to mate, both sides to move) by retrograde analysis.\n"
        "Usage: tbgen [options] MATERIAL...   e.g. tbgen KQvKR -o tables\n"
        "       tbgen --verify FILE...\n"
        "Every table a material needs (captures, promotions) is built first, or loaded when its file exists.\n"
        "Options");
    visible.add_options()("help,h", "show this help")(
        "output,o", po::value<std::string>()->default_value("tables"), "directory for the table files")(
        "threads,t", po::value<int>()->default_value(0), "worker threads (0 = all cores)")(
        "json", "print statistics as one JSON object per table")("quiet,q", "no per-layer progress")(
        "verify", "verify: with materials, check each table after building it; otherwise the "
                  "arguments are table files to re-check by forward moves");
    po::options_description hidden;
    hidden.add_options()("args", po::value<std::vector<std::string>>()->default_value({}, ""), "");
    po::options_description all;
    all.add(visible).add(hidden);
    po::positional_options_description positional;
    positional.add("args", -1);
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
        po::notify(vm);
        const auto args = vm["args"].as<std::vector<std::string>>();
        if (vm.count("help") || args.empty()) {
            std::cout << visible << "\n";
            return args.empty() && !vm.count("help") ? 2 : 0;
        }
        const int threads = vm["threads"].as<int>();
        if (threads < 0) throw std::runtime_error("--threads must be 0 (all cores) or more");
        tbb::global_control control(tbb::global_control::max_allowed_parallelism,
                                    threads ? size_t(threads) : size_t(tbb::info::default_concurrency()));
        const bool is_files = vm.count("verify") && args.front().find(".rtb") != std::string::npos;
        if (is_files) return verify_files(args);
        return generate(args, vm["output"].as<std::string>(), vm.count("json"), vm.count("quiet"), vm.count("verify"));
    } catch (const std::exception& e) {
        std::cerr << "tbgen: error: " << e.what() << "\n";
        return 2;
    }
}
