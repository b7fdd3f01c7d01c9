// Re-derives every stored value of a table from its successors by forward moves. Shares no code
// with the solver's un-move search: successors are looked up through the Tablebase probe.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "probe/tablebase.hpp"

namespace retro {

struct VerifyResult {
    uint64_t checked = 0;                 // legal entries checked, both sides to move
    std::optional<std::string> mismatch;  // the first disagreement (lowest index), if any
    bool stopped = false;                 // `stop` was raised: the table was checked in part
};

// `tables` must hold the table itself and every table it needs. Calls `progress` (when set) from time
// to time, one call at a time (from any thread), with the entries checked so far and in all (both
// sides to move), and once more with all of them at the end unless stopped.
VerifyResult verify_table(const Table& table, const Tablebase& tables,
                          const std::atomic<bool>* stop = nullptr,
                          const std::function<void(uint64_t done, uint64_t entries)>& progress = {});

}  // namespace retro
