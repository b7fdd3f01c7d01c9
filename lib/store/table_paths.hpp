// The names of the files in an output directory, spelled here and nowhere else: each table's files
// by material, the files that stand beside a file while it is written or solved, and the job's own.
//
//   KQvKR.rtb                 the DTM table (store/table_file.hpp)
//   KQvKR.rtw                 its WDL bitbase, on request
//   KQvKR.exact               an exact copy of a table whose file settles values by exits
//   FILE.tmp                  a file being written, renamed to FILE once complete (store/atomic_file.hpp)
//   FILE.tmp.journal          the blocks of FILE.tmp known to be on disk (store/write_journal.hpp)
//   KQvKR.checkpoint          a solve's checkpoint (solve/checkpoint.hpp); of rank 0, under MPI
//   KQvKR.layers              its layer log
//   KRPvKR.slices             a pawn table's slices solved so far (store/slice_store.hpp)
//   KQvKR.rank1.checkpoint    rank 1's checkpoint of a table solved by several ranks, with
//                             KQvKR.rank1.layers and KRPvKR.rank1.slices
//   CHECKPOINT.next           a rank's checkpoint before every rank has written its own
//   KQvKR.checkpoint.seconds  the seconds the table had taken at its checkpoint (jobs/runner.cpp)
//   KQvKR.checkpoint.damaged  a checkpoint that failed its checks, set aside
//   tbgen.times               the times of the tables built, for later ETAs (jobs/progress.hpp)
//   .tbgen.lock               a byte per table a process builds (jobs/table_lock.hpp)
//   .tbgen-write-test.PID     the file that checks the directory is writable (jobs/plan.cpp)
#pragma once

#include <filesystem>
#include <string>

#include "index/material.hpp"

namespace retro {

// The extension of DTM table files.
inline constexpr const char* TABLE_EXTENSION = ".rtb";

inline std::filesystem::path table_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + TABLE_EXTENSION);
}
inline std::filesystem::path wdl_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".rtw");
}
// A job's (or tbpack's, tbdiff's) exact copy of a table whose file settles values by exits,
// self-contained and quick to write and read, for the later tables of the job that read it whole
// (completing the settled file costs a search per entry, recursively: docs/guide.md, "Exact copies").
inline std::filesystem::path exact_copy_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".exact");
}

inline std::filesystem::path temporary_path(const std::filesystem::path& path) {
    return path.string() + ".tmp";
}
inline std::filesystem::path write_journal_path(const std::filesystem::path& path) {
    return temporary_path(path).string() + ".journal";
}

inline std::filesystem::path checkpoint_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".checkpoint");
}
// The checkpoint of rank `rank` of several that solve m together: rank 0's is the table's own.
inline std::filesystem::path rank_checkpoint_path(const std::filesystem::path& dir, const Material& m,
                                                  int rank) {
    return rank == 0 ? checkpoint_path(dir, m)
                     : dir / (m.name() + ".rank" + std::to_string(rank) + ".checkpoint");
}
// Where a rank's next checkpoint waits until every rank has written its own (solve/resume.hpp).
inline std::filesystem::path next_checkpoint_path(const std::filesystem::path& checkpoint) {
    return checkpoint.string() + ".next";
}
// The files kept beside a checkpoint, part of the solve in progress: the layer log and a pawn
// table's slice store.
inline std::filesystem::path layer_log_path(const std::filesystem::path& checkpoint) {
    return std::filesystem::path(checkpoint).replace_extension(".layers");
}
inline std::filesystem::path slice_store_path(const std::filesystem::path& checkpoint) {
    return std::filesystem::path(checkpoint).replace_extension(".slices");
}
inline std::filesystem::path checkpoint_seconds_path(const std::filesystem::path& checkpoint) {
    return checkpoint.string() + ".seconds";
}
inline std::filesystem::path damaged_checkpoint_path(const std::filesystem::path& checkpoint) {
    return checkpoint.string() + ".damaged";
}

// Beside a table file under `tbgen --verify FILE`: how far the verification went (jobs/verify_file.hpp).
inline std::filesystem::path verification_record_path(const std::filesystem::path& file) {
    return file.string() + ".verifying";
}

inline std::filesystem::path times_file_path(const std::filesystem::path& dir) { return dir / "tbgen.times"; }
inline std::filesystem::path table_lock_path(const std::filesystem::path& dir) { return dir / ".tbgen.lock"; }
inline std::filesystem::path write_test_path(const std::filesystem::path& dir, int pid) {
    return dir / (".tbgen-write-test." + std::to_string(pid));
}

}  // namespace retro
