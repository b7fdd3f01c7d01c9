#include "solve/ranked_table.hpp"

#include <array>

#include "index/rank_split.hpp"

namespace retro {

namespace {

template <class T, class A>
std::span<const uint8_t> bytes_of(const std::vector<T, A>& v) {
    return {reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T)};
}
template <class T, class A>
std::span<uint8_t> bytes_of(std::vector<T, A>& v) {
    return {reinterpret_cast<uint8_t*>(v.data()), v.size() * sizeof(T)};
}
template <class T, size_t N>
std::span<uint8_t> bytes_of(std::array<T, N>& a) {
    return {reinterpret_cast<uint8_t*>(a.data()), N * sizeof(T)};
}

// Where the ranks' parts are put together.
enum class Gathered { AtRankZero, Everywhere };

// Every rank's vector, one after the other in rank order: at rank 0 alone (the others get nothing),
// or at every rank.
template <class T, class A>
std::vector<T, A> gathered(std::vector<T, A>&& mine, Ranks& ranks, Gathered where = Gathered::AtRankZero) {
    const uint64_t total = ranks.sum(mine.size());  // every rank takes part
    std::vector<T, A> all(ranks.leads() || where == Gathered::Everywhere ? total : 0);
    ranks.gather(bytes_of(mine), bytes_of(all));
    mine = std::vector<T, A>();  // freed: `= {}` would only clear it, its pages still held
    if (where == Gathered::Everywhere) ranks.broadcast(bytes_of(all), 0);
    return all;
}

// The bits of each rank's range, word-aligned from its first entry (as its solver kept them),
// received one range after the other, moved to their places in the whole table's bits.
std::vector<uint64_t> placed_bits(const std::vector<uint64_t>& received,
                                  const std::vector<IndexRange>& ranges, uint64_t entries) {
    std::vector<uint64_t> whole(EntryBits::words_for(entries));
    size_t from = 0;
    for (const IndexRange& r : ranges) {
        const size_t words = EntryBits::words_for(r.size());
        for (size_t k = 0; k < words; ++k) {
            const uint64_t v = received[from + k], at = r.begin + 64 * k, shift = at & 63;
            whole[at >> 6] |= v << shift;
            if (shift && (at >> 6) + 1 < whole.size()) whole[(at >> 6) + 1] |= v >> (64 - shift);
        }
        from += words;
    }
    return whole;
}

// Rank 0 receives the survey bits each rank found of its range of the scheme (`part`, word-aligned
// from the range's first entry; empty at a rank that holds nothing) and returns the scheme's whole
// survey, counts left to count. The others return none; each part is freed a quarter at a time as it
// is sent, and rank 0 builds the whole one quarter at a time, beside the quarter it receives.
std::optional<WriteSurvey> survey_at_rank_zero(WriteSurvey&& part, const std::vector<IndexRange>& ranges,
                                               uint64_t entries, Ranks& ranks) {
    WriteSurvey whole;
    for (int side = 0; side < 2; ++side)
        for (auto [mine, all] :
             {std::pair{&part.legal, &whole.legal}, std::pair{&part.settled, &whole.settled}}) {
            const std::vector<uint64_t> received = gathered(std::move(mine->words[side]), ranks);
            if (ranks.leads()) all->words[side] = placed_bits(received, ranges, entries);
        }
    if (!ranks.leads()) return std::nullopt;
    return whole;
}

}  // namespace

SolvedScheme gather_everywhere(const IndexScheme& scheme, SolvedScheme&& mine, Ranks& ranks) {
    SolvedScheme all;
    for (int side = 0; side < 2; ++side) {
        all.bytes[side] = gathered(std::move(mine.bytes[side]), ranks, Gathered::Everywhere);
        all.long_values[side] = gathered(std::move(mine.long_values[side]), ranks, Gathered::Everywhere);
    }
    // Every rank has a survey, or none does: the same options ask for it.
    if (mine.survey)
        all.survey = survey_at_rank_zero(std::move(*mine.survey), king_pair_ranges(scheme, ranks.size()),
                                         scheme.size(), ranks);
    return all;
}

SolvedScheme shared_from(const IndexScheme& scheme, SolvedScheme&& values, int owner, Ranks& ranks) {
    // The others learn the sizes first, and whether there is a survey: only the owner solved the scheme.
    std::array<uint64_t, 5> sizes{values.bytes[WHITE].size(), values.bytes[BLACK].size(),
                                  values.long_values[WHITE].size(), values.long_values[BLACK].size(),
                                  values.survey.has_value()};
    ranks.broadcast(bytes_of(sizes), owner);
    for (int side = 0; side < 2; ++side) {
        values.bytes[side].resize(sizes[size_t(side)]);
        values.long_values[side].resize(sizes[size_t(2 + side)]);
        ranks.broadcast(bytes_of(values.bytes[side]), owner);
        ranks.broadcast(bytes_of(values.long_values[side]), owner);
    }
    if (sizes[4]) {
        std::vector<IndexRange> ranges(size_t(ranks.size()));  // the owner's is the whole scheme
        ranges[size_t(owner)] = {0, scheme.size()};
        values.survey = survey_at_rank_zero(values.survey ? std::move(*values.survey) : WriteSurvey{}, ranges,
                                            scheme.size(), ranks);
    }
    return std::move(values);
}

SolvedTable gather_table(const Material& m, SolvedScheme&& mine, Ranks& ranks) {
    const IndexScheme scheme(m);
    const std::vector<IndexRange> ranges = king_pair_ranges(scheme, ranks.size());
    Table::Bytes bytes;
    Table::LongValues long_values;
    for (int side = 0; side < 2; ++side) {
        bytes[side] = gathered(std::move(mine.bytes[side]), ranks);
        long_values[side] = gathered(std::move(mine.long_values[side]), ranks);
    }
    // Every rank has a survey, or none does: the same options ask for it.
    std::optional<WriteSurvey> survey;
    if (mine.survey) survey = survey_at_rank_zero(std::move(*mine.survey), ranges, scheme.size(), ranks);
    if (!ranks.leads()) return {};
    return {std::make_unique<Table>(m, std::move(bytes), std::move(long_values)), nullptr, std::move(survey)};
}

}  // namespace retro
