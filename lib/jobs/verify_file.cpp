#include "jobs/verify_file.hpp"

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "jobs/progress.hpp"
#include "store/atomic_file.hpp"
#include "store/store_error.hpp"

namespace retro {

namespace {

constexpr const char* RECORD_TAG = "retrograde-verification-1";

// What identifies the file a record speaks of.
struct FileStamp {
    uint64_t size = 0;
    int64_t changed = 0;  // last write time, in the file clock's ticks
    bool operator==(const FileStamp&) const = default;
};

FileStamp stamp_of(const std::filesystem::path& file) {
    return {std::filesystem::file_size(file),
            int64_t(std::filesystem::last_write_time(file).time_since_epoch().count())};
}

// The point a record of `file` holds: none when there is no record, or it is of another version of
// the file, or damaged.
std::optional<VerifyPoint> read_record(const std::filesystem::path& file, const FileStamp& stamp,
                                       uint64_t keys) {
    std::ifstream in(verification_record_path(file));
    std::string tag;
    FileStamp recorded;
    VerifyPoint point;
    if (!(in >> tag >> recorded.size >> recorded.changed >> point.next >> point.checked)) return std::nullopt;
    if (tag != RECORD_TAG || recorded != stamp || point.next > keys || point.checked > point.next)
        return std::nullopt;
    return point;
}

void write_record(const std::filesystem::path& file, const FileStamp& stamp, const VerifyPoint& point) {
    std::ostringstream text;
    text << RECORD_TAG << ' ' << stamp.size << ' ' << stamp.changed << ' ' << point.next << ' '
         << point.checked << '\n';
    const std::string s = text.str();
    const Bytes bytes(reinterpret_cast<const uint8_t*>(s.data()), s.size());
    write_file_atomically(verification_record_path(file), std::span(&bytes, 1));
}

}  // namespace

FileVerification verify_file(const std::filesystem::path& file, const std::atomic<bool>* stop,
                             const std::function<void(uint64_t done, uint64_t entries)>& progress,
                             const std::function<void(const std::string&)>& note) {
    Tablebase tables(file.parent_path().empty() ? "." : file.parent_path());
    // Through the directory, so that a file in the shipping form has its other side rebuilt.
    const std::shared_ptr<const Table> table = tables.find(Material::parse(file.stem().string()));
    if (!table) throw StoreError(file.string() + ": no such table file");
    const FileStamp stamp = stamp_of(file);
    FileVerification v;
    v.keys = 2 * table->scheme.size();
    const VerifyPoint from = read_record(file, stamp, v.keys).value_or(VerifyPoint{});
    v.resumed_from = from.next;
    if (from.next)
        note(file.string() + ": resuming the verification at " +
             format_percent(double(from.next) / double(v.keys)) + " of the entries (" +
             verification_record_path(file).string() + ")");
    v.result = verify_table(*table, tables, stop, progress, from,
                            [&](const VerifyPoint& reached) { write_record(file, stamp, reached); });
    if (!v.result.stopped) std::filesystem::remove(verification_record_path(file));
    return v;
}

}  // namespace retro
