// tbdiff: compares two directories of table files value by value, to prove that a change of the
// solver left every value as it was (scripts/compare_solvers.sh runs it on an old and a new build).
#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
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

// Where tbdiff keeps exact copies (--exact-copies), and which tables get one.
struct Copies {
    fs::path dir;                   // empty: none
    std::set<Material> read_whole;  // the tables another table of the run reads
};

// Compares dir_a/NAME.rtb with dir_b/NAME.rtb and prints the table's line.
void compare(const std::string& name, const fs::path& dir_a, const fs::path& dir_b, size_t examples,
             const Copies& copies, Tally& tally) {
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
        Tablebase tables_a(dir_a), tables_b(dir_b);
        if (!copies.dir.empty()) {
            std::error_code none;  // the table's own values come from its files
            fs::remove(exact_copy_path(copies.dir, m), none);
            tables_a.read_exact_copies(copies.dir);
            tables_b.read_exact_copies(copies.dir);
        }
        const auto ta = tables_a.find(m), tb = tables_b.find(m);
        if (!ta || !tb)
            throw StoreError(name + " is not a canonical material name (" + m.canonical().name() + ")");
        const TableDifferences d = diff_tables(*ta, *tb, examples);
        std::cout << name << ": " << 2 * ta->size() << " entries (" << d.compared << " legal), ";
        if (d.identical()) {
            std::cout << "identical" << std::endl;
            ++tally.identical;
            // Both files hold these values on every legal entry: a later table completes either file
            // through the copy exactly as through the files.
            if (!copies.dir.empty() && copies.read_whole.count(m) &&
                (table_file_needs_subtables(a) || table_file_needs_subtables(b)))
                try {
                    write_table(*ta, exact_copy_path(copies.dir, m), exact_copy_options());
                } catch (const StoreError& e) {  // a full disk, say: the later tables complete the files
                    std::cerr << "tbdiff: warning: no exact copy of " << name << ": " << e.what() << "\n";
                }
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

// The canonical material of a file name; none for a name that is no material (reported as
// unreadable when compared).
std::optional<Material> material(const std::string& name) {
    try {
        return Material::parse(name).canonical();
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// The names in the build order of their tables (sub-tables first, for the exact copies; a name that
// is no material last).
std::vector<std::string> subtables_first(const std::set<std::string>& names) {
    std::vector<Material> materials;
    for (const std::string& name : names)
        if (const auto m = material(name)) materials.push_back(*m);
    std::map<Material, size_t> position;
    for (const Material& m : build_order(materials)) position.emplace(m, position.size());
    const auto rank = [&](const std::string& name) {
        const auto m = material(name);
        return m ? position.at(*m) : position.size();
    };
    std::vector<std::string> ordered(names.begin(), names.end());
    std::stable_sort(ordered.begin(), ordered.end(),
                     [&](const std::string& x, const std::string& y) { return rank(x) < rank(y); });
    return ordered;
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
        "Tables are compared sub-tables first. With --exact-copies DIR, a table found identical that\n"
        "another table compared reads whole (its file settled by exits or in the shipping form) is\n"
        "copied exactly into DIR, and the later tables complete their files through the copy\n"
        "instead of completing the sub-table's files again, recursively. A table's own values always\n"
        "come from its files (its copy is removed before it is compared); the copies stay in DIR for\n"
        "later runs.\n\n"
        "Exit status: 0 when at least one table was compared and every table is identical, none\n"
        "missing or unreadable; 1 otherwise; 2 for a bad command line or a directory that does not\n"
        "exist.\n\n"
        "Options");
    visible.add_options()("help,h", "show this help")("threads,t", po::value(&threads),
                                                      "worker threads (default: all cores)")(
        "show", po::value(&examples), "differing entries to print per table (default 5)")(
        "exact-copies", po::value<std::string>(),
        "keep exact copies of the tables found identical in this directory");
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
    const std::vector<std::string> ordered = subtables_first(names);
    Copies copies;
    if (line.options.count("exact-copies")) {
        copies.dir = line.options["exact-copies"].as<std::string>();
        std::error_code error;
        if (fs::create_directories(copies.dir, error); error) {
            std::cerr << "tbdiff: cannot create " << copies.dir.string() << ": " << error.message() << "\n";
            return EXIT_USAGE;
        }
        for (const std::string& name : ordered)
            if (const auto m = material(name))
                for (const Material& sub : direct_subtables(*m)) copies.read_whole.insert(sub);
    }
    std::cout << "A: " << dir_a.string() << "\nB: " << dir_b.string() << "\n";
    Tally tally;
    with_threads(threads, [&] {
        for (const std::string& name : ordered) compare(name, dir_a, dir_b, examples, copies, tally);
    });
    std::cout << "tbdiff: " << names.size() << " tables: " << tally.identical << " identical, "
              << tally.different << " different, " << tally.missing << " missing on one side, "
              << tally.unreadable << " unreadable\n";
    if (names.empty()) std::cout << "tbdiff: no table files found\n";
    std::cout << (tally.all_identical() && !names.empty() ? "IDENTICAL\n" : "NOT IDENTICAL\n");
    return tally.all_identical() && !names.empty() ? 0 : EXIT_DIFFERENT;
}
