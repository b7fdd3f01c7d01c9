// Running an app of the build tree (RETRO_BIN_DIR) from a test: its exit status and its output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/store_test_util.hpp"

namespace retro::test {

struct AppOutcome {
    int status;  // -1 when the app did not exit normally (a crash)
    std::string out, err;
};

// Runs `app args` (shell syntax) with `input` on its standard input; the input and output go
// through files in `scratch`.
inline AppOutcome run_app(const std::string& app, const std::string& args,
                          const std::filesystem::path& scratch, const std::string& input = "") {
    const auto in = scratch / (app + ".in"), out = scratch / (app + ".out"), err = scratch / (app + ".err");
    store_test::write_bytes(in, input);
    const std::string cmd = (std::filesystem::path(RETRO_BIN_DIR) / app).string() + " " + args + " < " +
                            in.string() + " > " + out.string() + " 2> " + err.string();
    const int raw = std::system(cmd.c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, store_test::read_bytes(out), store_test::read_bytes(err)};
}

// Starts `app args` (shell syntax) in the background, both its output streams into `log`, and
// returns its process id (the app's own: the shell execs it), for waitpid and kill.
inline pid_t start_app(const std::string& app, const std::string& args, const std::filesystem::path& log) {
    const std::string cmd = "exec " + (std::filesystem::path(RETRO_BIN_DIR) / app).string() + " " + args +
                            " > " + log.string() + " 2>&1";
    const pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    return pid;
}

}  // namespace retro::test
