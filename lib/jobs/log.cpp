#include "jobs/log.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

namespace retro {

std::string timestamp_now() {
    const std::time_t t = std::time(nullptr);
    std::tm local{};
    localtime_r(&t, &local);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &local);
    return buf;
}

JobLog::JobLog(const std::filesystem::path& path) : path_(path), file_(std::fopen(path.c_str(), "a")) {
    if (!file_)
        throw std::runtime_error("cannot open the log file " + path.string() + ": " + std::strerror(errno));
}

JobLog::~JobLog() {
    if (file_) std::fclose(file_);
}

void JobLog::line(const std::string& text) {
    if (!file_) return;
    std::lock_guard lock(mutex_);
    std::fprintf(file_, "%s %s\n", timestamp_now().c_str(), text.c_str());
    std::fflush(file_);
}

LineStream::LineStream(std::function<void(const std::string&)> on_line)
    : std::ostream(nullptr), buf_(std::move(on_line)) {
    rdbuf(&buf_);
}

LineStream::~LineStream() { buf_.flush_partial(); }

void LineStream::Buf::flush_partial() {
    if (!pending_.empty()) on_line_(pending_);
    pending_.clear();
}

LineStream::Buf::int_type LineStream::Buf::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return c;
}

std::streamsize LineStream::Buf::xsputn(const char* s, std::streamsize n) {
    for (std::streamsize i = 0; i < n; ++i) {
        if (s[i] == '\n') {
            on_line_(pending_);
            pending_.clear();
        } else {
            pending_.push_back(s[i]);
        }
    }
    return n;
}

void remove_if_present(const std::filesystem::path& path,
                       const std::function<void(const std::string&)>& note) {
    std::error_code ec;
    if (std::filesystem::remove(path, ec) && note) note("removed " + path.string());
}

}  // namespace retro
