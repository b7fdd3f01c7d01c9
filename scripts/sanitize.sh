#!/usr/bin/env bash
# Configures, builds and runs the tests under a sanitizer:
#   asan: AddressSanitizer + UndefinedBehaviorSanitizer, the suite less its slowest solves, in build-asan/
#   tsan: ThreadSanitizer, the multithreaded tests (solver, jobs, checkpoints, tbgen), in build-tsan/,
#         built by Clang: the other builds use GCC, so CI builds the tree with both compilers
# A sanitizer report fails the test that triggered it, also inside the apps the tests spawn.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kind="${1:-}"
compiler=()  # the system's default compiler
packages=()  # installed beside setup.sh's own
case "$kind" in
    asan)
        # Magic bitboards here, so that the sliders' lookup without PEXT is tested too.
        flags=(-DRETRO_SANITIZE=ON -DRETRO_PEXT=OFF)
        # Everything but the slowest tests (a solve is 5-10 times slower under ASan): smaller tests
        # run the same code under ASan (ThreeMan, Determinism.KRvK, SolverWindow.KQvKR,
        # Verifier.KQvKR, the other StoreShipping tests and the corruption tests of versions 5 and
        # 6), and the Release run has them all. TbgenProcesses builds its job twice; JobsRunner runs
        # its sharing code in-process. The slices on disk, promotions read in part, checkpoints of
        # slices (Determinism.KRPvKCheckpoint's too) and lines stay under ASan through
        # SlicesOnDisk.StoppedAndResumed, PromotionsInPart.FromFiles,
        # JobsSolver.CheckpointEveryPlyResumesToTheSameTable and ProbeLine.KQvKR; the legal counts
        # of the index through SolverOracle.ThreeMan; the plan of all 510 tables of up to six men
        # (long arithmetic under ASan) through the other JobsPlan tests; probes of en passant
        # positions through the CApi, ExitProbe and StoreShipping tests (the forced capture's test
        # needs KQvKP solved, a long solve under ASan); the C API through the CApi tests in-process
        # (CApiInstalled, the installed library built into a C program, runs in Release). TbgenMpi and
        # TbgenMpiFault run tbgen under mpirun, whose libraries are not instrumented and keep
        # allocations past MPI_Finalize; the solve on ranks runs in Release.
        tests=(-E '^(SolverOracle\.FourMan|Determinism\.(KQvKR|KPvKP|KRPvKCheckpoint)|PawnPositions\.(EnPassant.*|AForcedEnPassantCaptureIsNoStalemate|OnlyAKnightPromotionWinsInKBPvK)|SolverWindow\.KPvKP|SolverSurvey\.(KPvKP|KPPvK|KRvKP|PawnTableThroughItsSliceStore)|Verifier\.KRvKP|StoreShipping\.EveryThreeAndFourManTableReadsBackToItsSolvedValuesInEachForm|TbgenProcesses\..*|TbgenMpi\..*|TbgenMpiFault\..*|SlicesOnDisk\.WrittenFromTheStore|PromotionsInPart\.WithTheSlicesOnDisk|JobsSolver\.CheckpointEveryPlyOfASliceResumesToTheSameTable|IndexScheme\.LegalCountsMatchOracle|JobsPlan\.EverySixManTableFitsThisMachine|CApiInstalled|ProbeLine\.EveryDecisiveK[QR]vKPosition)$')
        export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1"
        export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"
        ;;
    tsan)
        flags=(-DRETRO_SANITIZE_THREAD=ON)
        compiler=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
        packages=(clang libclang-rt-dev)  # the compiler and its sanitizer runtimes
        # The threaded code: solving on 1-3 threads, two threads counting one entry late
        # (SolverPasses.TwoThreads*), checkpoints, jobs, tbgen, the block cache, the annotated loops
        # themselves (Parallel*), the C API probed from several threads, and the HTTP server's
        # threads, in-process (ServeHttp*).
        # Determinism.KQvKR and KPvKP take many minutes under TSan: KRvK stands for them. TbgenCli's
        # two longest tests solve and write a few tables through the app, as its other tests do in
        # less time; JobsPlan only plans. A checkpoint at every ply of KRPvK's slices takes minutes
        # under TSan: KRvK's (JobsSolver.CheckpointEveryPlyResumesToTheSameTable) and the slices of
        # TbgenCli.ACacheTooSmallKeepsSlicesOnDiskAndReadsPromotionsInPart stand for it.
        # Only the sources of these tests are built.
        flags+=("-DRETRO_TEST_SOURCES=determinism;passes;jobs/*;tbgen_cli;table_reader;parallel;capi;http_server")
        tests=(-R '^(Determinism\.KRvK|SolverPasses\.TwoThreads|Jobs|TbgenCli|StoreReader|Parallel|CApi\.ConcurrentProbes|ServeHttp)'
               -E '^(TbgenCli\.(BuildsSubTablesFirstThenSkipsThem|FullDiskStopsWithAClearErrorAndResumes)|JobsPlan\..*|JobsSolver\.CheckpointEveryPlyOfASliceResumesToTheSameTable)$')
        # libtbb.so is not instrumented: lib/parallel/tsan.hpp declares its hand-offs to our code, and
        # scripts/tsan.supp suppresses the reports on TBB's own inlined bookkeeping.
        export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:suppressions=$ROOT/scripts/tsan.supp"
        ;;
    *)
        echo "usage: $0 asan|tsan" >&2
        exit 2
        ;;
esac

"$ROOT/scripts/setup.sh" "${packages[@]}"
dir="$ROOT/build-$kind"
# -O2: optimized enough for the solver tests to stay fast (the test sources themselves at -O1,
# tests/CMakeLists.txt); -g1: the line numbers the reports need, half the compile time of -g with the
# sanitizers. Without NDEBUG: the asserts at the library's invariants are checked here too.
cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1" -DRETRO_BUILD_BENCH=OFF "${compiler[@]}" "${flags[@]}"
cmake --build "$dir" --parallel "$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j2 "${tests[@]}"
