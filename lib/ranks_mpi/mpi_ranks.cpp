#include "ranks_mpi/mpi_ranks.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <stdexcept>
#include <thread>

namespace retro {

namespace {

// MPI counts are ints: larger transfers go in pieces of at most this many bytes.
constexpr uint64_t PIECE_BYTES = uint64_t(1) << 30;

void check(int status, const char* call) {
    if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + call + " failed");
}

int as_count(uint64_t n, const char* what) {
    if (n > uint64_t(INT_MAX))
        throw std::runtime_error(std::string("MPI: more ") + what + " than a count holds");
    return int(n);
}

class MpiRanks final : public Ranks {
public:
    MpiRanks(int& argc, char**& argv) {
        int provided = 0;
        check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
        // A failed call ends the job with a message rather than returning an error code to ignore.
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
    }
    ~MpiRanks() override { MPI_Finalize(); }

    int rank() const override { return rank_; }
    int size() const override { return size_; }

    std::vector<uint64_t> exchange(const std::vector<std::vector<uint64_t>>& outgoing) override {
        if (int(outgoing.size()) != size_) throw std::logic_error("exchange: one batch per rank");
        const auto n = static_cast<size_t>(size_);
        std::vector<int> send_counts(n), send_at(n), receive_counts(n), receive_at(n);
        std::vector<uint64_t> sent;
        for (int r = 0; r < size_; ++r) {
            send_counts[size_t(r)] = as_count(outgoing[size_t(r)].size(), "updates");
            send_at[size_t(r)] = as_count(sent.size(), "updates");
            sent.insert(sent.end(), outgoing[size_t(r)].begin(), outgoing[size_t(r)].end());
        }
        check(MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, MPI_COMM_WORLD),
              "MPI_Alltoall");
        uint64_t received = 0;
        for (int r = 0; r < size_; ++r) {
            receive_at[size_t(r)] = as_count(received, "updates");
            received += uint64_t(receive_counts[size_t(r)]);
        }
        std::vector<uint64_t> in(received);
        check(MPI_Alltoallv(sent.data(), send_counts.data(), send_at.data(), MPI_UINT64_T, in.data(),
                            receive_counts.data(), receive_at.data(), MPI_UINT64_T, MPI_COMM_WORLD),
              "MPI_Alltoallv");
        return in;
    }

    uint64_t max(uint64_t mine) override { return reduce(mine, MPI_MAX); }
    uint64_t sum(uint64_t mine) override { return reduce(mine, MPI_SUM); }

    void gather(std::span<const uint8_t> mine, std::span<uint8_t> all) override {
        uint64_t length = mine.size();
        std::vector<uint64_t> lengths(static_cast<size_t>(size_));
        check(MPI_Gather(&length, 1, MPI_UINT64_T, lengths.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD),
              "MPI_Gather");
        if (rank_ != 0) {
            for (uint64_t at = 0; at < length; at += PIECE_BYTES)
                check(MPI_Send(mine.data() + at, int(std::min(PIECE_BYTES, length - at)), MPI_BYTE, 0, 0,
                               MPI_COMM_WORLD),
                      "MPI_Send");
            return;
        }
        if (std::accumulate(lengths.begin(), lengths.end(), uint64_t(0)) != all.size())
            throw std::logic_error("gather: the parts do not fill the whole");
        std::copy(mine.begin(), mine.end(), all.begin());
        uint64_t offset = length;
        for (int r = 1; r < size_; ++r) {
            for (uint64_t at = 0; at < lengths[size_t(r)]; at += PIECE_BYTES)
                check(MPI_Recv(all.data() + offset + at, int(std::min(PIECE_BYTES, lengths[size_t(r)] - at)),
                               MPI_BYTE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                      "MPI_Recv");
            offset += lengths[size_t(r)];
        }
    }

    void broadcast(std::span<uint8_t> data, int from) override {
        for (uint64_t at = 0; at < data.size(); at += PIECE_BYTES)
            check(MPI_Bcast(data.data() + at, int(std::min(PIECE_BYTES, data.size() - at)), MPI_BYTE, from,
                            MPI_COMM_WORLD),
                  "MPI_Bcast");
    }

    // The ranks wait here for rank 0 to write a table, minutes for a large one: polled with naps,
    // so that a waiting rank leaves its core to the writer (MPI_Barrier spins).
    void barrier() override {
        MPI_Request request;
        check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
        for (int done = 0;;) {
            check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
            if (done) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }

    [[noreturn]] void abort(const std::string& why) override {
        std::cerr << why << std::endl;
        MPI_Abort(MPI_COMM_WORLD, 1);
        std::exit(1);
    }

private:
    uint64_t reduce(uint64_t mine, MPI_Op op) {
        uint64_t out = 0;
        check(MPI_Allreduce(&mine, &out, 1, MPI_UINT64_T, op, MPI_COMM_WORLD), "MPI_Allreduce");
        return out;
    }

    int rank_ = 0, size_ = 1;
};

// Whether a launcher started this process: Open MPI's mpirun, or a PMI/PMIx one such as Slurm's srun.
bool launched() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(name)) return true;
    return false;
}

}  // namespace

std::unique_ptr<Ranks> launched_ranks(int& argc, char**& argv) {
    if (!launched()) return nullptr;
    return std::make_unique<MpiRanks>(argc, argv);
}

}  // namespace retro
