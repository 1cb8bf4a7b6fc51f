#include "soak_actions.hpp"

#include "http_reply_check.hpp"
#include "http_mode.hpp"
#include "load_run.hpp"
#include "raw_exchange.hpp"
#include "reply_check.hpp"
#include "session_opener.hpp"
#include "sse_events.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <set>
#include <stdexcept>

namespace loadgen {

namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

constexpr std::string_view json_first = "application/json, text/event-stream";
constexpr std::string_view sse_first = "text/event-stream, application/json";
constexpr auto exchange_deadline = 10s;  // any exchange of the soak takes far less
constexpr std::size_t oversized_body = 5 * 1024 * 1024;  // everything-server takes 4 MiB at most

// A failure of one action: its kind (what the tally counts) and the detail.
struct action_failure : std::runtime_error {
  action_failure(std::string kind, const std::string& detail) : std::runtime_error(detail), kind(std::move(kind)) {}
  std::string kind;
};

void expect(bool ok, const char* kind, const std::string& detail) {
  if (!ok) throw action_failure(kind, detail);
}

asio::awaitable<void> pause(std::chrono::steady_clock::duration d) {
  asio::steady_timer timer(co_await asio::this_coro::executor, d);
  co_await timer.async_wait(asio::use_awaitable);
}

std::vector<std::string> session_headers(const std::string& session, std::string_view accept) {
  return {"Content-Type: application/json", "Accept: " + std::string(accept), "Mcp-Session-Id: " + session,
          "MCP-Protocol-Version: " + std::string(protocol_version)};
}

// A new session (initialize + initialized on a connection of its own, then closed).
asio::awaitable<std::string> new_session(soak_context& ctx) {
  http_connection connection(ctx.ex, ctx.target);
  co_await connection.connect();
  const http_mode mode = parse_http_mode("stateful-json");
  const auto id = ctx.ids.next();
  ctx.tally.requests += 2;
  const opened_session session = co_await open_session(connection, mode, id);
  connection.close();
  expect(!session.id.empty(), "session: initialize failed", session.problem);
  co_return session.id;
}

// What a stream of a long_task call carried: the progress values and whether its answer came.
struct stream_content {
  std::vector<int> progress;
  bool answered = false;
  std::string last_id;  // the id of the last event
};

stream_content read_stream(std::string_view body, std::int64_t request) {
  stream_content content;
  for (const auto& event : complete_events(body)) {
    if (!event.id.empty()) content.last_id = event.id;
    if (event.data.empty()) continue;  // the priming event
    const auto message = json::parse(event.data).as_object();
    if (const auto* method = message.if_contains("method"); method && *method == "notifications/progress")
      content.progress.push_back(message.at("params").at("progress").to_number<int>());
    else if (const auto* id = message.if_contains("id"); id && id->is_int64() && id->as_int64() == request)
      content.answered = message.contains("result");
  }
  return content;
}

// An exchange on a connection of its own: the request written, its head read.
asio::awaitable<void> start_exchange(soak_context& ctx, raw_exchange& exchange, const std::string& text, int pieces = 1,
                                     std::chrono::milliseconds gap = 0ms) {
  co_await exchange.connect();
  ++ctx.tally.requests;
  co_await exchange.write(text, pieces, gap);
  co_await exchange.read_head();
}

// Reads until the stream has its first progress event (or ends).
asio::awaitable<stream_content> read_until_progress(raw_exchange& exchange, std::int64_t request) {
  for (;;) {
    auto content = read_stream(exchange.body(), request);
    if (!content.progress.empty()) co_return content;
    const bool more = co_await exchange.read_some();
    if (!more) co_return read_stream(exchange.body(), request);
  }
}

bool counts_up_to(const std::vector<int>& progress, int steps) {
  std::set<int> seen(progress.begin(), progress.end());
  return static_cast<int>(seen.size()) == steps && *seen.begin() == 1 && *seen.rbegin() == steps;
}

asio::awaitable<void> churn(soak_context& ctx) {
  const auto session = co_await new_session(ctx);
  const auto id = ctx.ids.next();
  const auto call = echo_call(id);
  const auto headers = session_headers(session, json_first);
  raw_exchange exchange(ctx.ex, ctx.target, exchange_deadline);
  co_await start_exchange(ctx, exchange, exchange.request_text("POST", headers, call));
  co_await exchange.read_to_end();
  const auto problem = check_echo_reply(exchange.body(), id, peer_kind::mcp);
  expect(!problem, "churn: wrong echo reply", problem.value_or(""));

  raw_exchange deletion(ctx.ex, ctx.target, exchange_deadline);
  co_await start_exchange(ctx, deletion, deletion.request_text("DELETE", headers, {}));
  co_await deletion.read_to_end();
  expect(deletion.status() == 200, "churn: DELETE not 200", std::to_string(deletion.status()));

  raw_exchange after(ctx.ex, ctx.target, exchange_deadline);
  const auto again = echo_call(ctx.ids.next());
  co_await start_exchange(ctx, after, after.request_text("POST", headers, again));
  co_await after.read_to_end();
  expect(after.status() == 404, "churn: a deleted session answered", std::to_string(after.status()));
  ctx.tally.refused_as_expected("deleted session: 404");
}

asio::awaitable<void> cancel(soak_context& ctx, const std::string& session) {
  const auto id = ctx.ids.next();
  const auto headers = session_headers(session, sse_first);
  raw_exchange call(ctx.ex, ctx.target, exchange_deadline);
  co_await start_exchange(ctx, call, call.request_text("POST", headers, long_task_call(id, 40, 50)));
  expect(call.status() == 200, "cancel: call not 200", std::to_string(call.status()));
  const auto first = co_await read_until_progress(call, id);
  expect(!first.progress.empty(), "cancel: stream ended before its first progress", call.body());

  raw_exchange note(ctx.ex, ctx.target, exchange_deadline);
  co_await start_exchange(ctx, note, note.request_text("POST", headers, cancelled_notification(id)));
  co_await note.read_to_end();
  expect(note.status() == 202, "cancel: notifications/cancelled not 202", std::to_string(note.status()));
  co_await call.read_to_end();  // the stream ends, without an answer
  const auto content = read_stream(call.body(), id);
  expect(!content.answered, "cancel: a cancelled call was answered", "request " + std::to_string(id));
}

asio::awaitable<void> resume(soak_context& ctx, const std::string& session) {
  constexpr int steps = 4;
  const auto id = ctx.ids.next();
  const auto headers = session_headers(session, sse_first);
  stream_content before;
  {
    raw_exchange call(ctx.ex, ctx.target, exchange_deadline);
    co_await start_exchange(ctx, call, call.request_text("POST", headers, long_task_call(id, steps, 40)));
    expect(call.status() == 200, "resume: call not 200", std::to_string(call.status()));
    before = co_await read_until_progress(call, id);
    expect(!before.progress.empty() && !before.last_id.empty(), "resume: no first event with an id", call.body());
    call.drop();
  }
  auto get_headers = session_headers(session, "text/event-stream");
  get_headers.push_back("Last-Event-ID: " + before.last_id);
  // The server may not have seen the drop yet: the stream is still being
  // read (409), as a client that reconnects at once can find it. Retried.
  for (int attempt = 0;; ++attempt) {
    raw_exchange get(ctx.ex, ctx.target, exchange_deadline);
    co_await start_exchange(ctx, get, get.request_text("GET", get_headers, {}));
    if (get.status() == 409 && attempt < 20) {
      ctx.tally.refused_as_expected("resume: 409 before the drop was seen (retried)");
      co_await pause(20ms);
      continue;
    }
    expect(get.status() == 200, "resume: GET not 200", std::to_string(get.status()));
    co_await get.read_to_end();
    auto after = read_stream(get.body(), id);
    after.progress.insert(after.progress.end(), before.progress.begin(), before.progress.end());
    expect(after.answered, "resume: no answer after resuming", get.body());
    expect(counts_up_to(after.progress, steps), "resume: progress missing", get.body());
    break;
  }
}

asio::awaitable<void> slow_writer(soak_context& ctx, const std::string& session) {
  const auto id = ctx.ids.next();
  const auto headers = session_headers(session, json_first);
  raw_exchange exchange(ctx.ex, ctx.target, exchange_deadline);
  co_await start_exchange(ctx, exchange, exchange.request_text("POST", headers, echo_call(id)), 4, 100ms);
  co_await exchange.read_to_end();
  const auto problem = check_echo_reply(exchange.body(), id, peer_kind::mcp);
  expect(!problem, "slow writer: wrong echo reply", problem.value_or(""));
}

asio::awaitable<void> slow_reader(soak_context& ctx, const std::string& session) {
  constexpr int steps = 10;
  const auto id = ctx.ids.next();
  const auto headers = session_headers(session, sse_first);
  raw_exchange exchange(ctx.ex, ctx.target, exchange_deadline);
  co_await start_exchange(ctx, exchange, exchange.request_text("POST", headers, long_task_call(id, steps, 10)));
  expect(exchange.status() == 200, "slow reader: not 200", std::to_string(exchange.status()));
  for (;;) {
    co_await pause(50ms);
    const bool more = co_await exchange.read_some();
    if (!more) break;
  }
  const auto content = read_stream(exchange.body(), id);
  expect(content.answered && counts_up_to(content.progress, steps), "slow reader: incomplete stream", exchange.body());
}

// The JSON-RPC error code of a JSON reply body.
std::int64_t error_code_of(const std::string& body) {
  const auto message = json::parse(body).as_object();
  return message.at("error").at("code").as_int64();
}

asio::awaitable<void> bad_input(soak_context& ctx, const std::string& session, std::uint64_t turn) {
  const auto headers = session_headers(session, json_first);
  raw_exchange exchange(ctx.ex, ctx.target, exchange_deadline);
  switch (turn % 4) {
    case 0: {
      co_await start_exchange(ctx, exchange, exchange.request_text("POST", headers, R"({"jsonrpc":"2.0","id":)"));
      co_await exchange.read_to_end();
      expect(exchange.status() == 400 && error_code_of(exchange.body()) == -32700, "bad input: malformed JSON",
             std::to_string(exchange.status()) + " " + exchange.body());
      ctx.tally.refused_as_expected("malformed JSON: 400, -32700");
      break;
    }
    case 1: {
      const auto id = ctx.ids.next();
      const auto body = R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"soak/unknown"})";
      co_await start_exchange(ctx, exchange, exchange.request_text("POST", headers, body));
      co_await exchange.read_to_end();
      expect(exchange.status() == 200 && error_code_of(exchange.body()) == -32601, "bad input: unknown method",
             std::to_string(exchange.status()) + " " + exchange.body());
      ctx.tally.refused_as_expected("unknown method: -32601");
      break;
    }
    case 2: {
      // The head announces the body; a kilobyte of it follows. The server
      // refuses on the head, without reading the rest.
      auto text = exchange.request_text("POST", headers, std::string(1024, 'x'));
      const auto length = text.find("Content-Length: 1024");
      text.replace(length, 20, "Content-Length: " + std::to_string(oversized_body));
      co_await start_exchange(ctx, exchange, text);
      co_await exchange.read_to_end();
      expect(exchange.status() == 413, "bad input: oversized body", std::to_string(exchange.status()));
      ctx.tally.refused_as_expected("oversized body: 413");
      break;
    }
    default: {
      const auto unknown = session_headers("0123456789abcdef0123456789abcdef", json_first);
      co_await start_exchange(ctx, exchange, exchange.request_text("POST", unknown, echo_call(ctx.ids.next())));
      co_await exchange.read_to_end();
      expect(exchange.status() == 404, "bad input: unknown session", std::to_string(exchange.status()));
      ctx.tally.refused_as_expected("unknown session: 404");
      break;
    }
  }
}

asio::awaitable<void> act(soak_context& ctx, chaos_kind kind, std::string& session, std::uint64_t turn) {
  if (kind == chaos_kind::churn) co_return co_await churn(ctx);
  if (session.empty()) session = co_await new_session(ctx);
  switch (kind) {
    case chaos_kind::cancel: co_await cancel(ctx, session); break;
    case chaos_kind::resume: co_await resume(ctx, session); break;
    case chaos_kind::slow_writer: co_await slow_writer(ctx, session); break;
    case chaos_kind::slow_reader: co_await slow_reader(ctx, session); break;
    default: co_await bad_input(ctx, session, turn); break;
  }
}

}  // namespace

const char* name_of(chaos_kind kind) {
  switch (kind) {
    case chaos_kind::churn: return "churn";
    case chaos_kind::cancel: return "cancel";
    case chaos_kind::resume: return "resume";
    case chaos_kind::slow_writer: return "slow_writer";
    case chaos_kind::slow_reader: return "slow_reader";
    default: return "bad_input";
  }
}

// Counts a worker in, and out when it ends however it ends.
struct worker_count {
  explicit worker_count(soak_context& ctx) : ctx(ctx) { ++ctx.workers; }
  ~worker_count() {
    if (--ctx.workers == 0 && ctx.on_idle) ctx.on_idle();
  }
  soak_context& ctx;
};

asio::awaitable<void> echo_worker(soak_context& ctx, std::chrono::microseconds interval) {
  const worker_count counted(ctx);
  const http_mode mode = parse_http_mode("stateful-json");
  while (!ctx.stopping) {
    http_connection connection(ctx.ex, ctx.target);
    ctx.keep_alive.push_back(&connection);
    std::string failure;
    try {
      co_await connection.connect();
      ctx.tally.requests += 2;
      const auto session = co_await open_session(connection, mode, ctx.ids.next());
      if (session.id.empty()) throw action_failure("call: initialize failed", session.problem);
      const post_headers headers{mode.accept, session.id, true};
      auto next = clock::now();
      while (!ctx.stopping) {
        next += interval;
        const auto now = clock::now();
        if (next < now - 1s) next = now;  // fell behind (a pause): no burst to catch up
        if (next > now) co_await pause(next - now);
        const auto id = ctx.ids.next();
        const auto call = echo_call(id);
        ++ctx.tally.requests;
        auto reply = co_await connection.post(call, headers);
        std::string problem;
        const auto message = message_of(reply, mode.style, problem);
        if (message) problem = check_echo_reply(*message, id, peer_kind::mcp).value_or("");
        if (problem.empty()) ctx.tally.ok("call");
        else ctx.tally.error("call: wrong reply", problem);
      }
    } catch (const action_failure& e) {
      failure = e.what();
      ctx.tally.error(e.kind, failure);
    } catch (const std::exception& e) {
      if (!ctx.stopping) ctx.tally.error("call: connection failed", describe(e));
    }
    std::erase(ctx.keep_alive, &connection);
    if (!ctx.stopping) co_await pause(100ms);
  }
}

asio::awaitable<void> chaos_worker(soak_context& ctx, chaos_kind kind, std::chrono::milliseconds every) {
  const worker_count counted(ctx);
  std::string session;  // the worker's own (not for churn, which opens one each time)
  for (std::uint64_t turn = 0; !ctx.stopping; ++turn) {
    const auto started = clock::now();
    try {
      co_await act(ctx, kind, session, turn);
      ctx.tally.ok(name_of(kind));
    } catch (const action_failure& e) {
      ctx.tally.error(e.kind, e.what());
      session.clear();  // a new one next time
    } catch (const std::exception& e) {
      ctx.tally.error(std::string(name_of(kind)) + ": connection failed", describe(e));
      session.clear();
    }
    const auto spent = clock::now() - started;
    if (spent < every) co_await pause(every - spent);
  }
}

}  // namespace loadgen
