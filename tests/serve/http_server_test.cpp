// The HTTP server on a loopback port, in-process (so the sanitizer builds watch its threads): keep-
// alive and pipelining, HEAD, malformed and oversized requests, 100-continue, slow and vanished
// clients, many clients at once, and stopping.
#include "serve/http_server.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "support/probe_test_tables.hpp"

using namespace retro;
using namespace std::chrono_literals;

namespace {

const std::string KQK = "/standard?fen=8/8/8/4k3/8/8/8/4K2Q_w_-_-_0_1";

// The server running on its own threads for the test's lifetime.
struct RunningServer {
    explicit RunningServer(ServerOptions options = {},
                           const Tablebase& tables = retro::testing::three_man_tables())
        : server(tables, with_threads(options)), thread([this] { server.run(); }) {}
    ~RunningServer() {
        server.stop();
        thread.join();
    }
    static ServerOptions with_threads(ServerOptions o) {
        o.threads = 3;
        return o;
    }
    HttpServer server;
    std::thread thread;
};

struct Response {
    int status = -1;  // -1: the connection closed before a whole response came
    std::string head, body;
    bool has(const std::string& header_line) const {
        return head.find(header_line + "\r\n") != std::string::npos;
    }
};

// Whether a response has a body: a reply to HEAD announces the length of one it does not send, and
// an interim "100 Continue" has none.
enum class Body { Expected, Absent };

// A raw loopback connection: the test decides every byte sent.
class Client {
public:
    explicit Client(uint16_t port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        timeval tv{10, 0};  // a test that waits longer has failed
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    }
    ~Client() { ::close(fd_); }
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    bool connected() const { return connected_; }
    void send(const std::string& bytes) {
        for (size_t sent = 0; sent < bytes.size();) {
            const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
            if (n <= 0) return;  // the server closed: the next read tells
            sent += size_t(n);
        }
    }
    // One response, with the body its Content-Length announces unless `body` is Absent.
    Response read(Body body = Body::Expected) {
        Response r;
        size_t end;
        while ((end = buffer_.find("\r\n\r\n")) == std::string::npos)
            if (!fill()) return r;
        r.head = buffer_.substr(0, end + 2);
        buffer_.erase(0, end + 4);
        size_t length = 0;
        if (const size_t at = r.head.find("Content-Length: "); at != std::string::npos)
            length = std::stoul(r.head.substr(at + 16));
        if (body == Body::Absent) length = 0;
        while (buffer_.size() < length)
            if (!fill()) return r;
        r.body = buffer_.substr(0, length);
        buffer_.erase(0, length);
        r.status = std::stoi(r.head.substr(9, 3));
        return r;
    }
    // True when the server closes the connection (end of stream) with nothing more to read.
    bool closed_by_server() { return !fill() && buffer_.empty(); }

private:
    bool fill() {
        char chunk[65536];
        const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n <= 0) return false;
        buffer_.append(chunk, size_t(n));
        return true;
    }
    int fd_;
    bool connected_ = false;
    std::string buffer_;
};

std::string get(const std::string& target, const std::string& extra = "") {
    return "GET " + target + " HTTP/1.1\r\nHost: t\r\n" + extra + "\r\n";
}

std::string expected_body(const std::string& target) {
    return handle_request(retro::testing::three_man_tables(), {"GET", target, ""}).body;
}

}  // namespace

TEST(ServeHttp, KeepAlivePipeliningHeadAndCors) {
    RunningServer s;
    Client c(s.server.port());
    ASSERT_TRUE(c.connected());
    c.send(get(KQK) + get("/standard?fen=bad") + "HEAD / HTTP/1.1\r\nHost: t\r\n\r\n" + get(KQK));
    const Response first = c.read(), second = c.read(), head = c.read(Body::Absent), last = c.read();
    EXPECT_EQ(first.status, 200);
    EXPECT_EQ(first.body, expected_body(KQK));
    EXPECT_NE(
        first.body.find(R"("moves":[{"uci":"h1c6","san":"Qc6","zeroing":false,"category":"loss","dtm":-12,)"),
        std::string::npos);
    EXPECT_TRUE(first.has("Access-Control-Allow-Origin: *")) << first.head;
    EXPECT_TRUE(first.has("Content-Type: application/json")) << first.head;
    EXPECT_EQ(second.status, 400);
    EXPECT_EQ(second.body, R"({"error":"bad FEN: a FEN has 4 or 6 fields, this one has 1"})");
    EXPECT_EQ(head.status, 200);
    EXPECT_TRUE(head.has("Content-Length: " + std::to_string(expected_body("/").size()))) << head.head;
    EXPECT_EQ(last.body, first.body);  // so HEAD sent no body
    EXPECT_TRUE(s.server.url().rfind("http://127.0.0.1:", 0) == 0) << s.server.url();
}

TEST(ServeHttp, MalformedAndOversizedRequestsGetTheirStatusAndTheServerGoesOn) {
    ServerOptions o;
    o.max_body = 1000;
    o.max_header = 2000;
    RunningServer s(o);
    const auto one = [&](const std::string& bytes) {
        Client c(s.server.port());
        c.send(bytes);
        Response r = c.read();
        EXPECT_TRUE(r.status < 0 || c.closed_by_server()) << "connection left open after " << r.status;
        return r;
    };
    const Response garbage = one("GARBAGE\r\n\r\n");
    EXPECT_EQ(garbage.status, 400);
    EXPECT_EQ(garbage.body.rfind(R"({"error":"malformed HTTP request: )", 0), 0u) << garbage.body;
    EXPECT_EQ(one("GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(4000, 'a') + "\r\n\r\n").status, 431);
    // Refused on its header alone: the body is never sent.
    const Response big = one("POST /standard/batch HTTP/1.1\r\nHost: t\r\nContent-Length: 2000000\r\n\r\n");
    EXPECT_EQ(big.status, 413);
    EXPECT_EQ(big.body, R"({"error":"request body over the limit of 1000 bytes"})");
    EXPECT_EQ(one("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: -5\r\n\r\n").status, 400);
    Client ok(s.server.port());
    ok.send(get(KQK));
    EXPECT_EQ(ok.read().body, expected_body(KQK));
}

TEST(ServeHttp, Expect100ContinueAndBatch) {
    RunningServer s;
    Client c(s.server.port());
    const std::string body = R"(["8/8/8/4k3/8/8/8/4K2Q w - - 0 1", "x"])";
    c.send("POST /standard/batch HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n");
    const Response go_on = c.read(Body::Absent);
    EXPECT_EQ(go_on.status, 100);
    c.send(body);
    const Response r = c.read();
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "[" + expected_body(KQK) +
                          R"(,{"error":"bad FEN: a FEN has 4 or 6 fields, this one has 1","status":400}])");
}

TEST(ServeHttp, SlowAndVanishedClientsCostNoThread) {
    ServerOptions o;
    o.timeout = 1000ms;
    RunningServer s(o);
    // More slow clients than threads: each holds a connection, none a thread.
    std::vector<std::unique_ptr<Client>> slow;
    for (int i = 0; i < 6; ++i) {
        slow.push_back(std::make_unique<Client>(s.server.port()));
        slow.back()->send("GET /standard?fen=8/8/8/4k3/8/8/8/4K2Q_w_-_-_0_1 HTTP/1.1\r\nHo");
    }
    {
        Client half(s.server.port());
        half.send("POST /standard/batch HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n[\"8/8");
    }  // gone mid-body
    {
        Client gone(s.server.port());
        std::string many = "[";
        for (int i = 0; i < 100; ++i)
            many += std::string(i ? "," : "") + R"("8/8/8/4k3/8/8/8/4K2Q w - - 0 1")";
        many += "]";
        gone.send("POST /standard/batch HTTP/1.1\r\nHost: t\r\nContent-Length: " +
                  std::to_string(many.size()) + "\r\n\r\n" + many);
    }  // gone before reading a 360 KB answer
    const auto start = std::chrono::steady_clock::now();
    Client ok(s.server.port());
    ok.send(get(KQK));
    EXPECT_EQ(ok.read().status, 200);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 900ms)
        << "answered only after the slow clients timed out";
    for (auto& c : slow) EXPECT_TRUE(c->closed_by_server());  // after the timeout
    EXPECT_GE(std::chrono::steady_clock::now() - start, 700ms);
}

TEST(ServeHttp, ManyClientsAtOnce) {
    RunningServer s;
    const std::vector<std::string> targets = {KQK, "/standard?fen=8/8/8/4k3/8/8/8/4K2R_b_-_-_0_1",
                                              "/standard/mainline?fen=8/8/8/4k3/8/8/8/4K2R_w_-_-_0_1",
                                              "/standard?fen=8/8/8/4k3/8/8/8/2BNK3_w_-_-_0_1",
                                              "/standard?fen=x"};
    std::vector<std::string> expected;
    for (const auto& t : targets) expected.push_back(expected_body(t));
    std::atomic<int> right{0}, wrong{0};
    std::vector<std::thread> clients;
    for (int t = 0; t < 8; ++t)
        clients.emplace_back([&, t] {
            for (int round = 0; round < 3; ++round) {
                Client c(s.server.port());  // a new connection each round, several requests on it
                for (int i = 0; i < 10; ++i) {
                    const size_t k = size_t(t + i) % targets.size();
                    c.send(get(targets[k]));
                    (c.read().body == expected[k] ? right : wrong)++;
                }
            }
        });
    for (auto& c : clients) c.join();
    EXPECT_EQ(right, 240);
    EXPECT_EQ(wrong, 0);
}

TEST(ServeHttp, BadAddressesAndStopping) {
    ServerOptions o;
    o.bind = "localhost";  // an address, not a name
    EXPECT_THROW(HttpServer(retro::testing::three_man_tables(), o), std::runtime_error);
    RunningServer s;
    o.bind = "127.0.0.1";
    o.port = s.server.port();
    try {
        HttpServer second(retro::testing::three_man_tables(), o);
        ADD_FAILURE() << "two servers on port " << o.port;
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot bind to 127.0.0.1 port " + std::to_string(o.port)),
                  std::string::npos)
            << e.what();
    }
    HttpServer stopped(retro::testing::three_man_tables(), {});
    stopped.stop();
    stopped.run();  // returns at once
    EXPECT_EQ(stopped.stop_signal(), 0);
}
