#include "store/block_writer.hpp"

#include <tbb/task_arena.h>

#include <chrono>
#include <memory>

#include "parallel/ordered_pipeline.hpp"
#include "store/atomic_file.hpp"
#include "store/checksum.hpp"
#include "store/write_journal.hpp"

namespace retro {

void write_blocks(format::Header& h, const std::filesystem::path& path, int level,
                  const WriteOptions& options, const StoredBlock& stored_block) {
    h.offsets.assign(size_t(h.block_count) + 1, 0);
    h.block_crc.assign(h.block_count, 0);
    h.offsets[0] = h.header_bytes();
    const std::vector<uint8_t> layout_bytes = format::serialize(h);
    const int setting[] = {level, options.xz_extreme};  // blocks written otherwise are not resumed
    WriteJournal journal(
        path, checksum64(setting, sizeof setting, checksum64(layout_bytes.data(), layout_bytes.size())),
        h.offsets[0]);
    if (const size_t n = journal.ends().size();
        n > 0 && !journal.last_block_holds(stored_block(uint32_t(n - 1))))
        journal.forget();
    const uint32_t kept = uint32_t(journal.ends().size());
    const auto file =
        kept ? std::make_unique<AtomicFile>(path, journal.ends().back()) : std::make_unique<AtomicFile>(path);
    if (!kept) file->append(std::vector<uint8_t>(h.offsets[0]));
    for (uint32_t k = 0; k < kept; ++k) {
        h.offsets[k + 1] = journal.ends()[k];
        h.block_crc[k] = journal.crcs()[k];
    }
    auto last_sync = std::chrono::steady_clock::now();
    uint32_t written = kept;
    options.control.tell(Control::Count::BlocksWritten, written, h.block_count);
    try {
        par::ordered_pipeline(
            h.block_count - kept, 4 * size_t(tbb::this_task_arena::max_concurrency()),
            [&](uint64_t i) { return stored_block(kept + uint32_t(i)); },
            [&](std::vector<uint8_t>&& stored) {
                file->append(stored);
                h.block_crc[written] = crc32_of(stored.data(), stored.size());
                h.offsets[written + 1] = file->size();
                journal.add(file->size(), h.block_crc[written]);
                ++written;
                if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last_sync).count() >=
                    options.sync_seconds) {
                    file->sync();
                    journal.flush();
                    last_sync = std::chrono::steady_clock::now();
                }
                options.control.tell(Control::Count::BlocksWritten, written, h.block_count);
            });
    } catch (const Stopped&) {
        file->leave_for_resume();
        journal.keep();
        throw;
    }
    file->write_at(0, format::serialize(h));
    file->commit();
}

}  // namespace retro
