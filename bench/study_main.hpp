// The entry of the study programs: their usage for --help or no argument, and a clear message
// instead of a crash for bad input (a material that does not parse, a file that does not read).
#pragma once

#include <cstdio>
#include <cstring>
#include <exception>

// Runs study(argc, argv), or prints `usage` (the program's header comment) when asked or given
// nothing; an exception ends the program with its message and status 1.
inline int study_main(const char* name, const char* usage, int argc, char** argv, int (*study)(int, char**)) {
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        std::fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    try {
        return study(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", name, e.what());
        return 1;
    }
}
