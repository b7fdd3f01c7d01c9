// Writing a file so that its final name only ever holds a complete file: the bytes go to path.tmp,
// which is flushed to disk, renamed over path, and the rename made durable by syncing the directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace retro {

using Bytes = std::span<const uint8_t>;

// Writes the pieces, in order, as the whole content of `path`. A fixed temporary name: a write cut
// short by a kill leaves path.tmp, which the next write overwrites. Throws StoreError naming path
// and the reason (cannot create, write or fsync failed, full disk); path.tmp is removed then, and
// an older file at path is left as it was.
void write_file_atomically(const std::filesystem::path& path, std::span<const Bytes> pieces);

}  // namespace retro
