// A pawn table's slices solved so far, in the order they are solved, with their surveys (on ranks,
// rank 0 alone has them, as it alone writes): held in memory, kept in the slice store on disk (for
// checkpoints, or as their only copy when SolveOptions::slices_on_disk), or both; at the end, the
// solved table they make.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "solve/checkpoint.hpp"
#include "solve/solver.hpp"

namespace retro {

// One slice solved, with its survey when solved from the start.
struct SolvedSlice {
    Table values;
    std::optional<WriteSurvey> survey;
};

class SolvedSlices {
public:
    // The slices of m (`configs`, in the order they are solved); [0, first) are in `store` already
    // (a resumed checkpoint's, or none when first is 0).
    SolvedSlices(const Material& m, const std::vector<PawnConfig>& configs, const SolveOptions& options,
                 std::unique_ptr<SliceStore> store, int first);

    // Slice k, the next in order.
    void add(int k, SolvedSlice slice);
    // Slice k, for the `sides` to move that a later slice's pushes reach.
    std::shared_ptr<const Table> reached(int k, SideSet sides) const;
    // The part of the store that holds the slices added, synced for a checkpoint to name.
    StoredSlices stored();
    // Every slice added: the store itself when the slices stay on disk, else the whole table.
    SolvedTable finish();

private:
    SolvedTable assembled();
    // Merges slice k's survey into the table's as the slice is added (the slice's is then freed: held
    // to the end, the slices' surveys and the table's would be the table's twice), or drops the
    // table's when the slice has none.
    void take_survey(int k, const std::optional<WriteSurvey>& slice);

    const Material material_;
    const std::vector<PawnConfig>& configs_;
    const SolveOptions& options_;
    std::unique_ptr<SliceStore> store_;                 // on disk
    std::vector<std::shared_ptr<const Table>> memory_;  // or in memory, in the order of configs_
    std::optional<WriteSurvey> survey_;                 // theirs merged, for the whole table's writer
    bool every_slice_surveyed_ = true;
};

}  // namespace retro
