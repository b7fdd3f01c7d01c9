// The job's log file and a stream that hands complete lines to a function.
#pragma once

#include <cstdio>
#include <filesystem>
#include <functional>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>

namespace retro {

// "2025-11-22 00:30:12", local time.
std::string timestamp_now();

// Appends timestamped lines to a file, flushed after every line so a killed job leaves a complete
// log. A closed JobLog (default-constructed) ignores lines.
class JobLog {
public:
    JobLog() = default;
    // Opens `path` for appending. Throws std::runtime_error naming the file when it cannot.
    explicit JobLog(const std::filesystem::path& path);
    ~JobLog();
    JobLog(const JobLog&) = delete;
    JobLog& operator=(const JobLog&) = delete;

    void line(const std::string& text);
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
    std::FILE* file_ = nullptr;
    std::mutex mutex_;
};

// An ostream that calls `on_line` with every complete line written to it (without the newline).
class LineStream : public std::ostream {
public:
    explicit LineStream(std::function<void(const std::string&)> on_line);
    ~LineStream() override;

private:
    class Buf : public std::streambuf {
    public:
        explicit Buf(std::function<void(const std::string&)> f) : on_line_(std::move(f)) {}
        void flush_partial();

    protected:
        int_type overflow(int_type c) override;
        std::streamsize xsputn(const char* s, std::streamsize n) override;

    private:
        std::function<void(const std::string&)> on_line_;
        std::string pending_;
    };
    Buf buf_;
};

// Removes a leftover file of the job, if it is there, and tells `note` (when set) that it did.
void remove_if_present(const std::filesystem::path& path,
                       const std::function<void(const std::string&)>& note);

}  // namespace retro
