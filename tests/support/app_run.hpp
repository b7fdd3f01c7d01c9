// Running an app of the build tree (RETRO_BIN_DIR) from a test: its exit status and its output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

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

// Starts `command` (shell syntax) in the background, both its output streams into `log`, and returns
// the process id of the shell, or of the program it starts with `exec`, for wait_for and kill.
inline pid_t start_shell(const std::string& command, const std::filesystem::path& log) {
    const std::string line = command + " > " + log.string() + " 2>&1";
    const pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    return pid;
}

// Starts `app args` (shell syntax) in the background, both its output streams into `log`, and
// returns its process id (the app's own: the shell execs it), for wait_for and kill.
inline pid_t start_app(const std::string& app, const std::string& args, const std::filesystem::path& log) {
    return start_shell("exec " + (std::filesystem::path(RETRO_BIN_DIR) / app).string() + " " + args, log);
}

// The exit status of `pid`, a child of this process, waiting at most `seconds`; -1 (after killing it)
// when it ran longer, 128 + N when a signal N ended it.
inline int wait_for(pid_t pid, int seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > until) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace retro::test
