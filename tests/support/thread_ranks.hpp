// Ranks that are threads of one process, for tests of the solve on ranks without mpirun: each
// collective step meets the others at a barrier and reads what they left in shared slots.
#pragma once

#include <algorithm>
#include <barrier>
#include <cstdlib>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include "ranks/ranks.hpp"

namespace retro::test {

// What the ranks of one group share.
class RankGroup {
public:
    explicit RankGroup(int size)
        : size_(size), meet_(size), batches_(size_t(size)), values_(size_t(size)), spans_(size_t(size)) {}
    int size() const { return size_; }

private:
    friend class ThreadRank;
    const int size_;
    std::barrier<> meet_;
    std::vector<const std::vector<std::vector<uint64_t>>*> batches_;
    std::vector<uint64_t> values_;
    std::vector<std::span<const uint8_t>> spans_;
};

class ThreadRank final : public Ranks {
public:
    ThreadRank(RankGroup& group, int rank) : group_(group), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return group_.size(); }

    std::vector<uint64_t> exchange(const std::vector<std::vector<uint64_t>>& outgoing) override {
        group_.batches_[size_t(rank_)] = &outgoing;
        group_.meet_.arrive_and_wait();
        std::vector<uint64_t> received;
        for (const auto* from : group_.batches_)
            received.insert(received.end(), (*from)[size_t(rank_)].begin(), (*from)[size_t(rank_)].end());
        group_.meet_.arrive_and_wait();  // the batches are read before their owners free them
        return received;
    }
    uint64_t max(uint64_t mine) override {
        const std::vector<uint64_t> all = each(mine);
        return *std::max_element(all.begin(), all.end());
    }
    uint64_t sum(uint64_t mine) override {
        uint64_t total = 0;
        for (const uint64_t v : each(mine)) total += v;
        return total;
    }
    void gather(std::span<const uint8_t> mine, std::span<uint8_t> all) override {
        group_.spans_[size_t(rank_)] = mine;
        group_.meet_.arrive_and_wait();
        if (leads()) {
            size_t at = 0;
            for (const auto part : group_.spans_) {
                std::copy(part.begin(), part.end(), all.begin() + ptrdiff_t(at));
                at += part.size();
            }
        }
        group_.meet_.arrive_and_wait();
    }
    void broadcast(std::span<uint8_t> data, int from) override {
        if (rank_ == from) group_.spans_[size_t(from)] = data;
        group_.meet_.arrive_and_wait();
        if (rank_ != from) std::ranges::copy(group_.spans_[size_t(from)], data.begin());
        group_.meet_.arrive_and_wait();
    }
    void barrier() override { group_.meet_.arrive_and_wait(); }
    [[noreturn]] void abort(const std::string& why) override {
        std::cerr << why << std::endl;
        std::abort();
    }

private:
    // Every rank's `mine`, at every rank.
    std::vector<uint64_t> each(uint64_t mine) {
        group_.values_[size_t(rank_)] = mine;
        group_.meet_.arrive_and_wait();
        std::vector<uint64_t> all = group_.values_;
        group_.meet_.arrive_and_wait();
        return all;
    }

    RankGroup& group_;
    const int rank_;
};

}  // namespace retro::test
