// The HTTP server's limits under hostile load (docs/limits.md), through real
// sockets against an in-process http_server. Each attack runs while a
// well-behaved client keeps calling in a session of its own, and its calls
// must still succeed; the answer to the attack is checked exactly, and the
// memory of this process (server and clients) must stay bounded.

#include "event_recorder.hpp"
#include "http_test_server.hpp"
#include "hostile_json.hpp"
#include "process_memory.hpp"

#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>

#include <gtest/gtest.h>


namespace mcp::test {
namespace {

using tcp = asio::ip::tcp;
using namespace asio::experimental::awaitable_operators;
constexpr auto as_tuple_awaitable = asio::as_tuple(asio::use_awaitable);

// Short deadlines keep the attacks quick: a connection that brings no whole
// request within 2 s, or takes no bytes for 1 s, is closed. (So is a test's
// own connection left idle for 2 s.)
http_server_options attack_options() {
  http_server_options options;
  options.request_timeout = 2s;
  options.write_timeout = 1s;
  options.shutdown_timeout = 2s;  // (what a test leaves running is cancelled soon after)
  return options;
}

// Calls echo every few milliseconds in a session of its own, on one
// keep-alive connection, from start() until stop(): what every test checks
// is served while the attack runs. Its calls share their state with it, so
// a test that ends early (a failure) leaves them nothing dangling: they end
// with the server.
class well_behaved_client {
 public:
  explicit well_behaved_client(std::uint16_t port) : state_(std::make_shared<state>()), port_(port) {}
  ~well_behaved_client() { state_->stopping = true; }
  well_behaved_client(const well_behaved_client&) = delete;
  well_behaved_client& operator=(const well_behaved_client&) = delete;

  /// Opens the session (one of the server's sessions from then on) and starts calling.
  asio::awaitable<void> start() {
    auto ex = co_await asio::this_coro::executor;
    state_->connection = std::make_unique<http_connection>(ex, port_);
    state_->session = co_await open_session(*state_->connection);
    asio::co_spawn(ex, call_until_stopped(state_), asio::detached);
  }

  /// Waits until `more` calls more were answered.
  asio::awaitable<void> wait_for_answers(int more) {
    const int target = state_->served + more;
    const std::function<bool()> answered = [s = state_, target] { return s->served >= target || s->done; };
    co_await wait_until(answered, 30s);
  }

  /// Stops calling, and checks every call was answered as it should be.
  asio::awaitable<void> stop() {
    state_->stopping = true;
    const std::function<bool()> finished = [s = state_] { return s->done; };
    co_await wait_until(finished, 30s);
    EXPECT_TRUE(state_->done) << "the well-behaved client is stuck in a call";
    EXPECT_EQ(state_->failed, 0) << "the well-behaved client was refused: " << state_->failure;
    EXPECT_GT(state_->served, 0) << "the well-behaved client was never served";
    state_->connection->close();
  }

 private:
  struct state {
    std::unique_ptr<http_connection> connection;
    std::string session;
    int served = 0;
    int failed = 0;
    std::string failure;
    bool stopping = false;
    bool done = false;
  };

  static asio::awaitable<void> call_until_stopped(std::shared_ptr<state> s) {
    try {
      for (int n = 1; !s->stopping; ++n) {
        const auto text = "still served " + std::to_string(n);
        const auto call = session_post(echo_call(n, text), s->session);
        const auto reply = co_await s->connection->send(call, 30s);
        const bool right = reply.status == 200 && first_text(reply.json().at("result").as_object()) == text;
        if (right) {
          ++s->served;
        } else {
          ++s->failed;
          s->failure = "status " + std::to_string(reply.status) + ": " + reply.body.substr(0, 200);
        }
        co_await sleep_for(10ms);
      }
    } catch (const std::exception& e) {
      if (!s->stopping) {
        ++s->failed;
        s->failure = e.what();
      }
    }
    s->done = true;
  }

  std::shared_ptr<state> state_;
  std::uint16_t port_;
};

// An attack test's body, given the server under test and the well-behaved
// client that calls meanwhile.
using attack_body = std::function<asio::awaitable<void>(test_server&, well_behaved_client&)>;

// Runs `attack` against a server with `options` while a well_behaved_client
// calls in a session of its own, from before the attack until after it (the
// attack may wait for more of its answers); then checks that every one of its
// calls was answered as it should be.
void run_attack(http_server_options options, attack_body attack, std::chrono::milliseconds limit = 20s) {
  run_http_test(
      std::move(options),
      [&attack](test_server& s) -> asio::awaitable<void> {
        well_behaved_client good(s.port());
        co_await good.start();
        co_await attack(s, good);
        co_await good.stop();
      },
      limit);
}

asio::awaitable<tcp::socket> connect_raw(std::uint16_t port) {
  tcp::socket socket(co_await asio::this_coro::executor);
  const tcp::endpoint server(asio::ip::make_address("127.0.0.1"), port);
  co_await socket.async_connect(server, asio::use_awaitable);
  co_return socket;
}

std::string local_peer(const tcp::socket& socket) {
  const auto here = socket.local_endpoint();
  return here.address().to_string() + ":" + std::to_string(here.port());
}

// What the server sent on a raw connection until it closed it (or reset it).
struct server_reply {
  std::string text;  // the first bytes it sent
  bool closed = false;
};

// Reads until the server closes the connection or `limit` passes, keeping
// the first 64 KiB of what it sends.
asio::awaitable<server_reply> read_until_closed(tcp::socket& socket, std::chrono::milliseconds limit) {
  server_reply reply;
  reply.closed = co_await read_until_closed_by_server(socket, limit, &reply.text, 64 * 1024);
  co_return reply;
}

// The same, then the socket is closed: a write still under way on it ends.
asio::awaitable<server_reply> read_until_closed_then_drop(tcp::socket& socket, std::chrono::milliseconds limit) {
  auto reply = co_await read_until_closed(socket, limit);
  boost::system::error_code ignored;
  socket.close(ignored);
  co_return reply;
}

// Sends `request` (head and body) on a connection of its own while reading
// the answer: for requests the server refuses before it has read them whole.
asio::awaitable<server_reply> send_raw(std::uint16_t port, std::string request) {
  auto socket = co_await connect_raw(port);
  auto write = [&]() -> asio::awaitable<void> {
    co_await asio::async_write(socket, asio::buffer(request), as_tuple_awaitable);
  };
  auto read = [&]() -> asio::awaitable<server_reply> { co_return co_await read_until_closed_then_drop(socket, 20s); };
  co_return co_await (write() && read());
}

// Writes `head`, then `body_bytes` bytes of body in pieces (framed as chunks
// when `chunked`), generated as they go so the client never holds the body,
// until done or the server stops taking them. Returns the body bytes written.
asio::awaitable<std::size_t> stream_body(tcp::socket& socket, std::string head, std::size_t body_bytes, bool chunked) {
  auto [head_ec, head_n] = co_await asio::async_write(socket, asio::buffer(head), as_tuple_awaitable);
  if (head_ec) co_return 0;
  const std::string piece(64 * 1024, ' ');  // whitespace: valid JSON padding, were it ever parsed
  std::string framed = chunked ? "10000\r\n" + piece + "\r\n" : piece;
  std::size_t sent = 0;
  while (sent < body_bytes) {
    auto [ec, n] = co_await asio::async_write(socket, asio::buffer(framed), as_tuple_awaitable);
    if (ec) break;
    sent += piece.size();
  }
  if (sent >= body_bytes && chunked) {
    const std::string last = "0\r\n\r\n";
    co_await asio::async_write(socket, asio::buffer(last), as_tuple_awaitable);
  }
  co_return sent;
}

std::string post_head(std::uint16_t port, std::string_view session, std::string_view framing) {
  std::string head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                     "\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n";
  if (!session.empty()) head += "Mcp-Session-Id: " + std::string(session) + "\r\nMCP-Protocol-Version: 2025-11-25\r\n";
  head += framing;
  head += "\r\n";
  return head;
}

unsigned status_of(std::string_view response) {
  if (!response.starts_with("HTTP/1.1 ") || response.size() < 12) return 0;
  return static_cast<unsigned>(std::stoul(std::string(response.substr(9, 3))));
}

// After the server gave up on a reader that never read (`sent`: when its
// request went): not before write_timeout (1 s in attack_options), memory
// bounded meanwhile, what reached it before still there to read (a 200 event
// stream) and then the connection's end, and the well-behaved client served.
asio::awaitable<void> expect_reader_was_cut_off(tcp::socket& sleeper, clock_type::time_point sent,
                                                const memory_watch& memory, well_behaved_client& good,
                                                const std::string& what) {
  const double after = std::chrono::duration<double>(clock_type::now() - sent).count();
  report_measured(what + ": cut off after", after, "s");
  EXPECT_GE(after, 1.0);
  expect_peak_growth_under(memory, 64, what);
  const auto rest = co_await read_until_closed(sleeper, 10s);
  EXPECT_TRUE(rest.closed);
  EXPECT_EQ(status_of(rest.text), 200u);
  co_await good.wait_for_answers(3);
}

bool says_connection_close(std::string_view response) {
  const auto head = response.substr(0, response.find("\r\n\r\n"));
  return head.find("\r\nConnection: close") != std::string_view::npos;
}

// Runs `attack` with `copies` coroutines at once and waits for all of them.
asio::awaitable<void> all_at_once(int copies, std::function<asio::awaitable<void>(int)> attack,
                                  std::chrono::milliseconds limit) {
  auto ex = co_await asio::this_coro::executor;
  int running = copies;
  for (int i = 0; i < copies; ++i)
    asio::co_spawn(ex, attack(i), [&running](std::exception_ptr failure) {
      --running;
      if (!failure) return;
      try {
        std::rethrow_exception(failure);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "an attacker failed: " << e.what();
      }
    });
  const std::function<bool()> finished = [&] { return running == 0; };
  const bool in_time = co_await wait_until(finished, limit);
  EXPECT_TRUE(in_time) << running << " attackers still running";
  if (!in_time) co_await wait_until(finished, 60s);  // (they use this frame)
}

// --- 1. sessions --------------------------------------------------------------

TEST(LimitsHttp, SessionsUpToMaxSessionsThenInitializeGets503) {
  http_server_options options;
  // 10,000 by default; sanitizer builds (several times slower) open fewer.
  const std::size_t sessions = sanitized_build ? 1000 : options.max_sessions;
  options.max_sessions = sessions;
  run_attack(
      options,
      [&](test_server& s, well_behaved_client& good) -> asio::awaitable<void> {
        // (The well-behaved client's is the first session.)
        const memory_watch memory;
        // Eight keep-alive connections open the others (well under max_connections).
        std::size_t asked = 1, opened = 1;
        const auto started = clock_type::now();
        auto open_many = [&](int) -> asio::awaitable<void> {
          http_connection c(co_await asio::this_coro::executor, s.port());
          const auto init = mcp_post(rpc_request(0, "initialize", initialize_params()));
          while (asked < sessions) {
            ++asked;
            const auto reply = co_await c.send(init, 30s);
            if (reply.status == 200 && !reply.header("Mcp-Session-Id").empty()) ++opened;
            else ADD_FAILURE() << "initialize answered " << reply.status << " after " << opened << " sessions";
          }
          c.close();
        };
        co_await all_at_once(8, open_many, 120s);
        const double seconds = std::chrono::duration<double>(clock_type::now() - started).count();
        EXPECT_EQ(opened, sessions);
        EXPECT_EQ(s.http.session_count(), sessions);
        const auto after = resident_bytes();
        const auto before = memory.start_bytes();
        report_measured("sessions opened", double(opened), "sessions");
        report_measured("time to open them", seconds, "s");
        report_measured("peak RSS growth while opening them", memory.peak_growth_mib(), "MiB");
        const double per_session = double(after > before ? after - before : 0) / double(sessions - 1);
        report_measured("RSS per session", per_session, "bytes");
        if (!sanitized_build) {
          EXPECT_LT(per_session, 40.0 * 1024) << "over 40 KiB per session";
        }

        // One more: 503, a JSON-RPC error, and the connection goes on.
        http_connection late(co_await asio::this_coro::executor, s.port());
        const auto init = mcp_post(rpc_request(0, "initialize", initialize_params()));
        const auto refused = co_await late.send(init);
        EXPECT_EQ(refused.status, 503u);
        EXPECT_EQ(refused.content_type(), "application/json");
        EXPECT_EQ(error_code(refused.json()), errc::internal_error);
        EXPECT_FALSE(refused.has("Mcp-Session-Id"));
        const auto ping_without_session = mcp_post(rpc_request(1, "ping"));
        const auto still_open = co_await late.send(ping_without_session);
        EXPECT_EQ(still_open.status, 400u);  // (no session header: the connection still serves)
        late.close();
        EXPECT_EQ(s.http.session_count(), sessions);

        // The sessions already open are served all along.
        co_await good.wait_for_answers(3);
      },
      180s);
}

// --- 2. slow clients ------------------------------------------------------------

TEST(LimitsHttp, SlowlorisHeadersGet408AfterRequestTimeout) {
  run_attack(attack_options(), [&](test_server& s, well_behaved_client& good) -> asio::awaitable<void> {
    const memory_watch memory;
    // Sixteen clients trickle their headers a byte every 200 ms: each read
    // brings something, but no whole request comes within request_timeout.
    std::vector<server_reply> replies(16);
    std::vector<double> lasted(16);
    auto trickle = [&](int i) -> asio::awaitable<void> {
      auto socket = co_await connect_raw(s.port());
      const auto opened = clock_type::now();
      const std::string head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
      std::size_t next = 0;
      for (int byte = 0; byte < 100; ++byte) {  // 20 s at most
        const char one = next < head.size() ? head[next++] : 'z';
        auto [ec, n] = co_await asio::async_write(socket, asio::buffer(&one, 1), as_tuple_awaitable);
        if (ec) break;
        auto seen = co_await read_until_closed(socket, 200ms);
        replies[i].text += seen.text;
        if (seen.closed) {
          replies[i].closed = true;
          break;
        }
      }
      lasted[i] = std::chrono::duration<double>(clock_type::now() - opened).count();
    };
    co_await all_at_once(16, trickle, 30s);
    for (int i = 0; i < 16; ++i) {
      EXPECT_TRUE(replies[i].closed) << "a slowloris connection was never closed";
      EXPECT_EQ(status_of(replies[i].text), 408u) << replies[i].text;
      EXPECT_TRUE(says_connection_close(replies[i].text)) << replies[i].text;
      EXPECT_GE(lasted[i], 1.9);   // not before request_timeout...
      EXPECT_LT(lasted[i], 10.0);  // ...and soon after it (a generous bound)
    }
    report_measured("slowloris connection lasted", lasted[0], "s");
    expect_peak_growth_under(memory, 16, "slowloris");
    co_await good.wait_for_answers(3);
  });
}

TEST(LimitsHttp, IdleConnectionIsClosedQuietlyAfterRequestTimeout) {
  const auto options = attack_options();
  run_http_test(options, [&](test_server& s) -> asio::awaitable<void> {
    // A connection that never sends a byte gets no 408: it is only closed.
    auto socket = co_await connect_raw(s.port());
    const auto reply = co_await read_until_closed(socket, 10s);
    EXPECT_TRUE(reply.closed);
    EXPECT_EQ(reply.text, "");
  });
}

// A client that asks for a stream of many events and never reads: once
// the socket's buffers are full, write_timeout closes its connection; the
// events it missed stay in the event store (bounded) for a resumption.
TEST(LimitsHttp, SseReaderThatNeverReadsIsCutOffByWriteTimeout) {
  auto options = attack_options();
  options.session.max_queued_bytes = 256 * 1024;  // the backlog's bound in bytes, met before 10,000 events
  event_recorder closings({telemetry::event::connection_closed});
  run_attack(options, [&](test_server& s, well_behaved_client& good) -> asio::awaitable<void> {
    http_connection opener(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(opener);
    const memory_watch memory;
    auto sleeper = co_await connect_raw(s.port());
    const auto peer = local_peer(sleeper);
    // A call that reports progress as fast as it can, for far longer than the test.
    const auto flood = json::serialize(rpc_request(
        1, "tools/call", tool_call("count", json::object{{"steps", 100'000'000}, {"step_ms", 0}}, "p")));
    const auto text = post_head(s.port(), session, "Content-Length: " + std::to_string(flood.size()) + "\r\n") + flood;
    co_await asio::async_write(sleeper, asio::buffer(text), asio::use_awaitable);
    const auto sent = clock_type::now();
    // Never read: the server must give up on the connection by itself.
    const std::function<bool()> gave_up = [&] {
      return closings.find(telemetry::event::connection_closed, "peer", peer).has_value();
    };
    const bool closed = co_await wait_until(gave_up, 30s);
    EXPECT_TRUE(closed) << "the server still writes to a client that never reads";
    co_await expect_reader_was_cut_off(sleeper, sent, memory, good, "SSE reader that never reads");
    // The flood's handler ends with its session. (The opener's connection
    // has been idle past request_timeout: a new one.)
    opener.close();
    const auto end = mcp_delete(session);
    const auto deleted = co_await http_call(s.port(), end);
    EXPECT_EQ(deleted.status, 200u);
  });
}

// A 2026-07-28 listen stream whose client never reads, while changes come
// as fast as the server takes them: once the socket's buffers are full, its
// backlog stays within max_queued_bytes, write_timeout closes its
// connection, and its subscription ends with it.
TEST(LimitsHttp, ListenReaderThatNeverReadsIsCutOff) {
  auto options = attack_options();
  options.session.max_queued_bytes = 256 * 1024;
  event_recorder closings({telemetry::event::connection_closed});
  run_attack(options, [&](test_server& s, well_behaved_client& good) -> asio::awaitable<void> {
    const memory_watch memory;
    auto sleeper = co_await connect_raw(s.port());
    const auto peer = local_peer(sleeper);
    const json::object meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                            {"io.modelcontextprotocol/clientInfo", {{"name", "sleeper"}, {"version", "1.0"}}},
                            {"io.modelcontextprotocol/clientCapabilities", json::object{}}};
    const json::object params{{"notifications", {{"toolsListChanged", true}}}, {"_meta", meta}};
    const auto listen = json::serialize(rpc_request(1, "subscriptions/listen", params));
    const auto text = post_head(s.port(), {},
                                "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\n"
                                "Content-Length: " + std::to_string(listen.size()) + "\r\n") + listen;
    co_await asio::async_write(sleeper, asio::buffer(text), asio::use_awaitable);
    const auto sent = clock_type::now();
    // Never read: the server must give up on the connection by itself.
    const std::function<bool()> gave_up = [&] {
      return closings.find(telemetry::event::connection_closed, "peer", peer).has_value();
    };
    while (!gave_up() && clock_type::now() - sent < 30s) {
      for (int change = 0; change < 50; ++change) s.tools->notify_tools_changed();
      co_await sleep_for(1ms);
    }
    EXPECT_TRUE(gave_up()) << "the server still writes to a listener that never reads";
    co_await expect_reader_was_cut_off(sleeper, sent, memory, good, "listener that never reads");
  });
}

// --- 3. header floods -----------------------------------------------------------

TEST(LimitsHttp, HeaderFloodsGet431AndTheConnectionCloses) {
  run_attack(attack_options(), [&](test_server& s, well_behaved_client& good) -> asio::awaitable<void> {
    const memory_watch memory;
    std::string many = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (int i = 0; i < 10'000; ++i) many += "X-Flood-" + std::to_string(i) + ": flood\r\n";  // ~220 KB
    many += "Content-Length: 0\r\n\r\n";
    std::string huge = "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Huge: " + std::string(1024 * 1024, 'h') + "\r\n\r\n";
    std::string long_target = "GET /mcp?" + std::string(256 * 1024, 'q') + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    const std::vector<std::string> floods{many, huge, long_target};
    std::vector<server_reply> replies(floods.size() * 4);
    auto flood = [&](int i) -> asio::awaitable<void> {
      auto socket = co_await connect_raw(s.port());
      const auto& text = floods[static_cast<std::size_t>(i) % floods.size()];
      // Written while reading: the server answers before it has all of it.
      auto write = [&]() -> asio::awaitable<void> {
        co_await asio::async_write(socket, asio::buffer(text), as_tuple_awaitable);
      };
      auto read = [&]() -> asio::awaitable<server_reply> { co_return co_await read_until_closed_then_drop(socket, 10s); };
      auto reply = co_await (write() && read());
      replies[i] = std::move(reply);
    };
    co_await all_at_once(static_cast<int>(replies.size()), flood, 30s);
    for (const auto& reply : replies) {
      EXPECT_EQ(status_of(reply.text), 431u) << reply.text.substr(0, 200);
      EXPECT_TRUE(says_connection_close(reply.text)) << reply.text.substr(0, 200);
      EXPECT_TRUE(reply.closed);
    }
    expect_peak_growth_under(memory, 16, "header floods");
    co_await good.wait_for_answers(3);
  });
}

// --- 4. huge bodies -------------------------------------------------------------

TEST(LimitsHttp, SixtyFourMegabyteBodiesGet413WithoutBeingBuffered) {
  auto options = attack_options();
  // Four bodies of 4 MiB at once must arrive within it, under TSan too: not
  // the slowloris test's 2 s.
  options.request_timeout = 30s;
  run_attack(options, [&](test_server& s, well_behaved_client& good) -> asio::awaitable<void> {
    http_connection opener(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(opener);
    constexpr std::size_t body_size = 64 * mebibyte;
    const memory_watch memory;
    // Declared up front (refused on its head), and chunked with no length
    // (refused once max_body_size has arrived); two of each at once.
    std::vector<server_reply> replies(4);
    std::vector<std::size_t> taken(4);
    auto send_body = [&](int i) -> asio::awaitable<void> {
      const bool chunked = i % 2 == 1;
      auto socket = co_await connect_raw(s.port());
      const auto head = post_head(s.port(), session,
                                  chunked ? "Transfer-Encoding: chunked\r\n"
                                          : "Content-Length: " + std::to_string(body_size) + "\r\n");
      auto write = [&]() -> asio::awaitable<std::size_t> {
        co_return co_await stream_body(socket, head, body_size, chunked);
      };
      auto read = [&]() -> asio::awaitable<server_reply> { co_return co_await read_until_closed_then_drop(socket, 20s); };
      auto [sent, reply] = co_await (write() && read());
      taken[i] = sent;
      replies[i] = std::move(reply);
    };
    co_await all_at_once(4, send_body, 40s);
    for (int i = 0; i < 4; ++i) {
      const auto& reply = replies[i];
      EXPECT_EQ(status_of(reply.text), 413u) << (i % 2 ? "chunked: " : "declared: ") << reply.text.substr(0, 300);
      EXPECT_TRUE(says_connection_close(reply.text)) << reply.text.substr(0, 300);
      EXPECT_NE(reply.text.find("\"code\":-32600"), std::string::npos) << reply.text.substr(0, 300);
      EXPECT_TRUE(reply.closed);
      report_measured(std::string(i % 2 ? "chunked" : "declared") + " 64 MiB body: bytes written before the close",
             double(taken[i]), "bytes");
    }
    expect_peak_growth_under(memory, 48, "four 64 MiB bodies");
    co_await good.wait_for_answers(3);
    opener.close();
  });
}

// --- 5-7. hostile JSON --------------------------------------------------------------

// A POST of `body` as it is, in `session`.
http_request raw_post(std::string body, const std::string& session) {
  auto req = session_post(json::object{}, session);
  req.body = std::move(body);
  return req;
}


TEST(LimitsHttp, JsonNestedAHundredThousandDeepIsAParseError) {
  run_attack(attack_options(), [&](test_server& s, well_behaved_client&) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const memory_watch memory;
    const std::vector<std::string> bodies{
        nested("[", "", "]", 100'000),
        nested(R"({"a":)", "1", "}", 100'000),
        R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":)" +
            nested("[", "", "]", 100'000) + "}}}",
    };
    for (const auto& body : bodies) {
      const auto req = raw_post(body, session);
      const auto reply = co_await c.send(req, 20s);
      EXPECT_EQ(reply.status, 400u);
      EXPECT_EQ(error_code(reply.json()), errc::parse_error) << reply.body;
      EXPECT_TRUE(reply.json().at("id").is_null());
    }
    // The connection and the session go on.
    const auto ping = session_post(rpc_request(8, "ping"), session);
    const auto pong = co_await c.send(ping);
    EXPECT_EQ(pong.status, 200u);
    expect_peak_growth_under(memory, 16, "JSON nested 100,000 deep");
    c.close();
  });
}

TEST(LimitsHttp, HugeIdsAndStringsAreEchoedOrRefused) {
  run_attack(attack_options(), [&](test_server& s, well_behaved_client&) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const memory_watch memory;

    // A 1 MiB string id is an id like any other: echoed.
    const std::string long_id(mebibyte, 'i');
    const auto with_long_id = session_post(echo_call(json::value(long_id), "long id"), session);
    const auto echoed = co_await c.send(with_long_id, 20s);
    EXPECT_EQ(echoed.status, 200u);
    EXPECT_EQ(echoed.json().at("id"), json::value(long_id));
    EXPECT_EQ(first_text(echoed.json().at("result").as_object()), "long id");

    // A number beyond what JSON numbers are read into: a parse error.
    const auto overflow = raw_post(R"({"jsonrpc":"2.0","id":1e400,"method":"ping"})", session);
    const auto unreadable = co_await c.send(overflow);
    EXPECT_EQ(unreadable.status, 400u);
    EXPECT_EQ(error_code(unreadable.json()), errc::parse_error) << unreadable.body;
    EXPECT_TRUE(unreadable.json().at("id").is_null());
    // Numbers JSON-RPC ids cannot be (beyond 2^63 - 1, fractions): an
    // invalid request, with a null id.
    for (const std::string number : {"18446744073709551616", "9223372036854775808", "1.5"}) {
      const auto req = raw_post(R"({"jsonrpc":"2.0","id":)" + number + R"(,"method":"ping"})", session);
      const auto reply = co_await c.send(req);
      EXPECT_EQ(reply.status, 400u) << number << ": " << reply.body;
      if (reply.content_type() != "application/json") continue;
      EXPECT_EQ(error_code(reply.json()), errc::invalid_request) << number << ": " << reply.body;
      EXPECT_TRUE(reply.json().at("id").is_null()) << number;
    }

    // A 3 MiB string argument (under max_body_size) is served, and echoed whole.
    const std::string big(3 * mebibyte, 's');
    const auto big_call = session_post(echo_call(9, big), session);
    const auto big_echo = co_await c.send(big_call, 20s);
    EXPECT_EQ(big_echo.status, 200u);
    EXPECT_EQ(first_text(big_echo.json().at("result").as_object()), big);
    expect_peak_growth_under(memory, 64, "huge ids and strings");
    c.close();
  });
}

TEST(LimitsHttp, AMillionElementArrayIsServedWithinTheBodyLimit) {
  // What is tested is the body limit, not the clock: under TSan on a loaded
  // machine, reading and serving a 2 MB body took longer than the other
  // tests' 2 s request_timeout (which then closed the connection).
  auto options = attack_options();
  options.request_timeout = 30s;
  run_attack(options, [&](test_server& s, well_behaved_client&) -> asio::awaitable<void> {
    // The arrays are made before the connection opens, and every body before
    // the memory is watched: it is the server's that counts.
    auto zeros = array_of(1'000'000, "0");  // 2 MB: under max_body_size
    auto wide = R"({"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":)" + array_of(1'000'000, "12345678") + "}}";
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    // An argument the tool does not read: answered.
    const auto served = raw_post(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a million","pad":)" +
            zeros + "}}}",
        session);
    // The same array where a string belongs: refused, as invalid arguments.
    const auto mistyped = raw_post(
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":)" + zeros + "}}}",
        session);
    // A million numbers of eight digits: beyond max_body_size, 413.
    const auto length = "Content-Length: " + std::to_string(wide.size()) + "\r\n";
    auto too_big = post_head(s.port(), session, length) + wide;
    wide = std::string();
    zeros = std::string();
    const memory_watch memory;

    const auto answer = co_await c.send(served, 20s);
    EXPECT_EQ(answer.status, 200u);
    EXPECT_EQ(first_text(answer.json().at("result").as_object()), "a million");
    const auto refusal = co_await c.send(mistyped, 20s);
    EXPECT_EQ(refusal.status, 200u);
    const auto refusal_json = refusal.json();  // (json() parses the body anew: a value, not a reference)
    const auto& result = refusal_json.as_object();
    const bool refused = error_code(refusal_json) == errc::invalid_params ||
                         (result.contains("result") && result.at("result").as_object().contains("isError"));
    EXPECT_TRUE(refused) << refusal.body.substr(0, 300);
    const auto refused_whole = co_await send_raw(s.port(), std::move(too_big));
    EXPECT_EQ(status_of(refused_whole.text), 413u);
    EXPECT_TRUE(says_connection_close(refused_whole.text));
    expect_peak_growth_under(memory, 128, "a million-element array");
    c.close();
  }, 60s);
}

// --- 9. streams a client opens and never reads ------------------------------------

TEST(LimitsHttp, StreamsBeyondMaxStreamsPerSessionGet429) {
  const auto options = attack_options();
  run_attack(options, [&](test_server& s, well_behaved_client& good) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection opener(ex, s.port());
    const auto session = co_await open_session(opener);
    const memory_watch memory;
    // The GET stream and 63 POST streams of calls that last, none ever read.
    const auto limit = options.max_streams_per_session;
    std::vector<std::unique_ptr<http_connection>> streams;
    auto get = std::make_unique<http_connection>(ex, s.port());
    const auto get_request = mcp_get(session);
    co_await get->write(get_request);
    const auto get_head = co_await get->read_head();
    EXPECT_EQ(get_head.status, 200u);
    streams.push_back(std::move(get));
    for (std::size_t i = 1; i < limit; ++i) {
      auto c = std::make_unique<http_connection>(ex, s.port());
      auto call = session_post(rpc_request(int(i), "tools/call", tool_call("slow", json::object{{"ms", 60'000}})), session);
      call.set("Accept", "text/event-stream, application/json");
      co_await c->write(call);
      const auto head = co_await c->read_head();
      EXPECT_EQ(head.status, 200u);
      EXPECT_EQ(head.content_type(), "text/event-stream");
      streams.push_back(std::move(c));
    }
    // One more stream: 429, for a POST of requests and for a second GET.
    auto one_more = session_post(rpc_request(1000, "tools/call", tool_call("slow", json::object{{"ms", 10}})), session);
    const auto refused = co_await opener.send(one_more);
    EXPECT_EQ(refused.status, 429u);
    EXPECT_EQ(error_code(refused.json()), errc::invalid_request);
    const auto another_get = co_await opener.send(get_request);
    EXPECT_EQ(another_get.status, 429u);
    // Notifications open no stream: still accepted.
    const auto note = session_post(rpc_notification("notifications/roots/list_changed"), session);
    const auto accepted = co_await opener.send(note);
    EXPECT_EQ(accepted.status, 202u);
    expect_peak_growth_under(memory, 16, "64 streams never read");
    co_await good.wait_for_answers(3);
    // Streams that go free make room again.
    for (auto& c : streams) c->close();
    streams.clear();
    bool served_again = false;
    for (int attempt = 0; attempt < 100 && !served_again; ++attempt) {
      const auto again = co_await opener.send(one_more);
      served_again = again.status == 200;
      if (!served_again) co_await sleep_for(20ms);
    }
    EXPECT_TRUE(served_again) << "the session's streams were not freed";
    const auto end = mcp_delete(session);
    co_await opener.send(end);
    opener.close();
  });
}

}  // namespace
}  // namespace mcp::test
