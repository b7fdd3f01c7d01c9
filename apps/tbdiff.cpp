// tbdiff: compares two directories of table files value by value, to prove that a change of the
// solver left every value as it was (scripts/compare_solvers.sh runs it on an old and a new build).
#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "cli/command_line.hpp"
#include "jobs/completion_chain.hpp"
#include "jobs/signals.hpp"
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

// Where tbdiff keeps exact copies, and which tables get one.
struct Copies {
    fs::path dir;                   // --exact-copies, or a temporary directory removed at the end
    std::set<Material> read_whole;  // the tables another table of the run reads
    // Each directory's own copies (DIR/a, DIR/b): a table completed from one directory's files
    // stands for that directory only; one found identical goes into both.
    fs::path of_a() const { return dir / "a"; }
    fs::path of_b() const { return dir / "b"; }
};

// Whether reading the file whole completes it from its sub-tables; false for a missing or damaged
// file, which its own reading reports.
bool completed_when_read(const fs::path& file) {
    try {
        return fs::exists(file) && table_file_needs_subtables(file);
    } catch (const std::exception&) {
        return false;
    }
}

// Completes first, each once, the tables that reading m's sub-tables from `dir` would complete
// (jobs/completion_chain.hpp: files that need their sub-tables, without a current copy in copy_dir),
// sub-tables first, each from the copies of the ones before, with an exact copy of each in copy_dir
// and a line; otherwise each reading completes them again, recursively (KBvK 96 times for KPPvKP).
// `label` names the directory ("A", "B"). A damaged file stops the chain: the compare reports it.
// A stop signal ends it in Stopped.
void complete_chain(const Material& m, const fs::path& dir, const fs::path& copy_dir,
                    const std::string& label) {
    const std::vector<SubtableSides> chain =
        completion_chain(m, false, [&](const Material& sub, SideSet sides) {
            return completed_when_read(table_path(dir, sub)) &&
                   !exact_copy_current(dir, sub, copy_dir, sides);
        });
    try {
        complete_chain_in_turn(
            chain, dir, copy_dir, &StopSignals::flag(),
            [&](size_t k, const Material& done, double seconds) {
                std::cout << m.name() << ": " << label << ": "
                          << chain_completion_text(chain, k, done, seconds) << std::endl;
            },
            [&](size_t k, const Table& table) {
                write_table(table, exact_copy_path(copy_dir, table.material()),
                            exact_copy_options(chain[k].sides));
            });
    } catch (const Stopped&) {
        throw;
    } catch (const std::exception& e) {
        std::cout << m.name() << ": " << label << ": completing its sub-tables stopped: " << e.what()
                  << std::endl;
    }
}

// Both directories' copies of a table found identical, from its values of A (the same on every
// legal entry as B's).
void write_identical_copy(const Table& table, const Copies& copies) {
    const fs::path a = exact_copy_path(copies.of_a(), table.material()),
                   b = exact_copy_path(copies.of_b(), table.material());
    write_table(table, a, exact_copy_options());
    std::error_code none;
    fs::remove(b, none);
    std::error_code not_linked;  // another file system, say: written again
    fs::create_hard_link(a, b, not_linked);
    if (not_linked) write_table(table, b, exact_copy_options());
}

// Compares dir_a/NAME.rtb with dir_b/NAME.rtb and prints the table's line. A stop signal ends it in
// Stopped, within a second.
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
        for (const fs::path& copy_dir : {copies.of_a(), copies.of_b()}) {
            std::error_code none;  // the table's own values come from its files
            fs::remove(exact_copy_path(copy_dir, m), none);
        }
        complete_chain(m, dir_a, copies.of_a(), "A");
        complete_chain(m, dir_b, copies.of_b(), "B");
        Tablebase tables_a(dir_a), tables_b(dir_b);
        for (Tablebase* t : {&tables_a, &tables_b}) t->stop_reading_when(&StopSignals::flag());
        tables_a.read_exact_copies(copies.of_a());
        tables_b.read_exact_copies(copies.of_b());
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
            if (copies.read_whole.count(m) &&
                (table_file_needs_subtables(a) || table_file_needs_subtables(b)))
                try {
                    write_identical_copy(*ta, copies);
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
    } catch (const Stopped&) {
        throw;
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
    StopSignals signals;  // first: a stop at any time ends the run with its temporary copies removed
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
        "Tables are compared sub-tables first. A file settled by exits or in the shipping form is\n"
        "complete only with its sub-tables, read whole; so before each table, the sub-tables its\n"
        "reading would complete are completed first, each once per directory (a line each), and\n"
        "copied exactly, and a table found identical that another table compared reads whole is\n"
        "copied too: the later tables read the copies instead of completing the files again,\n"
        "recursively. A table's own values always come from its files (its copy is removed before it\n"
        "is compared). The copies go into a temporary directory (TMPDIR), removed at the end, or\n"
        "with --exact-copies DIR into DIR/a and DIR/b, kept for later runs.\n\n"
        "Exit status: 0 when at least one table was compared and every table is identical, none\n"
        "missing or unreadable; 1 otherwise; 2 for a bad command line or a directory that does not\n"
        "exist. Ctrl-C or SIGTERM stops it within a second or two (a second one at once), with the\n"
        "temporary copies removed and status 128 + the signal.\n\n"
        "Options");
    visible.add_options()("help,h", "show this help")("threads,t", po::value(&threads),
                                                      "worker threads (default: all cores)")(
        "show", po::value(&examples), "differing entries to print per table (default 5)")(
        "exact-copies", po::value<std::string>(),
        "keep the exact copies in this directory (DIR/a, DIR/b) for later runs");
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
    const bool keep_copies = line.options.count("exact-copies");
    std::error_code error;
    if (keep_copies) {
        copies.dir = line.options["exact-copies"].as<std::string>();
    } else {
        std::string pattern = (fs::temp_directory_path(error) / "tbdiff-XXXXXX").string();
        if (!error && mkdtemp(pattern.data())) copies.dir = pattern;
        if (copies.dir.empty()) error = std::error_code(errno, std::generic_category());
    }
    for (const fs::path& d : {copies.of_a(), copies.of_b()})
        if (!error) fs::create_directories(d, error);
    if (error) {
        std::cerr << "tbdiff: cannot create the directory of exact copies " << copies.dir.string() << ": "
                  << error.message() << "\n";
        return EXIT_USAGE;
    }
    for (const std::string& name : ordered)
        if (const auto m = material(name))
            for (const Material& sub : direct_subtables(*m)) copies.read_whole.insert(sub);
    std::cout << "A: " << dir_a.string() << "\nB: " << dir_b.string() << "\n";
    Tally tally;
    size_t compared = 0;
    try {
        with_threads(threads, [&] {
            for (; compared < ordered.size() && !StopSignals::flag().load(); ++compared)
                compare(ordered[compared], dir_a, dir_b, examples, copies, tally);
        });
    } catch (const Stopped&) {
    }
    if (compared < ordered.size()) {
        if (!keep_copies) fs::remove_all(copies.dir, error);
        const int sig = StopSignals::signal_number();
        std::cout << "tbdiff: interrupted" << (sig ? " by signal " + std::to_string(sig) : std::string())
                  << " after " << compared << " of " << ordered.size() << " tables: " << tally.identical
                  << " identical, " << tally.different << " different\nNOT IDENTICAL\n";
        return 128 + (sig ? sig : SIGINT);
    }
    std::cout << "tbdiff: " << names.size() << " tables: " << tally.identical << " identical, "
              << tally.different << " different, " << tally.missing << " missing on one side, "
              << tally.unreadable << " unreadable\n";
    if (names.empty()) std::cout << "tbdiff: no table files found\n";
    if (!keep_copies) fs::remove_all(copies.dir, error);
    std::cout << (tally.all_identical() && !names.empty() ? "IDENTICAL\n" : "NOT IDENTICAL\n");
    return tally.all_identical() && !names.empty() ? 0 : EXIT_DIFFERENT;
}
