// The last pass of a write: compresses the blocks in parallel and appends them in order to the
// file's temporary name, journaled (store/write_journal.hpp) so that a write killed halfway goes on
// from the blocks on disk, then writes the header first and renames the file into place.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "store/format.hpp"
#include "store/table_file.hpp"

namespace retro {

// Block b compressed as the file stores it.
using StoredBlock = std::function<std::vector<uint8_t>(uint32_t b)>;

// Writes the file of header `h` (all but its offsets and CRCs, which this fills in) at `path`, its
// blocks compressed by stored_block at `level`. The blocks that a killed write of the same header and
// level left on disk are kept, when the last of them compresses to the same bytes again. Tells the
// options' control the blocks written, syncs every options.sync_seconds. A stop (Stopped) keeps the blocks
// written so far for the next write; any other failure removes them. Throws StoreError.
void write_blocks(format::Header& h, const std::filesystem::path& path, int level,
                  const WriteOptions& options, const StoredBlock& stored_block);

}  // namespace retro
