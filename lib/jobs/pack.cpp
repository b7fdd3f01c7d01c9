#include "jobs/pack.hpp"

#include <chrono>
#include <set>

#include "jobs/estimates.hpp"
#include "jobs/progress.hpp"
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

PackResult pack_tables(const fs::path& from, const fs::path& to, const std::vector<std::string>& names,
                       const PackOptions& options) {
    if (fs::equivalent(from, to)) throw std::runtime_error("FROM_DIR and TO_DIR must differ");
    const std::atomic<bool>* stop = options.write.stop;
    PackResult result;
    const auto stopped = [&](const std::string& where) {
        result.interrupted = true;
        result.stopped_at = where;
        return result;
    };
    for (const std::string& name : names) {
        const Material m = Material::parse(name).canonical();
        if (stop && stop->load()) return stopped("before " + m.name());
        const fs::path source = table_path(from, m), target = table_path(to, m);
        if (!options.overwrite && packed_already(source, target, options.write)) {
            result.bytes_before += fs::file_size(source);
            result.bytes_after += fs::file_size(target);
            ++result.skipped;
            options.report(m.name() + ": complete in " + to.string() + ", skipped");
            continue;
        }
        const auto start = std::chrono::steady_clock::now();
        try {
            // A Tablebase per table: a file in the shipping form is rebuilt from the sub-tables beside
            // it, and all of them are freed before the next table.
            Tablebase tables(from);
            tables.stop_reading_when(stop);
            const auto table = tables.find(m);
            if (!table) throw std::runtime_error("no " + source.string());
            write_settled_table(*table, target, options.write, tables);
        } catch (const WriteStopped& e) {  // its blocks written so far stay for the next pack
            return stopped("while packing " + m.name() + " (" + e.what() + ")");
        } catch (const ReadStopped& e) {
            return stopped("while packing " + m.name() + " (" + e.what() + ")");
        }
        const uint64_t before = fs::file_size(source), after = fs::file_size(target);
        result.bytes_before += before, result.bytes_after += after;
        ++result.packed;
        options.report(m.name() + ": " + format_bytes(before) + " -> " + format_bytes(after) + " in " +
                       format_duration(seconds_since(start)));
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
