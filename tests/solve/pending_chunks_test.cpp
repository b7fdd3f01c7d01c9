#include "solve/pending_chunks.hpp"

#include <gtest/gtest.h>

namespace retro {
namespace {

constexpr state::Code FIRST = state::PENDING, LAST = state::PENDING + state::WIDEST_WINDOW - 1;

TEST(PendingChunks, AChunkIsReadForACodeOnlyWhenOneOfItsEntriesTookIt) {
    PendingChunks pending(3 * SWEEP_CHUNK + 1);  // a last chunk of one entry
    ASSERT_EQ(pending.chunks(), 4u);
    EXPECT_FALSE(pending.any(WHITE, FIRST));
    pending.mark(WHITE, SWEEP_CHUNK - 1, LAST);   // the last entry of chunk 0
    pending.mark(WHITE, 3 * SWEEP_CHUNK, FIRST);  // the only entry of chunk 3
    pending.mark(WHITE, 3 * SWEEP_CHUNK, FIRST);
    EXPECT_TRUE(pending.any(WHITE, LAST));
    EXPECT_FALSE(pending.any(BLACK, LAST));  // the sides are apart
    EXPECT_FALSE(pending.any(WHITE, LAST - 1));
    EXPECT_FALSE(pending.take(WHITE, 1, LAST));
    EXPECT_TRUE(pending.take(WHITE, 0, LAST));
    EXPECT_FALSE(pending.take(WHITE, 0, LAST));  // taken once: the layer's sweep read it
    EXPECT_FALSE(pending.any(WHITE, LAST));
    EXPECT_FALSE(pending.take(WHITE, 3, FIRST + 64));  // the same bit of the other word
    EXPECT_TRUE(pending.take(WHITE, 3, FIRST));
    EXPECT_FALSE(pending.any(WHITE, FIRST));
}

TEST(PendingChunks, ASweepListsTheChunksThatMayHoldItsCodeWithoutTakingThem) {
    PendingChunks pending(5 * SWEEP_CHUNK);
    pending.mark(BLACK, 4 * SWEEP_CHUNK + 7, FIRST);
    pending.mark(BLACK, 1 * SWEEP_CHUNK, FIRST);
    pending.mark(BLACK, 2 * SWEEP_CHUNK, FIRST + 1);  // another code
    pending.mark(WHITE, 3 * SWEEP_CHUNK, FIRST);      // the other side
    EXPECT_EQ(pending.holding(BLACK, FIRST, 0, 5), (std::vector<uint64_t>{1, 4}));
    EXPECT_EQ(pending.holding(BLACK, FIRST, 2, 5), (std::vector<uint64_t>{4}));  // from a later chunk
    EXPECT_EQ(pending.holding(BLACK, FIRST, 2, 4), (std::vector<uint64_t>{}));
    EXPECT_TRUE(pending.take(BLACK, 1, FIRST));  // listing took nothing
    EXPECT_EQ(pending.holding(BLACK, FIRST, 0, 5), (std::vector<uint64_t>{4}));
    EXPECT_EQ(pending.holding(WHITE, FIRST, 0, 5), (std::vector<uint64_t>{3}));
}

TEST(PendingChunks, AResumedStateMarksEveryCodeOfEveryChunk) {
    PendingChunks pending(2 * SWEEP_CHUNK);
    pending.mark_all();
    for (Color side : {WHITE, BLACK})
        for (int code = FIRST; code <= LAST; ++code)
            for (uint64_t k = 0; k < pending.chunks(); ++k)
                EXPECT_TRUE(pending.take(side, k, state::Code(code)));
    EXPECT_FALSE(pending.any(BLACK, LAST));
}

}  // namespace
}  // namespace retro
