// The HTTP server of tbserve: Boost.Beast over an io_context run by a pool of threads, every
// request answered by handle_request (serve/api.hpp) through one shared, thread-safe Tablebase.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

#include "probe/tablebase.hpp"
#include "serve/api.hpp"

namespace retro {

struct ServerOptions {
    std::string bind = "127.0.0.1";        // an IPv4 or IPv6 address
    uint16_t port = 0;                     // 0: a free port, chosen by the system (see HttpServer::port)
    int threads = 1;                       // threads running the io_context, each answering requests
    size_t max_body = size_t(1) << 20;     // bytes of a request body; beyond: 413
    size_t max_header = size_t(16) << 10;  // bytes of the request line and header fields; beyond: 431
    // The longest a client may take to send a whole request (or its header, then its body) or to
    // take in a reply; an idle keep-alive connection is closed after it too. Slow clients cost a
    // connection for this long, no thread.
    std::chrono::milliseconds timeout{30'000};
    bool stop_on_signals = false;        // SIGINT and SIGTERM end run()
    std::ostream* access_log = nullptr;  // one line per request when set
    ApiLimits api;
};

class HttpServer {
public:
    // Binds and listens at once. Throws std::runtime_error naming the address when it cannot.
    HttpServer(const Tablebase& tables, const ServerOptions& options);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    uint16_t port() const;    // the port it listens on: the chosen one when options.port was 0
    std::string url() const;  // "http://127.0.0.1:8080/" ("http://[::1]:8080/" for IPv6)

    // Serves on options.threads threads, the calling one among them, until stop() or a signal;
    // returns once all of them are done. Open connections are dropped.
    void run();
    // Ends run(); from any thread, also from a signal-free test. A server stopped before run()
    // returns from run() at once.
    void stop();
    // The signal that stopped run(), 0 when none did.
    int stop_signal() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace retro
