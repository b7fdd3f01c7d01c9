#include "jobs/pack.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <set>

#include "jobs/estimates.hpp"
#include "jobs/progress.hpp"
#include "jobs/table_lock.hpp"
#include "probe/tablebase.hpp"
#include "solve/exit_settled.hpp"
#include "store/format.hpp"
#include "store/table_reader.hpp"

namespace fs = std::filesystem;

namespace retro {

bool packed_already(const fs::path& from, const fs::path& to, const WriteOptions& write) {
    if (!fs::exists(from) || !table_file_valid(to) || fs::last_write_time(to) < fs::last_write_time(from))
        return false;
    const format::Header h = TableReader(to, format::Metric::Dtm).header();
    return h.codec == write.codec && h.dropped.has_value() == (write.keep != WriteOptions::Sides::Both) &&
           h.exits_settled() == write.settle_exits &&
           (write.block_entries == 0 || h.block_entries == write.block_entries);
}

namespace {

// Writes the table's exact copy into `to`; what the report says of it.
std::string write_exact_copy(const Table& table, const fs::path& to) {
    try {
        write_table(table, exact_copy_path(to, table.material()), exact_copy_options());
        return ", with an exact copy for the tables that read it";
    } catch (const StoreError& e) {  // a full disk, say: the tables that read it complete it again
        return ", without an exact copy (" + std::string(e.what()) + ")";
    }
}

// The tables a pack reads whole, each with the position in `order` (sub-tables first) of the last
// table that reads it: a table to pack is read whole, and a table read whole whose file needs its
// sub-tables (settled by exits, or in the shipping form) reads them whole, recursively.
std::map<Material, size_t> last_readers(const fs::path& from, const std::vector<Material>& order,
                                        const std::set<Material>& to_pack) {
    std::map<Material, size_t> last_reader;
    for (size_t i = order.size(); i-- > 0;) {
        const Material& m = order[i];
        if (!to_pack.count(m) && !last_reader.count(m)) continue;  // never read
        const fs::path file = table_path(from, m);
        if (!fs::exists(file) || !table_file_needs_subtables(file)) continue;
        for (const Material& sub : direct_subtables(m))
            last_reader.try_emplace(sub, i);  // the last: first seen
    }
    return last_reader;
}

}  // namespace

PackResult pack_tables(const fs::path& from, const fs::path& to, const std::vector<std::string>& names,
                       const PackOptions& options) {
    if (fs::equivalent(from, to)) throw std::runtime_error("FROM_DIR and TO_DIR must differ");
    const std::atomic<bool>* stop = options.write.control.stop;
    PackResult result;
    const auto stopped = [&](const std::string& where) {
        result.interrupted = true;
        result.stopped_at = where;
        return result;
    };
    // A file settled by exits (or in the shipping form) reads whole only through its sub-tables read
    // whole, recursively: KPPvKP read its sub-tables' sub-tables again and again for 36 minutes. So
    // the tables go sub-tables first, and each one that a later one reads whole gets an exact copy in
    // `to` once read, removed after the last table that reads it.
    std::set<Material> named;
    for (const std::string& name : names) named.insert(Material::parse(name).canonical());
    const std::vector<Material> order = build_order({named.begin(), named.end()});
    std::set<Material> to_pack;
    for (const Material& m : named)
        if (options.overwrite || !packed_already(table_path(from, m), table_path(to, m), options.write))
            to_pack.insert(m);
    const std::map<Material, size_t> last_reader = last_readers(from, order, to_pack);
    for (size_t i = 0; i < order.size(); ++i) {
        const Material& m = order[i];
        if (stop && stop->load()) return stopped("before " + m.name());
        const fs::path source = table_path(from, m), target = table_path(to, m);
        const auto reader = last_reader.find(m);
        const bool copy_wanted = reader != last_reader.end() && reader->second > i && fs::exists(source) &&
                                 table_file_needs_subtables(source) && !exact_copy_current(from, m, to);
        // Another tbpack (or tbgen) writing the same file would interleave its blocks with ours.
        std::optional<TableLock> lock;
        if (to_pack.count(m)) lock.emplace(to, m);
        const bool pack = lock && lock->held();
        const auto start = std::chrono::steady_clock::now();
        std::string copy_note;
        if (pack || copy_wanted) {
            try {
                // A Tablebase per table: the sub-tables it reads whole are freed before the next one.
                Tablebase tables(from);
                tables.stop_reading_when(stop);
                tables.read_exact_copies(to);
                const auto table = tables.find(m);
                if (!table) throw std::runtime_error("no " + source.string());
                if (pack) write_settled_table(*table, target, options.write, tables);
                if (copy_wanted) copy_note = write_exact_copy(*table, to);
            } catch (const Stopped& e) {  // the blocks written so far stay for the next pack
                return stopped("while packing " + m.name() + " (" + e.what() + ")");
            }
        }
        const std::string took = " in " + format_duration(seconds_since(start));
        if (!named.count(m)) {
            if (copy_wanted) options.report(m.name() + ": read" + copy_note + "," + took);
        } else if (lock && !pack) {
            result.left_to_others.push_back(m);
            options.report(m.name() + ": another process is writing " + target.string() + ", left to it");
        } else if (pack) {
            const uint64_t before = fs::file_size(source), after = fs::file_size(target);
            result.bytes_before += before, result.bytes_after += after;
            ++result.packed;
            options.report(m.name() + ": " + format_bytes(before) + " -> " + format_bytes(after) + took +
                           copy_note);
        } else {
            result.bytes_before += fs::file_size(source), result.bytes_after += fs::file_size(target);
            ++result.skipped;
            options.report(m.name() + ": complete in " + to.string() + ", skipped" +
                           (copy_wanted ? "; read" + copy_note + "," + took : std::string()));
        }
        for (const Material& sub : direct_subtables(m))
            if (const auto r = last_reader.find(sub); r != last_reader.end() && r->second == i) {
                std::error_code ignored;  // none was written when sub's file needs no sub-tables
                fs::remove(exact_copy_path(to, sub), ignored);
            }
    }
    return result;
}

std::vector<Material> subtables_missing_from(const fs::path& to, const std::vector<std::string>& names,
                                             const WriteOptions& write) {
    if (!write.settle_exits && write.keep == WriteOptions::Sides::Both) return {};
    std::set<Material> missing;
    for (const std::string& name : names)
        for (const Material& sub : direct_subtables(Material::parse(name).canonical()))
            if (!fs::exists(table_path(to, sub))) missing.insert(sub);
    return {missing.begin(), missing.end()};
}

}  // namespace retro
