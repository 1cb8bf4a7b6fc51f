// MCP over WebSocket (docs/transports.md): our client (connect_websocket)
// against our HTTP server with `websocket` on, over real sockets on
// 127.0.0.1: calls, progress, log messages and elicitation in the 2025 era,
// the 2026-07-28 era on the same endpoint, wss, the rules applied before the
// upgrade (Origin 403, a missing token 401, no subprotocol 400), and the
// connection's own rules, seen by a peer that speaks WebSocket byte by byte:
// a binary message closes 1003, an oversized one 1009, a peer that does not
// answer pings is dropped, an expired token closes 1008, the server's
// shutdown lets calls finish and closes 1001.

#include <mcp/auth/token_verifier.hpp>
#include <mcp/base64.hpp>
#include <mcp/client/client.hpp>
#include <mcp/error.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/transport/websocket.hpp>

#include "echo_reply.hpp"
#include "http_client.hpp"
#include "http_test_server.hpp"
#include "legacy_client.hpp"
#include "test_certificates.hpp"
#include "test_support.hpp"

#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include <openssl/sha.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp::test {
namespace {

using tcp = asio::ip::tcp;
using namespace asio::experimental::awaitable_operators;

std::string ws_url(std::uint16_t port, std::string scheme = "ws", std::string host = "127.0.0.1") {
  return scheme + "://" + host + ":" + std::to_string(port) + "/mcp";
}

http_server_options with_websocket() {
  http_server_options options;
  options.websocket = true;
  return options;
}

/// A client over connect_websocket, legacy or (default versions) modern.
/// Answers every elicitation with `action` (and `{"ok": true}` on accept), counting them.
void answer_elicitations(mcp::client& c, std::string action, int& asked) {
  c.on_elicitation([action, &asked](json::object) -> asio::awaitable<json::object> {
    ++asked;
    json::object answer{{"action", action}};
    if (action == "accept") answer["content"] = json::object{{"ok", true}};
    co_return answer;
  });
}

/// A client over connect_websocket, legacy or (default versions) modern,
/// that answers elicitations with `elicitation_action` (counted in `asked`).
asio::awaitable<std::unique_ptr<mcp::client>> connect_client(std::string url, client_options options,
                                                             std::string elicitation_action, int& asked) {
  auto ex = co_await asio::this_coro::executor;
  auto transport = co_await connect_websocket(ex, std::move(url));
  auto c = std::make_unique<mcp::client>(ex, std::move(options));
  answer_elicitations(*c, std::move(elicitation_action), asked);
  co_await c->connect(std::move(transport));
  co_return c;
}

asio::awaitable<std::unique_ptr<mcp::client>> connect_client(std::string url, client_options options) {
  int asked = 0;
  co_return co_await connect_client(std::move(url), std::move(options), "decline", asked);
}

// --- a WebSocket peer byte by byte -----------------------------------------------

/// Speaks WebSocket by hand: upgrades, sends the frames a test asks for
/// (masked, as a client must), reads the server's, and answers nothing on
/// its own: no pong, no close unless told.
class raw_peer {
 public:
  struct frame {
    int opcode = 0;
    std::string payload;
    /// The code of a close frame.
    int close_code() const {
      return payload.size() >= 2 ? (static_cast<unsigned char>(payload[0]) << 8) | static_cast<unsigned char>(payload[1]) : 0;
    }
  };

  explicit raw_peer(asio::any_io_executor ex) : socket_(ex) {}

  /// Sends the upgrade request and reads the answer's head; its status.
  asio::awaitable<unsigned> open(std::uint16_t port, std::string extra_headers = {}) {
    const tcp::endpoint to(asio::ip::make_address("127.0.0.1"), port);
    co_await socket_.async_connect(to, asio::use_awaitable);
    const std::string request = "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                                "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                                "Sec-WebSocket-Protocol: mcp\r\n" +
                                extra_headers + "\r\n";
    co_await asio::async_write(socket_, asio::buffer(request), asio::use_awaitable);
    while (buffer_.find("\r\n\r\n") == std::string::npos) {
      const bool more = co_await read_more(5s);
      if (!more) throw std::runtime_error("the server closed before answering the upgrade");
    }
    const auto end = buffer_.find("\r\n\r\n") + 4;
    head_ = buffer_.substr(0, end);
    buffer_.erase(0, end);
    co_return static_cast<unsigned>(std::stoul(head_.substr(9, 3)));
  }

  const std::string& head() const { return head_; }

  /// Sends one whole frame.
  asio::awaitable<void> send(int opcode, std::string_view payload) {
    std::string out;
    out.push_back(static_cast<char>(0x80 | opcode));
    const std::size_t n = payload.size();
    if (n < 126) {
      out.push_back(static_cast<char>(0x80 | n));
    } else if (n < 65536) {
      out.push_back(static_cast<char>(0x80 | 126));
      out.push_back(static_cast<char>(n >> 8));
      out.push_back(static_cast<char>(n & 0xff));
    } else {
      out.push_back(static_cast<char>(0x80 | 127));
      for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((n >> shift) & 0xff));
    }
    const char mask[4] = {0x12, 0x34, 0x56, 0x78};
    out.append(mask, 4);
    for (std::size_t i = 0; i < n; ++i) out.push_back(static_cast<char>(payload[i] ^ mask[i % 4]));
    co_await asio::async_write(socket_, asio::buffer(out), asio::use_awaitable);
  }

  /// Closes the TCP connection, as a client does once the closing handshake is done.
  void close() {
    boost::system::error_code ignored;
    socket_.close(ignored);
  }

  /// The next frame from the server; nullopt when the connection ended.
  /// Throws std::runtime_error when nothing comes within `limit`.
  asio::awaitable<std::optional<frame>> next(std::chrono::milliseconds limit = 5s) {
    for (;;) {
      if (auto f = parse()) co_return f;
      const bool more = co_await read_more(limit);
      if (!more) co_return std::nullopt;
    }
  }

  /// Frames until the connection ends (or a close frame, when `until_close`).
  asio::awaitable<std::vector<frame>> drain(bool until_close, std::chrono::milliseconds limit = 5s) {
    std::vector<frame> seen;
    for (;;) {
      auto f = co_await next(limit);
      if (!f) break;
      seen.push_back(std::move(*f));
      if (until_close && seen.back().opcode == 8) break;
    }
    co_return seen;
  }

 private:
  asio::awaitable<bool> read_more(std::chrono::milliseconds limit) {
    char chunk[4096];
    asio::steady_timer timer(socket_.get_executor(), limit);
    auto outcome = co_await (socket_.async_read_some(asio::buffer(chunk), asio::as_tuple(asio::use_awaitable)) ||
                             timer.async_wait(asio::use_awaitable));
    if (outcome.index() == 1) throw std::runtime_error("nothing from the server within the deadline");
    auto [ec, n] = std::get<0>(outcome);
    if (ec) co_return false;
    buffer_.append(chunk, n);
    co_return true;
  }

  std::optional<frame> parse() {
    if (buffer_.size() < 2) return std::nullopt;
    const auto b0 = static_cast<unsigned char>(buffer_[0]);
    const auto b1 = static_cast<unsigned char>(buffer_[1]);
    std::size_t at = 2;
    std::uint64_t n = b1 & 0x7f;
    if (n == 126) {
      if (buffer_.size() < 4) return std::nullopt;
      n = (static_cast<unsigned char>(buffer_[2]) << 8) | static_cast<unsigned char>(buffer_[3]);
      at = 4;
    } else if (n == 127) {
      if (buffer_.size() < 10) return std::nullopt;
      n = 0;
      for (int i = 0; i < 8; ++i) n = (n << 8) | static_cast<unsigned char>(buffer_[2 + i]);
      at = 10;
    }
    if (buffer_.size() < at + n) return std::nullopt;
    frame f{b0 & 0x0f, buffer_.substr(at, n)};
    buffer_.erase(0, at + n);
    return f;
  }

  tcp::socket socket_;
  std::string buffer_;
  std::string head_;
};

/// A verifier that takes the token "good" (no expiry) and "brief" (expires
/// in a second), and no other.
class fake_verifier final : public auth::token_verifier {
 public:
  asio::awaitable<auth::verification> verify(std::string token) override {
    if (token != "good" && token != "brief") co_return auth::verification::invalid("unknown token");
    auth::principal who;
    who.issuer = "https://issuer.example";
    who.subject = "alice";
    if (token == "brief") who.expiry = std::chrono::system_clock::now() + 1s;
    co_return auth::verification::valid(std::move(who));
  }
};

http_server_options protected_options() {
  auto options = with_websocket();
  http_auth_options a;
  a.verifier = std::make_shared<fake_verifier>();
  a.resource = "http://127.0.0.1/mcp";
  a.authorization_servers = {"https://issuer.example"};
  options.auth = a;
  return options;
}

// --- the 2025 era -------------------------------------------------------------------

TEST(Websocket, LegacySessionCallsProgressLogsAndElicitation) {
  run_http_test(with_websocket(), [](test_server& server) -> asio::awaitable<void> {
    int asked = 0;
    auto legacy = legacy_only();  // (named: an aggregate built in a co_await line is destroyed twice by g++ 12)
    auto c = co_await connect_client(ws_url(server.port()), std::move(legacy), "accept", asked);
    EXPECT_EQ(to_string(c->server().version), "2025-11-25");
    EXPECT_EQ(server.http.session_count(), 1u);

    const auto tools = co_await c->list_tools();
    EXPECT_GE(tools.size(), 5u);
    EXPECT_EQ(co_await echo_reply(*c, "over a websocket"), "over a websocket");
    // The handler sees the upgrade request's headers.
    json::object header_args{{"name", "sec-websocket-protocol"}};
    const auto header = co_await c->call_tool("header", std::move(header_args));
    EXPECT_EQ(first_text(header), "mcp");

    // Progress notifications of a call.
    int updates = 0;
    call_options with_progress;
    with_progress.on_progress = [&](const progress_update&) { ++updates; };
    json::object count_args{{"steps", 3}, {"step_ms", 5}};
    const auto counted = co_await c->call_tool("count", std::move(count_args), std::move(with_progress));
    EXPECT_EQ(first_text(counted), "counted to 3");
    EXPECT_EQ(updates, 3);

    // A log message.
    int logs = 0;
    c->on_log([&](const log_message&) { ++logs; });
    co_await c->set_logging_level(logging_level::debug);
    json::object no_args;
    const auto logged = co_await c->call_tool("log", no_args);
    EXPECT_EQ(first_text(logged), "logged");
    const std::function<bool()> got_log = [&] { return logs == 1; };
    EXPECT_TRUE(co_await wait_until(got_log, 2s));

    // A request from the server to the client, answered on the same socket.
    const auto confirmed = co_await c->call_tool("confirm", no_args);
    EXPECT_EQ(first_text(confirmed), "accept");
    EXPECT_EQ(asked, 1);

    // Many calls at once share the socket.
    std::vector<std::string> answers(20);
    int done = 0;
    for (int i = 0; i < 20; ++i)
      asio::co_spawn(co_await asio::this_coro::executor,
                     [&, i]() -> asio::awaitable<void> {
                       answers[i] = co_await echo_reply(*c, "call " + std::to_string(i));
                       ++done;
                     },
                     asio::detached);
    const std::function<bool()> all_done = [&] { return done == 20; };
    EXPECT_TRUE(co_await wait_until(all_done, 5s));
    for (int i = 0; i < 20; ++i) EXPECT_EQ(answers[i], "call " + std::to_string(i));

    co_await c->close();
    const std::function<bool()> ended = [&] { return server.http.session_count() == 0; };
    EXPECT_TRUE(co_await wait_until(ended, 5s)) << "the session outlived its connection";
  });
}

// --- the 2026-07-28 era ---------------------------------------------------------------

TEST(Websocket, ModernEraOnTheSameEndpoint) {
  run_http_test(with_websocket(), [](test_server& server) -> asio::awaitable<void> {
    client_options options;  // every version: the client probes server/discover first
    int asked = 0;
    auto c = co_await connect_client(ws_url(server.port()), std::move(options), "decline", asked);
    EXPECT_EQ(to_string(c->server().version), "2026-07-28");
    EXPECT_EQ(co_await echo_reply(*c, "modern"), "modern");
    // Elicitation as an input round: the client answers, sends the call again.
    json::object no_args;
    const auto confirmed = co_await c->call_tool("confirm", no_args);
    EXPECT_EQ(first_text(confirmed), "decline");
    EXPECT_EQ(asked, 1);
    co_await c->ping();
    co_await c->close();
  });
}

TEST(Websocket, RawMessagesInvalidJsonAndAnIdleClientKeptAlive) {
  auto options = with_websocket();
  options.websocket_ping_interval = 100ms;
  run_http_test(options, [](test_server& server) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto t = co_await connect_websocket(ex, ws_url(server.port()));
    EXPECT_EQ(t->metadata().kind, "websocket");
    co_await t->write_frame("{not json");
    const auto parse_error = co_await read_json(*t);
    EXPECT_EQ(error_code(parse_error), -32700);
    const auto init = rpc_request(1, "initialize", initialize_params());
    co_await write_json(*t, init);
    const auto reply = co_await read_json(*t);
    EXPECT_EQ(reply.at("result").at("protocolVersion").as_string(), "2025-11-25");
    // Idle through several ping intervals: the client answers the pings.
    co_await sleep_for(600ms);
    const auto ping = rpc_request(2, "ping");
    co_await write_json(*t, ping);
    const auto pong = co_await read_json(*t);
    EXPECT_EQ(pong.at("id").as_int64(), 2);
    co_await t->close();
  });
}

// --- rules before the upgrade -------------------------------------------------------

TEST(Websocket, RefusedBeforeTheUpgrade) {
  run_http_test(with_websocket(), [](test_server& server) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    // A foreign Origin: 403, never upgraded.
    websocket_client_options foreign;
    foreign.headers["Origin"] = "https://evil.example";
    std::optional<unsigned> status;
    try {
      co_await connect_websocket(ex, ws_url(server.port()), std::move(foreign));
    } catch (const websocket_upgrade_error& e) {
      status = e.status();
    }
    EXPECT_EQ(status, 403u);
    // Without the mcp subprotocol: 400.
    raw_peer peer(ex);
    http_request upgrade(http::verb::get, "/mcp");
    upgrade.header("Upgrade", "websocket").header("Connection", "Upgrade");
    upgrade.header("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==").header("Sec-WebSocket-Version", "13");
    upgrade.header("Sec-WebSocket-Protocol", "chat");
    const auto no_mcp = co_await http_call(server.port(), upgrade);
    EXPECT_EQ(no_mcp.status, 400u);
    EXPECT_EQ(server.http.session_count(), 0u);
  });
}

TEST(Websocket, NoFallbackWhenTheServerOffersNone) {
  run_http_test(http_server_options{}, [](test_server& server) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    std::optional<unsigned> status;
    try {
      co_await connect_websocket(ex, ws_url(server.port()));
    } catch (const websocket_upgrade_error& e) {
      status = e.status();
    }
    CO_ASSERT_TRUE(status.has_value());
    EXPECT_GE(*status, 400u);
    // Not a ws URL: refused before anything is sent.
    bool refused = false;
    try {
      co_await connect_websocket(ex, "http://127.0.0.1:" + std::to_string(server.port()) + "/mcp");
    } catch (const mcp::invalid_argument&) {
      refused = true;
    }
    EXPECT_TRUE(refused);
  });
}

TEST(Websocket, TokenRequiredBeforeTheUpgradeAndExpiryCloses1008) {
  run_http_test(protected_options(), [](test_server& server) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    std::optional<unsigned> status;
    std::vector<std::string> challenges;
    try {
      co_await connect_websocket(ex, ws_url(server.port()));
    } catch (const websocket_upgrade_error& e) {
      status = e.status();
      challenges = e.www_authenticate();
    }
    EXPECT_EQ(status, 401u);
    CO_ASSERT_TRUE(!challenges.empty());
    EXPECT_NE(challenges.front().find("resource_metadata="), std::string::npos) << challenges.front();

    // With a good token: served, and the handler does not see the token.
    websocket_client_options with_token;
    with_token.headers["Authorization"] = "Bearer good";
    auto transport = co_await connect_websocket(ex, ws_url(server.port()), std::move(with_token));
    mcp::client c(ex, legacy_only());
    co_await c.connect(std::move(transport));
    json::object header_args{{"name", "authorization"}};
    const auto header = co_await c.call_tool("header", std::move(header_args));
    EXPECT_EQ(first_text(header), "(none)");
    co_await c.close();

    // A token that expires ends its connection: close frame 1008.
    raw_peer peer(ex);
    const auto upgraded = co_await peer.open(server.port(), "Authorization: Bearer brief\r\n");
    EXPECT_EQ(upgraded, 101u) << peer.head();
    const auto frames = co_await peer.drain(true, 5s);
    CO_ASSERT_TRUE(!frames.empty());
    EXPECT_EQ(frames.back().opcode, 8);
    EXPECT_EQ(frames.back().close_code(), 1008);
    co_await peer.send(8, frames.back().payload.substr(0, 2));
    peer.close();
  });
}

// --- the connection's own rules -----------------------------------------------------

TEST(Websocket, BinaryMessageCloses1003AndOversizedCloses1009) {
  auto options = with_websocket();
  options.max_body_size = 64 * 1024;
  run_http_test(options, [](test_server& server) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    raw_peer peer(ex);
    const auto upgraded = co_await peer.open(server.port());
    EXPECT_EQ(upgraded, 101u) << peer.head();
    CO_ASSERT_TRUE(upgraded == 101u);
    EXPECT_NE(peer.head().find("Sec-WebSocket-Protocol: mcp"), std::string::npos) << peer.head();
    co_await peer.send(2, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    const auto frames = co_await peer.drain(true);
    CO_ASSERT_TRUE(!frames.empty());
    EXPECT_EQ(frames.back().opcode, 8);
    EXPECT_EQ(frames.back().close_code(), 1003);

    peer.close();

    // A message over max_body_size: closed with 1009, the rest of it read
    // and dropped, so that the peer sees the code (no reset).
    raw_peer big(ex);
    const auto upgraded_big = co_await big.open(server.port());
    EXPECT_EQ(upgraded_big, 101u);
    co_await big.send(1, std::string(100 * 1024, ' '));
    const auto closing = co_await big.drain(true);
    CO_ASSERT_TRUE(!closing.empty());
    EXPECT_EQ(closing.back().opcode, 8);
    EXPECT_EQ(closing.back().close_code(), 1009);
    big.close();

    // Our client transport sending one: told why, as the close code.
    auto t = co_await connect_websocket(ex, ws_url(server.port()));
    std::string huge(100 * 1024, 'x');
    co_await t->write_frame(std::move(huge));
    std::string failure;
    try {
      co_await read_text(*t);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    EXPECT_NE(failure.find("1009"), std::string::npos) << failure;
    co_await t->close();
    const std::function<bool()> ended = [&] { return server.http.session_count() == 0; };
    EXPECT_TRUE(co_await wait_until(ended, 5s));
  });
}

TEST(Websocket, PeerThatStopsAnsweringPingsIsDropped) {
  auto options = with_websocket();
  options.websocket_ping_interval = 200ms;
  run_http_test(options, [](test_server& server) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    raw_peer peer(ex);
    const auto upgraded = co_await peer.open(server.port());
    EXPECT_EQ(upgraded, 101u) << peer.head();
    CO_ASSERT_TRUE(upgraded == 101u);
    EXPECT_EQ(server.http.session_count(), 1u);
    // It reads, but answers no ping: the server pings, then gives up.
    const auto frames = co_await peer.drain(false, 5s);
    bool pinged = false;
    for (const auto& f : frames) pinged = pinged || f.opcode == 9;
    EXPECT_TRUE(pinged);
    const std::function<bool()> ended = [&] { return server.http.session_count() == 0; };
    EXPECT_TRUE(co_await wait_until(ended, 5s));
  });
}

TEST(Websocket, ShutdownLetsCallsFinishThenCloses1001) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    test_server server(ex, with_websocket());
    auto legacy = legacy_only();
    auto c = co_await connect_client(ws_url(server.port()), std::move(legacy));
    raw_peer peer(ex);
    const auto upgraded = co_await peer.open(server.port());
    EXPECT_EQ(upgraded, 101u);

    std::string slow_answer;
    asio::co_spawn(ex,
                   [&]() -> asio::awaitable<void> {
                     json::object args{{"ms", 400}};
                     const auto result = co_await c->call_tool("slow", std::move(args));
                     slow_answer = first_text(result);
                   },
                   asio::detached);
    co_await sleep_for(100ms);
    server.http.stop();
    // The raw peer is told the server goes away, and answers the close.
    const auto frames = co_await peer.drain(true);
    CO_ASSERT_TRUE(!frames.empty());
    EXPECT_EQ(frames.back().opcode, 8);
    EXPECT_EQ(frames.back().close_code(), 1001);
    co_await peer.send(8, frames.back().payload.substr(0, 2));
    peer.close();
    // The call in flight still gets its answer; then the client is let go.
    const std::function<bool()> answered = [&] { return !slow_answer.empty(); };
    EXPECT_TRUE(co_await wait_until(answered, 5s));
    EXPECT_EQ(slow_answer, "slept 400 ms");
    const std::function<bool()> let_go = [&] { return c->state() == connection_state::disconnected; };
    EXPECT_TRUE(co_await wait_until(let_go, 5s));
    co_await server.stop_and_wait();
    co_await c->close();
  });
}

// --- the client's own rules, against a server by hand --------------------------------

/// Answers one WebSocket upgrade on `acceptor` (naming the mcp subprotocol
/// or not), then reads what comes and answers nothing: no pong, no close.
asio::awaitable<void> mute_server(tcp::acceptor& acceptor, bool name_mcp) {
  auto socket = co_await acceptor.async_accept(asio::use_awaitable);
  std::string request;
  co_await asio::async_read_until(socket, asio::dynamic_buffer(request), "\r\n\r\n", asio::use_awaitable);
  std::string key;
  for (std::size_t at = 0; at < request.size();) {
    const auto end = request.find("\r\n", at);
    const auto line = request.substr(at, end - at);
    at = end + 2;
    const auto colon = line.find(':');
    if (colon != std::string::npos && beast::iequals(line.substr(0, colon), "sec-websocket-key"))
      key = line.substr(line.find_first_not_of(' ', colon + 1));
  }
  const std::string salted = key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(salted.data()), salted.size(), digest);
  const auto accept = base64_encode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
  const std::string answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             "Sec-WebSocket-Accept: " + accept + "\r\n" +
                             (name_mcp ? "Sec-WebSocket-Protocol: mcp\r\n" : "") + "\r\n";
  co_await asio::async_write(socket, asio::buffer(answer), asio::use_awaitable);
  char sink[4096];
  for (;;) {
    auto [ec, n] = co_await socket.async_read_some(asio::buffer(sink), asio::as_tuple(asio::use_awaitable));
    if (ec) break;
  }
}

TEST(WebsocketClient, DropsAServerThatAnswersNoPingAndRefusesOneWithoutTheSubprotocol) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    tcp::acceptor acceptor(ex, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    const auto port = acceptor.local_endpoint().port();

    asio::co_spawn(ex, mute_server(acceptor, true), asio::detached);
    websocket_client_options quick;
    quick.ping_interval = 100ms;
    auto t = co_await connect_websocket(ex, ws_url(port), std::move(quick));
    std::string failure;
    try {
      co_await read_text(*t, 5s);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    EXPECT_NE(failure.find("ping"), std::string::npos) << failure;
    co_await t->close();

    asio::co_spawn(ex, mute_server(acceptor, false), asio::detached);
    std::optional<unsigned> status;
    try {
      co_await connect_websocket(ex, ws_url(port));
    } catch (const websocket_upgrade_error& e) {
      status = e.status();
    }
    EXPECT_EQ(status, 101u) << "a server that does not name the mcp subprotocol is refused";
  });
}

// --- wss --------------------------------------------------------------------------

class WebsocketTls : public tls_test_suite {};

TEST_F(WebsocketTls, CallsOverWss) {
  auto options = tls_options();
  options.websocket = true;
  run_http_test(options, [](test_server& server) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    websocket_client_options trusting;
    trusting.ca_file = certs->cert;
    auto transport = co_await connect_websocket(ex, ws_url(server.port(), "wss", "localhost"), std::move(trusting));
    mcp::client c(ex, legacy_only());
    co_await c.connect(std::move(transport));
    EXPECT_EQ(co_await echo_reply(c, "secure"), "secure");
    co_await c.close();

    // A client that trusts another CA does not connect.
    websocket_client_options other;
    other.ca_file = certs->other_cert;
    bool failed = false;
    try {
      co_await connect_websocket(ex, ws_url(server.port(), "wss", "localhost"), std::move(other));
    } catch (const boost::system::system_error&) {
      failed = true;
    }
    EXPECT_TRUE(failed);
  });
}

}  // namespace
}  // namespace mcp::test
