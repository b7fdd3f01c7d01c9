// Memory and disk a generation job needs, estimated before anything is allocated.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "index/material.hpp"

namespace retro {

// Bytes a solved table takes in memory: one value byte per index entry and side to move.
uint64_t table_memory_bytes(const Material& m);

// Bytes held for m itself at its peak: the solver's own estimate, or, when larger, the solved table
// and the bits of the entries exits settle while it is written.
uint64_t own_peak_bytes(const Material& m);
// Bytes of every table one capture or promotion away, which the solver and the writer keep in
// memory (a job loads only those, table by table): a byte per entry of each side to move the exits
// reach, mostly one side of each.
uint64_t subtables_bytes(const Material& m);
// Bytes held at the peak of solving and writing m: the two above.
uint64_t solve_peak_bytes(const Material& m);

// Bytes of m's table file on disk, an upper bound from the compressed sizes measured (see
// docs/format.md): the job refuses to start when the disk is too small, so it must not undercount.
uint64_t table_file_bytes_estimate(const Material& m);

// Bytes of a checkpoint of m's solve and its layer log: a state byte per entry and side to move, and
// at most 2 bytes per entry and side in the log (KQvKR's took 0.36); pawn tables add their en
// passant edges, a small fraction.
uint64_t checkpoint_bytes_estimate(const Material& m);

// MemAvailable from /proc/meminfo; nullopt when it cannot be read.
std::optional<uint64_t> available_memory_bytes();

// "8G", "8GiB", "512M", "1.5T", "123456" (bytes); binary multiples. Throws std::invalid_argument.
uint64_t parse_bytes(const std::string& text);
// "1.5 GiB", "340 MiB", "56 KiB", "12 B".
std::string format_bytes(uint64_t bytes);

}  // namespace retro
