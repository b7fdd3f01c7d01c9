// tbgen under mpirun from a test (RETRO_MPIEXEC: the launcher CMake found, defined for the sources
// that run it), started as CI starts it.
#pragma once

#include <filesystem>
#include <string>

namespace retro::test {

#ifdef RETRO_MPIEXEC
// `tbgen args` on `ranks` ranks (shell syntax, `exec`: the shell becomes mpirun).
inline std::string on_ranks(int ranks, const std::string& args) {
    // Root (CI), shared memory without cross-memory attach (which containers often forbid), and
    // waiting ranks that yield their core (more ranks than cores).
    return "exec env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
           "OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_mpi_yield_when_idle=1 " +
           std::string(RETRO_MPIEXEC) + " -np " + std::to_string(ranks) + " --oversubscribe " +
           (std::filesystem::path(RETRO_BIN_DIR) / "tbgen").string() + " " + args;
}
#endif

}  // namespace retro::test
