// The ranks of an MPI job (Open MPI): MPI_COMM_WORLD, initialised when a launcher (mpirun, srun)
// started this process and finalised when the object goes. Only the thread that made it calls MPI.
#pragma once

#include <memory>

#include "ranks/ranks.hpp"

namespace retro {

// The job's ranks when a launcher started this process (its environment says so), else nullptr:
// a tbgen started by hand is one process and initialises nothing.
std::unique_ptr<Ranks> launched_ranks(int& argc, char**& argv);

}  // namespace retro
