#include "jobs/subtable_reads.hpp"

#include <set>

#include "jobs/active_clock.hpp"
#include "jobs/completion_chain.hpp"
#include "jobs/log.hpp"
#include "jobs/progress.hpp"
#include "probe/tablebase.hpp"
#include "store/store_error.hpp"
#include "store/table_file.hpp"
#include "store/table_paths.hpp"

namespace retro {

SubtableReads::SubtableReads(const JobPlan& plan, const std::atomic<bool>* stop, Tell report, Tell note)
    : plan_(plan), stop_(stop), report_(std::move(report)), note_(std::move(note)) {}

void SubtableReads::read_through(Tablebase& tables) const {
    tables.stop_reading_when(stop_);
    tables.read_exact_copies();
}

std::vector<SubtableSides> SubtableReads::chain(const Material& m, bool promotions_in_part) const {
    return completion_chain(m, promotions_in_part, [&](const Material& sub, SideSet sides) {
        return plan_.settled_complete.contains(sub) && !exact_copy_current(plan_.dir, sub, {}, sides);
    });
}

void SubtableReads::complete(const std::vector<SubtableSides>& chain, const Completed& told) const {
    complete_chain_in_turn(chain, plan_.dir, {}, stop_, told, [&](size_t k, const Table& table) {
        write_copy(MemoryValues(table), chain[k].sides);
    });
}

void SubtableReads::write_copy(const TableValues& values, SideSet sides) const {
    const Material& m = values.material();
    const auto copy = exact_copy_path(plan_.dir, m);
    const auto start = ActiveClock::now();
    try {
        write_table(values, copy, exact_copy_options(sides));
    } catch (const StoreError& e) {
        if (report_)
            report_(m.name() + ": no exact copy for the tables that read it (" + e.what() +
                    "); they complete its values from its file");
        return;
    }
    std::error_code ec;
    if (note_)
        note_(m.name() + ": exact copy " + copy.string() + " written in " +
              format_duration(seconds_since(start)) + " (" +
              format_bytes(std::filesystem::file_size(copy, ec)) + ")");
}

void SubtableReads::remove_spent(const std::map<Material, bool>& complete) const {
    std::set<Material> read_later;
    for (const PlannedTable& t : plan_.tables)
        if (!complete.at(t.material))
            for (const Material& sub : direct_subtables(t.material)) read_later.insert(sub);
    if (!read_later.empty())  // a table left reads sub-tables: any of these may be in its chain
        read_later.insert(plan_.settled_complete.begin(), plan_.settled_complete.end());
    for (const PlannedTable& t : plan_.tables)
        if (complete.at(t.material) && !read_later.contains(t.material)) {
            const auto copy = exact_copy_path(plan_.dir, t.material);
            remove_if_present(copy, note_);
            remove_if_present(temporary_path(copy), note_);  // a write of it killed
            remove_if_present(write_journal_path(copy), note_);
        }
}

}  // namespace retro
