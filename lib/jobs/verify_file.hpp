// `tbgen --verify FILE`: a table file verified by forward moves (probe/verifier.hpp) in steps, each
// recorded in FILE.verifying, so that a stopped verification (a 7-man table's takes hours) resumes
// where it stopped on the next run. The record names the file's size and time of last change: a file
// changed since is verified from the start. The record goes once the verification is over.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "probe/verifier.hpp"
#include "store/table_paths.hpp"

namespace retro {

struct FileVerification {
    VerifyResult result;
    uint64_t keys = 0;          // the table's entries, both sides to move
    uint64_t resumed_from = 0;  // of them, those checked by earlier runs
};

// Verifies `file` with the tables of its directory; says through `note` where it resumes. Throws
// StoreError when the file or a table it needs is missing or damaged.
FileVerification verify_file(const std::filesystem::path& file, const std::atomic<bool>* stop,
                             const std::function<void(uint64_t done, uint64_t entries)>& progress,
                             const std::function<void(const std::string&)>& note);

}  // namespace retro
