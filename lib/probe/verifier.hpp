// Re-derives every stored value of a table from its successors by forward moves. Shares no code
// with the solver's un-move search: successors are looked up through the Tablebase probe.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "probe/tablebase.hpp"

namespace retro {

// How far a verification went: the entries before key `next` are checked, `checked` of them legal.
// Keys run over White's indices, then Black's (key size + i is Black's entry i).
struct VerifyPoint {
    uint64_t next = 0;
    uint64_t checked = 0;
};

struct VerifyResult {
    uint64_t checked = 0;                 // legal entries checked, both sides to move
    std::optional<std::string> mismatch;  // the first disagreement (lowest index), if any
    bool stopped = false;                 // `stop` was raised: the table was checked in part
};

// Keys per step of a verification: a step is all or nothing, so a table of any size takes at most
// 256 of them and a stopped verification loses at most one.
uint64_t verify_step_keys(uint64_t table_size);

// `tables` must hold the table itself and every table it needs. Calls `progress` (when set) from time
// to time, one call at a time (from any thread), with the entries checked so far and in all (both
// sides to move), and once more with all of them at the end unless stopped. Starts at `from` (a point
// `reached` told before); calls `reached` after every step while no mismatch has been found.
VerifyResult verify_table(const Table& table, const Tablebase& tables,
                          const std::atomic<bool>* stop = nullptr,
                          const std::function<void(uint64_t done, uint64_t entries)>& progress = {},
                          VerifyPoint from = {}, const std::function<void(const VerifyPoint&)>& reached = {});

}  // namespace retro
