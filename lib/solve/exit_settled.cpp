#include "solve/exit_settled.hpp"

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>

#include "parallel/parallel_for.hpp"
#include "parallel/shared_progress.hpp"
#include "solve/run_exits.hpp"

namespace retro {

WriteSurvey exit_settled(const Table& table, const SubtableSource& tables, const Control& control) {
    const ExitProbe exits(table.scheme, tables);
    WriteSurvey survey;
    const uint64_t entries = table.size();
    const size_t words = EntryBits::words_for(entries);
    par::SharedProgress searched(control.teller(Control::Count::ExitsSearched), 2 * entries);
    for (Color side : {WHITE, BLACK}) {
        std::vector<uint64_t>& legal = survey.legal.words[side];
        std::vector<uint64_t>& settled = survey.settled.words[side];
        legal.assign(words, 0);
        settled.assign(words, 0);
        survey.counts[side].assign(WriteSurvey::COUNTED_VALUES, 0);
        tbb::combinable<std::vector<uint64_t>> counts(
            [&] { return std::vector<uint64_t>(WriteSurvey::COUNTED_VALUES); });
        // Ranges of whole words, so no two tasks write the same word.
        par::parallel_for(tbb::blocked_range<size_t>(0, words, 1 << 10), [&](const auto& r) {
            control.stop_if_requested(Stopped::Work::Writing,
                                      table.material().name() + ": stopped while settling values by exits");
            std::vector<uint64_t>& count = counts.local();
            const uint64_t first = uint64_t(r.begin()) * 64, last = std::min(entries, uint64_t(r.end()) * 64);
            for_each_legal_entry_and_exits(exits, table.scheme, side, first, last,
                                           [&](uint64_t i, const Placement&, const Position&,
                                               const MoveList& moves, const auto& value_of) {
                                               const uint64_t bit = uint64_t(1) << (i & 63);
                                               legal[i >> 6] |= bit;
                                               const Dtm value = table.value(side, i);
                                               ++count[value];
                                               for (const Move& m : moves)
                                                   if (value_through(value_of(m)) == value) {
                                                       settled[i >> 6] |= bit;
                                                       break;
                                                   }
                                           });
            searched.add(last - first);
        });
        counts.combine_each([&](const std::vector<uint64_t>& c) {
            for (size_t v = 0; v < c.size(); ++v) survey.counts[side][v] += c[v];
        });
    }
    searched.finish();
    return survey;
}

void write_settled_table(const Table& table, const std::filesystem::path& path, const WriteOptions& options,
                         const SubtableSource& tables) {
    if (!options.settle_exits) return write_table(table, path, options);
    const WriteSurvey survey = exit_settled(table, tables, options.control);
    write_table(table, path, options, &survey);
}

}  // namespace retro
