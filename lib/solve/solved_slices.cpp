#include "solve/solved_slices.hpp"

#include <malloc.h>

#include <cassert>

#include "solve/slice_merge.hpp"

namespace retro {

SolvedSlices::SolvedSlices(const Material& m, const std::vector<PawnConfig>& configs,
                           const SolveOptions& options, std::unique_ptr<SliceStore> store, int first)
    : material_(m), configs_(configs), options_(options), store_(std::move(store)) {
    // The store keeps the slices on disk for checkpoints, and is their only copy when they are to
    // stay there. On ranks, rank 0 keeps one even without checkpoints: the table it writes is then put
    // together from the store, not beside the slices in memory (assembled()).
    const bool writes_on_ranks = options_.ranks && options_.ranks->leads();
    if (!store_ && (options_.slices_on_disk || !options_.checkpoint.empty() || writes_on_ranks))
        store_ = std::make_unique<SliceStore>(
            options_.checkpoint.empty() ? std::filesystem::path() : slice_store_path(options_.checkpoint), m);
    // Held in memory unless they are to stay on disk: every slice solved, for the pushes.
    if (!options_.slices_on_disk)
        for (int k = 0; k < first; ++k) {
            memory_.push_back(store_->read(k));
            const bool surveyed = options_.survey_exits && store_->surveyed(k);
            take_survey(k, surveyed ? std::optional(store_->read_survey(k)) : std::nullopt);
        }
}

void SolvedSlices::add(int k, SolvedSlice slice) {
    if (store_) {
        // The store keeps the slice's counts; in memory they would take 1 MiB a slice.
        if (slice.survey) count_legal_values(slice.values, *slice.survey);
        store_->append(k, slice.values, slice.survey ? &*slice.survey : nullptr);
        if (slice.survey) slice.survey->counts = {};
    }
    if (options_.slices_on_disk) return;
    assert(int(memory_.size()) == k);
    memory_.push_back(std::make_shared<const Table>(std::move(slice.values)));
    take_survey(k, slice.survey);
}

void SolvedSlices::take_survey(int k, const std::optional<WriteSurvey>& slice) {
    if (!slice) {
        every_slice_surveyed_ = false;
        survey_.reset();
    }
    if (!every_slice_surveyed_) return;
    if (!survey_) survey_ = empty_survey(IndexScheme(material_).size());
    merge(IndexScheme(material_, configs_[size_t(k)]), *slice, *survey_);
}

std::shared_ptr<const Table> SolvedSlices::reached(int k, SideSet sides) const {
    return options_.slices_on_disk ? store_->read(k, sides) : memory_[size_t(k)];
}

StoredSlices SolvedSlices::stored() {
    if (!store_) return {};
    store_->sync();
    return {store_->length(), store_->checksum()};
}

SolvedTable SolvedSlices::finish() {
    if (options_.slices_on_disk) return {nullptr, std::move(store_), std::nullopt};
    return assembled();
}

// Every slice has entries all over the table, so the whole table is resident after the first merge:
// with a store, the slices in memory are freed first and read back one at a time (the peak is the
// table and one slice, not twice the table).
SolvedTable SolvedSlices::assembled() {
    if (store_) memory_.clear();
    std::optional<WriteSurvey> survey = std::move(survey_);
    std::unique_ptr<Table> table;
    if (store_) {
        // Small slices live on the heap, whose freed pages stay resident: KBPvKP's 1128 slices held
        // 481 MiB beside the whole table until handed back.
        malloc_trim(0);
        table = whole_table(*store_);
    } else {
        table = std::make_unique<Table>(material_);
        std::vector<const Table*> slices;
        for (const auto& slice : memory_) slices.push_back(slice.get());
        merge(slices, *table);
        memory_.clear();
    }
    // The store counted each slice's values as it was added.
    if (survey && store_ && store_->surveyed())
        survey->counts = store_->survey_counts();
    else if (survey)
        count_legal_values(*table, *survey);
    return {std::move(table), nullptr, std::move(survey)};
}

}  // namespace retro
