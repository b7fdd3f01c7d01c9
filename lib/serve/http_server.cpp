#include "serve/http_server.hpp"

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <csignal>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>
#include <vector>

namespace retro {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using boost::system::error_code;

// What the sessions share: the tables, the options, the io_context and the access log.
struct ServerState {
    ServerState(const Tablebase& t, const ServerOptions& o)
        : tables(t),
          options(o),
          ioc(std::max(1, o.threads)),
          acceptor(net::make_strand(ioc)),
          signals(ioc),
          retry(acceptor.get_executor()) {}

    void listen();
    void accept();
    void log(const std::string& line) {
        const std::lock_guard lock(log_mutex);
        *options.access_log << line << std::endl;
    }

    const Tablebase& tables;
    const ServerOptions options;
    net::io_context ioc;
    tcp::acceptor acceptor;
    net::signal_set signals;
    net::steady_timer retry;  // pauses accepting after an error such as too many open files
    std::atomic<int> stop_signal{0};
    std::mutex log_mutex;
};

namespace {

// After a reply: the connection waits for the next request, or is closed.
enum class Connection { Close, KeepAlive };
// A reply's body goes out, or only its length does (the answer to HEAD).
enum class Body { Sent, Omitted };
// Beast's number for HTTP/1.1.
constexpr unsigned HTTP_1_1 = 11;

// One connection: requests read one after another (keep-alive), each answered before the next is
// read. Every handler runs on the connection's strand; the shared_ptr in each pending handler keeps
// the session alive, so a client that vanishes just ends the chain.
class Session : public std::enable_shared_from_this<Session> {
public:
    Session(tcp::socket socket, ServerState& server) : stream_(std::move(socket)), server_(server) {}

    void start() {
        net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read_header(); });
    }

private:
    void read_header() {
        parser_.emplace();
        parser_->header_limit(uint32_t(std::min<size_t>(server_.options.max_header, UINT32_MAX)));
        parser_->body_limit(server_.options.max_body);
        stream_.expires_after(server_.options.timeout);
        http::async_read_header(stream_, buffer_, *parser_,
                                [self = shared_from_this()](error_code ec, size_t) { self->on_header(ec); });
    }

    void on_header(error_code ec) {
        if (ec) return on_read_error(ec);
        // curl and others wait for "100 Continue" before sending a body they announced this way.
        if (beast::iequals(parser_->get()[http::field::expect], "100-continue")) {
            auto go_on = std::make_shared<http::response<http::empty_body>>(http::status::continue_, 11);
            http::async_write(stream_, *go_on, [self = shared_from_this(), go_on](error_code ec, size_t) {
                if (ec) return self->close();
                self->read_body();
            });
            return;
        }
        read_body();
    }

    void read_body() {
        stream_.expires_after(server_.options.timeout);
        http::async_read(stream_, buffer_, *parser_,
                         [self = shared_from_this()](error_code ec, size_t) { self->on_request(ec); });
    }

    void on_read_error(error_code ec) {
        if (ec == http::error::end_of_stream) return shut_down();
        if (ec == http::error::body_limit)
            return reply_and_close(
                413, "request body over the limit of " + std::to_string(server_.options.max_body) + " bytes");
        if (ec == http::error::header_limit)
            return reply_and_close(431, "request header over the limit of " +
                                            std::to_string(server_.options.max_header) + " bytes");
        // A malformed request gets its reason; a timeout, a reset or a half-sent request (the client
        // is gone) just ends the connection.
        if (ec.category() == http::make_error_code(http::error::bad_target).category() &&
            ec != http::error::partial_message)
            return reply_and_close(400, "malformed HTTP request: " + ec.message());
        close();
    }

    void on_request(error_code ec) {
        if (ec) return on_read_error(ec);
        auto& req = parser_->get();
        request_line_ = std::string(req.method_string()) + " " + std::string(req.target());
        const ApiRequest request{std::string(req.method_string()), std::string(req.target()),
                                 std::move(req.body())};
        send(handle_request(server_.tables, request, server_.options.api), req.version(),
             req.keep_alive() ? Connection::KeepAlive : Connection::Close,
             req.method() == http::verb::head ? Body::Omitted : Body::Sent);
    }

    void reply_and_close(int status, const std::string& reason) {
        request_line_ = "-";
        send(error_reply(status, reason), HTTP_1_1, Connection::Close, Body::Sent);
    }

    void send(ApiReply reply, unsigned version, Connection connection, Body body) {
        response_ = {};
        response_.version(version);
        response_.result(unsigned(reply.status));
        response_.set(http::field::server, "tbserve");
        response_.set(http::field::access_control_allow_origin, "*");
        if (!reply.content_type.empty()) response_.set(http::field::content_type, reply.content_type);
        for (const auto& [name, value] : reply.headers) response_.set(name, value);
        response_.keep_alive(connection == Connection::KeepAlive);
        response_.content_length(reply.body.size());
        body_size_ = reply.body.size();
        if (body == Body::Sent) response_.body() = std::move(reply.body);
        stream_.expires_after(server_.options.timeout);
        http::async_write(stream_, response_,
                          [self = shared_from_this()](error_code ec, size_t) { self->on_written(ec); });
    }

    void on_written(error_code ec) {
        if (server_.options.access_log) {
            error_code ignored;
            const auto peer = stream_.socket().remote_endpoint(ignored);
            server_.log(peer.address().to_string() + " \"" + request_line_ + "\" " +
                        std::to_string(response_.result_int()) + " " + std::to_string(body_size_) +
                        (ec ? " (not delivered: " + ec.message() + ")" : ""));
        }
        if (ec) return close();
        if (!response_.keep_alive()) return shut_down();
        read_header();
    }

    // Closes our side, then reads and drops what the client still sends until it closes too (or the
    // timeout): closing a socket with unread data resets the connection, and a reset can destroy
    // the reply (an error status sent before reading the whole request) before the client reads it.
    void shut_down() {
        error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        stream_.expires_after(server_.options.timeout);
        discard();
    }
    void discard() {
        buffer_.clear();
        stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](error_code ec, size_t) {
            if (!ec) self->discard();
        });
    }
    void close() { stream_.close(); }

    beast::tcp_stream stream_;
    ServerState& server_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    http::response<http::string_body> response_;  // alive until written
    std::string request_line_;                    // for the access log
    size_t body_size_ = 0;
};

}  // namespace

struct HttpServer::Impl : ServerState {
    using ServerState::ServerState;
};

void ServerState::listen() {
    error_code ec;
    const auto address = net::ip::make_address(options.bind, ec);
    if (ec) throw std::runtime_error("cannot listen on '" + options.bind + "': not an IP address");
    const tcp::endpoint endpoint(address, options.port);
    const auto fail = [&](const char* what) {
        throw std::runtime_error(std::string("cannot ") + what + " " + options.bind + " port " +
                                 std::to_string(options.port) + ": " + ec.message());
    };
    if (acceptor.open(endpoint.protocol(), ec); ec) fail("open a socket for");
    if (acceptor.set_option(net::socket_base::reuse_address(true), ec); ec) fail("set up");
    if (acceptor.bind(endpoint, ec); ec) fail("bind to");
    if (acceptor.listen(net::socket_base::max_listen_connections, ec); ec) fail("listen on");
}

void ServerState::accept() {
    acceptor.async_accept(net::make_strand(ioc), [this](error_code ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted) return;
        if (ec) {  // out of file descriptors or memory: try again shortly, keep serving the others
            retry.expires_after(std::chrono::milliseconds(100));
            retry.async_wait([this](error_code wait_ec) {
                if (!wait_ec) accept();
            });
            return;
        }
        std::make_shared<Session>(std::move(socket), *this)->start();
        accept();
    });
}

HttpServer::HttpServer(const Tablebase& tables, const ServerOptions& options)
    : impl_(std::make_unique<Impl>(tables, options)) {
    impl_->listen();
    impl_->accept();
    if (options.stop_on_signals) {
        impl_->signals.add(SIGINT);
        impl_->signals.add(SIGTERM);
        impl_->signals.async_wait([this](error_code ec, int signal) {
            if (ec) return;
            impl_->stop_signal = signal;
            impl_->ioc.stop();
        });
    }
}

HttpServer::~HttpServer() = default;

uint16_t HttpServer::port() const { return impl_->acceptor.local_endpoint().port(); }

std::string HttpServer::url() const {
    const auto address = impl_->acceptor.local_endpoint().address();
    const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    return "http://" + host + ":" + std::to_string(port()) + "/";
}

void HttpServer::run() {
    const auto serve = [this] {
        for (;;) {
            try {
                impl_->ioc.run();
                return;
            } catch (const std::exception& e) {  // a handler that threw (out of memory): go on serving
                if (impl_->options.access_log) impl_->log(std::string("error: ") + e.what());
            }
        }
    };
    std::vector<std::thread> pool;
    for (int i = 1; i < impl_->options.threads; ++i) pool.emplace_back(serve);
    serve();
    for (auto& t : pool) t.join();
}

void HttpServer::stop() { impl_->ioc.stop(); }

int HttpServer::stop_signal() const { return impl_->stop_signal; }

}  // namespace retro
