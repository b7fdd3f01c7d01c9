// What the store allocates and writes, estimated before a job starts (jobs/estimates.hpp adds them
// up). Each is defined beside the code it estimates, so that the two change together.
#pragma once

#include <cstdint>

#include "index/material.hpp"
#include "store/table_file.hpp"

namespace retro {

// Bytes the compressors of `threads` threads writing with `options` hold, and as many decompressors
// reading its blocks (128 KiB of codes, or block_entries of at most 2 bytes). table_file.cpp
uint64_t codec_bytes(const WriteOptions& options, int threads);

// Which size of a file a job's estimate takes: what the 3-5-man files of the table's kind (pawnless or
// with pawns) take together, per entry, which a job of many tables comes near; or a bound above every
// such file measured, which one table may come near.
enum class FileSize { Expected, Bound };

// Bytes of m's table file on disk, from the compressed sizes measured (docs/format.md). table_file.cpp
uint64_t table_file_bytes_estimate(const Material& m, FileSize size);
// Bytes of m's exact copy likewise. table_file.cpp
uint64_t exact_copy_bytes_estimate(const Material& m, FileSize size);

// The cache of the SliceStoreValues a table is written from: a few slices, for the blocks in flight.
// table_values.cpp
uint64_t writer_slice_cache_bytes(const Material& m);
// The cache of the SliceStoreSurvey it is written with: as many slices' bits. survey_source.cpp
uint64_t writer_survey_cache_bytes(const Material& m);

// Bytes of the bits of a WriteSurvey of `entries` entries per side (its counts are a few KiB).
// write_survey.cpp
uint64_t survey_bytes(uint64_t entries);

}  // namespace retro
