// Re-derives every stored value of a table from its successors by forward moves. Shares no code
// with the solver's un-move search: successors are looked up through the Tablebase probe.
#pragma once

#include <atomic>
#include <optional>
#include <string>

#include "probe/tablebase.hpp"

namespace retro {

struct VerifyResult {
    uint64_t checked = 0;                 // legal entries checked, both sides to move
    std::optional<std::string> mismatch;  // the first disagreement (lowest index), if any
    bool stopped = false;                 // `stop` was raised: the table was checked in part
};

// `tables` must hold the table itself and every table it needs.
VerifyResult verify_table(const Table& table, const Tablebase& tables,
                          const std::atomic<bool>* stop = nullptr);

}  // namespace retro
