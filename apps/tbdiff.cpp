// tbdiff: compares two directories of table files value by value, to prove that a change of the
// solver left every value as it was (scripts/compare_solvers.sh runs it on an old and a new build).
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>

#include "cli/command_line.hpp"
#include "jobs/threads.hpp"
#include "probe/tablebase.hpp"
#include "store/table_diff.hpp"
#include "store/table_file.hpp"

namespace fs = std::filesystem;
namespace po = boost::program_options;
using namespace retro;

namespace {

constexpr int EXIT_DIFFERENT = 1, EXIT_USAGE = 2;

struct Tally {
    int identical = 0, different = 0, missing = 0, unreadable = 0;
    bool all_identical() const { return different + missing + unreadable == 0; }
};

// Compares dir_a/NAME.rtb with dir_b/NAME.rtb and prints the table's line.
void compare(const std::string& name, const fs::path& dir_a, const fs::path& dir_b, size_t examples,
             Tally& tally) {
    const fs::path a = dir_a / (name + ".rtb"), b = dir_b / (name + ".rtb");
    for (const fs::path& p : {a, b})
        if (!fs::exists(p)) {
            std::cout << name << ": MISSING: no " << p.string() << "\n";
            ++tally.missing;
            return;
        }
    try {
        // Through a Tablebase per table (freed after it), so that a file in the shipping form has its
        // other side rebuilt from the sub-tables beside it.
        const Material m = Material::parse(name);
        const auto ta = Tablebase(dir_a).find(m), tb = Tablebase(dir_b).find(m);
        if (!ta || !tb)
            throw StoreError(name + " is not a canonical material name (" + m.canonical().name() + ")");
        const TableDifferences d = diff_tables(*ta, *tb, examples);
        std::cout << name << ": " << 2 * ta->size() << " entries (" << d.compared << " legal), ";
        if (d.identical()) {
            std::cout << "identical\n";
            ++tally.identical;
            return;
        }
        std::cout << "DIFFERENT: " << d.differing << " legal entries differ\n";
        for (const EntryDifference& e : d.first)
            std::cout << "  " << color_name(e.side) << " to move, index " << e.index << ": " << e.fen
                      << "  A: " << describe(e.a) << "  B: " << describe(e.b) << "\n";
        ++tally.different;
    } catch (const std::exception& e) {  // StoreError: damaged, truncated or of another material
        std::cout << name << ": UNREADABLE: " << e.what() << "\n";
        ++tally.unreadable;
    }
}

}  // namespace

int main(int argc, char** argv) {
    int threads = 0;
    size_t examples = 5;
    po::options_description visible(
        "tbdiff: compares two directories of table files value by value.\n"
        "Usage: tbdiff [options] DIR_A DIR_B [MATERIAL...]\n\n"
        "For every DTM table file (*.rtb) in DIR_A or DIR_B, or for the named materials (KQvKR), reads\n"
        "both files whole and compares the value of every legal entry of both sides to move. Index\n"
        "holes and illegal positions are skipped: they stand for no position, so a solver or the writer\n"
        "may leave any value there, and two files may differ in bytes yet be identical in values.\n"
        "Prints one line per table (the count of differing entries and the first ones as FEN with\n"
        "both values, A's first), then a summary. A table found in one directory only, or a file\n"
        "that cannot be read (damaged, truncated, another material), is reported and counts as a\n"
        "failure.\n\n"
        "Exit status: 0 when at least one table was compared and every table is identical, none\n"
        "missing or unreadable; 1 otherwise; 2 for a bad command line or a directory that does not\n"
        "exist.\n\n"
        "Options");
    visible.add_options()("help,h", "show this help")("threads,t", po::value(&threads),
                                                      "worker threads (default: all cores)")(
        "show", po::value(&examples), "differing entries to print per table (default 5)");
    CommandLine line;
    try {
        line = parse_command_line(argc, argv, visible);
    } catch (const po::error& e) {
        std::cerr << "tbdiff: " << e.what() << " (see tbdiff --help)\n";
        return EXIT_USAGE;
    }
    if (line.options.count("help")) {
        std::cout << visible << "\n";
        return 0;
    }
    if (line.arguments.size() < 2) {
        std::cerr << visible << "\n";
        return EXIT_USAGE;
    }
    const fs::path dir_a = line.arguments[0], dir_b = line.arguments[1];
    for (const fs::path& d : {dir_a, dir_b})
        if (!fs::is_directory(d)) {
            std::cerr << "tbdiff: " << d.string() << " is not a directory\n";
            return EXIT_USAGE;
        }
    std::set<std::string> names;
    try {
        for (size_t i = 2; i < line.arguments.size(); ++i)
            names.insert(Material::parse(line.arguments[i]).canonical().name());
        if (names.empty()) {
            names = table_file_names(dir_a);
            names.merge(table_file_names(dir_b));
        }
    } catch (const std::exception& e) {  // a bad material name, an unreadable directory
        std::cerr << "tbdiff: " << e.what() << "\n";
        return EXIT_USAGE;
    }
    std::cout << "A: " << dir_a.string() << "\nB: " << dir_b.string() << "\n";
    Tally tally;
    with_threads(threads, [&] {
        for (const std::string& name : names) compare(name, dir_a, dir_b, examples, tally);
    });
    std::cout << "tbdiff: " << names.size() << " tables: " << tally.identical << " identical, "
              << tally.different << " different, " << tally.missing << " missing on one side, "
              << tally.unreadable << " unreadable\n";
    if (names.empty()) std::cout << "tbdiff: no table files found\n";
    std::cout << (tally.all_identical() && !names.empty() ? "IDENTICAL\n" : "NOT IDENTICAL\n");
    return tally.all_identical() && !names.empty() ? 0 : EXIT_DIFFERENT;
}
