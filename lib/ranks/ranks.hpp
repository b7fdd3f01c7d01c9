// The processes that solve one table together (MPI ranks), as the solver and the job see them: who
// they are, and the few collective steps they take. lib/ranks_mpi/ implements it over MPI; a build
// without MPI has only OneProcess, so nothing below the apps depends on MPI.
//
// Every call but rank() and size() is collective: all ranks make it, in the same order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace retro {

class Ranks {
public:
    virtual ~Ranks() = default;

    virtual int rank() const = 0;
    virtual int size() const = 0;
    bool leads() const { return rank() == 0; }

    // Sends outgoing[r] to rank r (outgoing has size() batches; a rank's own batch too) and returns
    // what every rank sent to this one, in rank order.
    virtual std::vector<uint64_t> exchange(const std::vector<std::vector<uint64_t>>& outgoing) = 0;
    // The largest and the sum of every rank's `mine`.
    virtual uint64_t max(uint64_t mine) = 0;
    virtual uint64_t sum(uint64_t mine) = 0;
    // Rank 0 receives every rank's `mine` one after the other, in rank order, into `all` (which
    // holds their sum exactly); the others leave `all` empty.
    virtual void gather(std::span<const uint8_t> mine, std::span<uint8_t> all) = 0;
    // Every rank receives rank `from`'s `data` into its own (of the same size).
    virtual void broadcast(std::span<uint8_t> data, int from) = 0;
    virtual void barrier() = 0;
    // Ends every rank at once, `why` said on standard error: one rank's error must not leave the others
    // waiting in a collective step for ever.
    [[noreturn]] virtual void abort(const std::string& why) = 0;
};

// One process alone: the collective steps are trivial.
class OneProcess final : public Ranks {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::vector<uint64_t> exchange(const std::vector<std::vector<uint64_t>>& outgoing) override {
        return outgoing.at(0);
    }
    uint64_t max(uint64_t mine) override { return mine; }
    uint64_t sum(uint64_t mine) override { return mine; }
    void gather(std::span<const uint8_t> mine, std::span<uint8_t> all) override {
        std::copy(mine.begin(), mine.end(), all.begin());
    }
    void broadcast(std::span<uint8_t>, int) override {}
    void barrier() override {}
    [[noreturn]] void abort(const std::string& why) override;
};

// Every rank's `mine`, at rank 0 (in rank order; empty elsewhere).
std::vector<uint64_t> gather_values(Ranks& ranks, uint64_t mine);

// Where every rank runs, "pid 1234 on node01", at rank 0 (in rank order; empty elsewhere): what
// names a rank in the launcher's messages and in ps on its machine.
std::vector<std::string> gather_places(Ranks& ranks);

}  // namespace retro
