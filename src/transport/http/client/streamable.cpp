#include "streamable.hpp"
#include "../../../detail/as_tuple_awaitable.hpp"

#include "exchange.hpp"
#include "sse_parser.hpp"

#include <mcp/error.hpp>
#include <mcp/log.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <iterator>
#include <set>
#include <stdexcept>
#include <utility>

namespace mcp::detail::http_client {

namespace {

// Once a stream delivered every answer it owed, this long for its end.
constexpr std::chrono::milliseconds end_grace{2000};
// What is kept of an error response's body.
constexpr std::size_t max_error_body = 64 * 1024;

// The spec: a session id holds visible ASCII only (0x21 to 0x7E).
bool valid_session_id(std::string_view id) {
  return !id.empty() && id.size() <= 1024 &&
         std::ranges::all_of(id, [](unsigned char c) { return c >= 0x21 && c <= 0x7E; });
}

}  // namespace

// The requests of one POST still waiting for their answers.
struct streamable_engine::pending_answers {
  explicit pending_answers(const outgoing_facts& frame) : ids(frame.requests.begin(), frame.requests.end()) {}
  bool empty() const noexcept { return ids.empty(); }
  void answered(const std::vector<std::string>& requests) {
    for (const auto& request : requests) ids.erase(request);
  }
  std::set<std::string> ids;
  http_exchange* current = nullptr;  // the exchange reading for them now
};

// Makes the requests of a POST known to forget() while their answers are read.
class streamable_engine::awaiting_guard {
 public:
  awaiting_guard(streamable_engine& engine, pending_answers& pending) : engine_(engine), pending_(pending) {
    for (const auto& request : pending.ids) engine.awaiting_[request] = &pending;
  }
  ~awaiting_guard() {
    std::erase_if(engine_.awaiting_, [this](const auto& entry) { return entry.second == &pending_; });
  }
  awaiting_guard(const awaiting_guard&) = delete;
  awaiting_guard& operator=(const awaiting_guard&) = delete;

 private:
  streamable_engine& engine_;
  pending_answers& pending_;
};

namespace {
// Points `pending.current` at an exchange for a scope.
struct reading_with {
  reading_with(http_exchange*& slot, http_exchange& exchange) : slot_(slot), previous_(slot) { slot = &exchange; }
  ~reading_with() { slot_ = previous_; }
  reading_with(const reading_with&) = delete;
  reading_with& operator=(const reading_with&) = delete;
  http_exchange*& slot_;
  http_exchange* previous_;
};
}  // namespace

// Where a stream stands: what a reconnection needs, and how the last
// connection went.
struct streamable_engine::stream_state {
  stream_state() {}
  std::string last_event_id;
  std::optional<std::chrono::milliseconds> retry;
  bool progressed = false;  // a new event (or event id) arrived on this connection
  std::string failure;      // why the connection ended, when it failed
};

// A place among the connections that POSTs of requests may hold.
class streamable_engine::request_slot {
 public:
  explicit request_slot(std::shared_ptr<streamable_engine> engine) : engine_(std::move(engine)) {}
  ~request_slot() {
    ++engine_->free_slots_;
    engine_->slot_freed_.cancel();
  }
  request_slot(const request_slot&) = delete;
  request_slot& operator=(const request_slot&) = delete;

 private:
  std::shared_ptr<streamable_engine> engine_;
};

streamable_engine::streamable_engine(std::shared_ptr<client_core> core, bool may_fall_back)
    : core_(std::move(core)),
      may_fall_back_(may_fall_back),
      free_slots_(std::max<std::size_t>(1, core_->options.max_connections)),
      slot_freed_(core_->executor),
      tasks_done_(core_->executor) {
  slot_freed_.expires_at(asio::steady_timer::time_point::max());
}

streamable_engine::~streamable_engine() = default;

// --- requests ----------------------------------------------------------------

request_spec streamable_engine::post_spec(std::string body, const outgoing_facts& frame) const {
  auto spec = core_->json_post(std::move(body));
  // A frame that routes itself (a 2026-07-28 request) stands alone: its routing headers, no session.
  if (!frame.routing_headers.empty()) {
    spec.headers.insert(spec.headers.end(), frame.routing_headers.begin(), frame.routing_headers.end());
    return spec;
  }
  // A frame that opens a new session carries neither header.
  if (!frame.opens_session && !session_id_.empty()) spec.headers.emplace_back("Mcp-Session-Id", session_id_);
  if (!frame.opens_session && !version_.empty()) spec.headers.emplace_back("MCP-Protocol-Version", version_);
  return spec;
}

request_spec streamable_engine::get_spec(const std::string& last_event_id) const {
  auto spec = core_->base_request(http_method::get);
  spec.headers.emplace_back("Accept", "text/event-stream");
  if (!session_id_.empty()) spec.headers.emplace_back("Mcp-Session-Id", session_id_);
  if (!version_.empty()) spec.headers.emplace_back("MCP-Protocol-Version", version_);
  if (!last_event_id.empty()) spec.headers.emplace_back("Last-Event-ID", last_event_id);
  return spec;
}

void streamable_engine::spawn(asio::awaitable<void> task) {
  ++tasks_;
  asio::co_spawn(core_->executor, std::move(task), [self = shared_from_this()](std::exception_ptr e) {
    if (e) {
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& x) {
        if (!self->closed_)
          sdk_log(log_category::transport, log_level::warn, "HTTP transport: background task failed", {{"error", x.what()}});
      } catch (...) {
      }
    }
    if (--self->tasks_ == 0) self->tasks_done_.cancel();
  });
}

asio::awaitable<bool> streamable_engine::sleep(std::chrono::milliseconds delay) {
  if (closed_) co_return false;
  asio::steady_timer timer(core_->executor);
  timer.expires_after(delay);
  // Known to close() while it waits; forgotten however the wait ends (the
  // frame may be destroyed with its io_context, never resumed).
  class registration {
   public:
    registration(std::set<asio::steady_timer*>& sleepers, asio::steady_timer& timer)
        : sleepers_(sleepers), timer_(&timer) {
      sleepers_.insert(timer_);
    }
    ~registration() { sleepers_.erase(timer_); }
    registration(const registration&) = delete;
    registration& operator=(const registration&) = delete;

   private:
    std::set<asio::steady_timer*>& sleepers_;
    asio::steady_timer* timer_;
  };
  const registration registered(sleepers_, timer);
  co_await timer.async_wait(as_tuple_awaitable);
  co_return !closed_;
}

asio::awaitable<void> streamable_engine::acquire_slot() {
  while (free_slots_ == 0 && !closed_) co_await slot_freed_.async_wait(as_tuple_awaitable);
  if (closed_) throw mcp::error(asio::error::not_connected, "HTTP transport closed");
  --free_slots_;
}

void streamable_engine::forget(const std::string& request) {
  const auto it = awaiting_.find(request);
  if (it == awaiting_.end()) return;
  auto* pending = it->second;
  awaiting_.erase(it);
  pending->ids.erase(request);
  // Nothing left to wait for: end the exchange (a server may hold a resumed
  // stream open, or a JSON answer back, for a request nobody wants).
  if (pending->empty() && pending->current) pending->current->cancel();
}

void streamable_engine::adopt_session(const std::string& header) {
  if (header.empty()) return;  // a server without sessions
  if (!valid_session_id(header)) {
    sdk_log(log_category::transport, log_level::warn, "ignored an Mcp-Session-Id that is not visible ASCII");
    return;
  }
  session_id_ = header;
}

asio::awaitable<streamable_engine::outcome> streamable_engine::write(std::string frame, frame_context context) {
  if (closed_) throw mcp::error(asio::error::not_connected, "HTTP transport closed");
  auto self = shared_from_this();
  auto facts = context.request ? facts_of(std::move(*context.request)) : core_->messages->inspect_outgoing(frame);
  auto& headers = context.headers;
  if (facts.opens_session) {
    // A new session (the first, or after the old one expired).
    session_id_.clear();
    version_.clear();
    ++listen_generation_;
    listening_ = false;
  }
  for (const auto& request : facts.cancelled) forget(request);
  if (facts.requests.empty()) {
    co_await send_notice(std::move(frame), std::move(facts));
    co_return outcome::sent;
  }

  co_await acquire_slot();
  auto slot = std::make_shared<request_slot>(self);
  const bool initialize = facts.opens_session;
  auto spec = post_spec(std::move(frame), facts);
  spec.headers.insert(spec.headers.end(), std::make_move_iterator(headers.begin()),
                      std::make_move_iterator(headers.end()));
  auto exchange = std::make_shared<http_exchange>(core_->pool, core_->endpoint, std::move(spec));
  std::string failure;
  try {
    co_await exchange->send(core_->options.response_timeout);
    // The answer to initialize carries the session id, and decides whether
    // this is a Streamable HTTP server at all: wait for its head here.
    if (initialize) co_await exchange->read_head(core_->options.response_timeout);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!failure.empty()) {
    if (initialize) may_fall_back_ = false;
    pending_answers pending(facts);
    const std::string message = "HTTP request failed: " + failure;
    co_await fail_all(pending, message);
    co_return outcome::sent;
  }
  if (initialize && may_fall_back_) {
    may_fall_back_ = false;
    const auto status = exchange->status();
    if (status == 400 || status == 404 || status == 405) {
      fallback_status_ = status;
      exchange->abort();
      co_return outcome::fall_back;
    }
  }
  spawn(answer(self, std::move(exchange), std::move(facts), std::move(slot), initialize));
  co_return outcome::sent;
}

// Notifications and responses: the server answers 202 at once. Waiting for it
// keeps them in order with what follows (notifications/initialized first).
asio::awaitable<void> streamable_engine::send_notice(std::string frame, outgoing_facts facts) {
  auto spec = post_spec(std::move(frame), facts);
  http_exchange exchange(core_->pool, core_->endpoint, std::move(spec));
  const auto reply = co_await exchange.run_to_end(max_error_body, core_->options.response_timeout);
  if (closed_) co_return;
  if (!reply.failure.empty()) {
    sdk_log(log_category::transport, log_level::warn, "a notification or response was not delivered",
            {{"error", reply.failure}});
    co_return;
  }
  const auto status = reply.status;
  if (!is_success(status)) {
    const auto session = exchange.request_header("Mcp-Session-Id");
    sdk_log(log_category::transport, log_level::warn,
            status == 404 && !session.empty() ? "a notification or response was refused: the session has expired"
                                              : "a notification or response was refused",
            {{"request", exchange.description()}, {"status", status}, {"session_id", session}});
    co_return;
  }
  if (facts.session_ready && core_->options.listen && !listening_) {
    listening_ = true;
    spawn(listen(shared_from_this(), listen_generation_));
  }
}

// --- answers -------------------------------------------------------------------

asio::awaitable<void> streamable_engine::answer(self_ptr self, std::shared_ptr<http_exchange> exchange,
                                                outgoing_facts facts, std::shared_ptr<request_slot> slot,
                                                bool head_read) {
  (void)self;
  (void)slot;  // held until the answers are in: the POST's place among max_connections
  pending_answers pending(facts);
  awaiting_guard registered(*this, pending);
  pending.current = exchange.get();
  std::string failure;
  if (!head_read) {
    try {
      co_await exchange->read_head(core_->options.request_timeout);
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  if (closed_ || pending.empty()) co_return;  // closed, or the client cancelled meanwhile
  if (!failure.empty()) {
    const std::string message = "no answer: " + failure;
    co_await fail_all(pending, message);
    co_return;
  }
  const auto status = exchange->status();
  if (facts.opens_session && is_success(status)) adopt_session(exchange->header("Mcp-Session-Id"));
  if (!is_success(status)) {
    co_await answer_http_error(*exchange, pending);
    co_return;
  }
  const auto type = exchange->media_type();
  std::string unanswered;
  if (type == "text/event-stream") {
    stream_state state;
    co_await read_events(*exchange, &pending, state);
    if (!pending.empty() && !closed_) co_await resume(pending, state);
    unanswered = exchange->description() + ": the event stream ended before the answer";
    if (!state.failure.empty()) unanswered += " (" + state.failure + ")";
  } else if (type == "application/json") {
    co_await read_json(*exchange, pending);
    unanswered = exchange->description() + ": the JSON answer held no response to the request";
  } else {
    std::string ignored;
    bool has_body = false;
    try {
      const bool more = co_await exchange->read_some(ignored, core_->options.response_timeout);
      has_body = more && !ignored.empty();
    } catch (const std::exception&) {
      has_body = true;
    }
    if (has_body || !type.empty()) {
      exchange->abort();
      sdk_log(log_category::transport, log_level::warn, "dropped an answer of an unexpected Content-Type",
              {{"request", exchange->description()}, {"content_type", type}});
      unanswered = exchange->description() + " answered with Content-Type " + type +
                   ", neither application/json nor text/event-stream";
    } else {
      exchange->finish();
      unanswered = exchange->description() + " answered HTTP " + std::to_string(status) + " without a response";
    }
  }
  if (!closed_ && !pending.empty()) co_await fail_all(pending, unanswered);
}

asio::awaitable<void> streamable_engine::read_json(http_exchange& exchange, pending_answers& pending) {
  const auto limit = core_->options.max_message_size;
  std::string body;
  std::string failure;
  try {
    body = co_await exchange.read_body(limit, core_->options.response_timeout);
    exchange.finish();
  } catch (const std::length_error&) {
    failure = "the answer exceeds max_message_size (" + std::to_string(limit) + " bytes)";
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!failure.empty()) {
    exchange.abort();
    if (pending.empty() || closed_) co_return;  // cancelled meanwhile
    sdk_log(log_category::transport, log_level::warn, "dropped an answer",
            {{"request", exchange.description()}, {"error", failure}});
    const std::string message = exchange.description() + ": " + failure;
    co_await fail_all(pending, message);
    co_return;
  }
  if (body.empty()) co_return;
  auto facts = core_->messages->inspect_inbound(body);
  if (!facts.valid) {
    sdk_log(log_category::transport, log_level::warn, "dropped an answer that is not valid JSON",
            {{"request", exchange.description()}});
    const std::string message = exchange.description() + ": the answer is not valid JSON";
    co_await fail_all(pending, message);
    co_return;
  }
  // An error that names no request, in answer to one request: it is its answer.
  if (facts.error_without_id && pending.ids.size() == 1) {
    body = core_->messages->with_id(body, *pending.ids.begin());
    facts.parsed.reset();
    pending.ids.clear();
  }
  pending.answered(facts.answered);
  inbound_frame frame;
  frame.text = std::move(body);
  frame.parsed = std::move(facts.parsed);
  co_await core_->inbound->push(std::move(frame));
}

asio::awaitable<void> streamable_engine::deliver(std::string data, std::string_view type, pending_answers* pending,
                                                 const std::string& where) {
  if (data.empty()) co_return;  // a priming event: an id to resume from, no message
  if (type != "message") {
    sdk_log(log_category::transport, log_level::debug, "ignored an SSE event", {{"type", type}, {"from", where}});
    co_return;
  }
  auto facts = core_->messages->inspect_inbound(data);
  if (!facts.valid) {
    sdk_log(log_category::transport, log_level::warn, "dropped an SSE event that is not valid JSON", {{"from", where}});
    co_return;
  }
  if (pending) pending->answered(facts.answered);
  inbound_frame frame;
  frame.text = std::move(data);
  frame.parsed = std::move(facts.parsed);
  co_await core_->inbound->push(std::move(frame));
}

// Reads an event stream until it ends, fails, stays silent too long, or
// (once `pending` has every answer) shortly after.
asio::awaitable<void> streamable_engine::read_events(http_exchange& exchange, pending_answers* pending,
                                                     stream_state& state) {
  sse_parser parser(core_->options.max_message_size);
  std::size_t dropped = 0;
  bool ended = false;
  std::string bytes;
  const auto& where = exchange.description();
  for (;;) {
    while (!parser.events().empty()) {
      auto event = std::move(parser.events().front());
      parser.events().pop_front();
      state.progressed = true;
      const std::string_view type = event.type;
      co_await deliver(std::move(event.data), type, pending, where);
    }
    if (!parser.last_event_id().empty() && parser.last_event_id() != state.last_event_id) {
      state.last_event_id = parser.last_event_id();
      state.progressed = true;
    }
    if (parser.retry()) state.retry = parser.retry();
    if (parser.dropped() > dropped) {
      dropped = parser.dropped();
      sdk_log(log_category::transport, log_level::warn, "dropped an SSE event over max_message_size", {{"from", where}});
    }
    if (closed_) break;
    const bool answered = pending && pending->empty();
    bytes.clear();
    bool more = false;
    std::chrono::milliseconds wait = core_->options.stream_idle_timeout;
    if (answered) wait = end_grace;
    try {
      more = co_await exchange.read_some(bytes, wait);
    } catch (const std::exception& e) {
      state.failure = e.what();
      break;
    }
    if (!more) {
      ended = true;
      break;
    }
    parser.feed(bytes);
  }
  if (ended) {
    state.failure.clear();
    exchange.finish();
  } else {
    exchange.abort();
  }
}

// A POST's stream ended before its answers: GET it again with Last-Event-ID
// (after the server's retry, or the backoff) until they come or it gives up.
asio::awaitable<void> streamable_engine::resume(pending_answers& pending, stream_state& state) {
  int attempts = 0;
  while (!closed_ && !pending.empty()) {
    if (state.last_event_id.empty()) co_return;  // nothing to resume from
    if (attempts >= core_->options.max_reconnects) {
      state.failure = "gave up resuming after " + std::to_string(attempts) + " attempts" +
                      (state.failure.empty() ? std::string() : ": " + state.failure);
      co_return;
    }
    const auto delay = core_->reconnect_delay(state.retry, attempts);
    ++attempts;
    if (!co_await sleep(delay) || pending.empty()) co_return;
    auto spec = get_spec(state.last_event_id);
    http_exchange exchange(core_->pool, core_->endpoint, std::move(spec));
    reading_with reading(pending.current, exchange);
    std::string failure;
    try {
      co_await exchange.send(core_->options.response_timeout);
      if (!pending.empty()) co_await exchange.read_head(core_->options.response_timeout);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    if (closed_ || pending.empty()) co_return;
    if (!failure.empty()) {
      sdk_log(log_category::transport, log_level::debug, "resuming a stream failed", {{"error", failure}});
      state.failure = failure;
      continue;
    }
    const auto status = exchange.status();
    if (!is_success(status) || exchange.media_type() != "text/event-stream") {
      state.failure = exchange.description() + " with Last-Event-ID answered HTTP " + std::to_string(status);
      const auto session = exchange.request_header("Mcp-Session-Id");
      if (status == 404 && !session.empty())
        state.failure += " (the session " + session + " has expired)";
      else if (status == 405)
        state.failure += " (the server does not resume streams)";
      // Client errors other than "busy" will not change by trying again.
      if (status >= 400 && status < 500 && status != 408 && status != 409 && status != 429) co_return;
      continue;
    }
    state.progressed = false;
    co_await read_events(exchange, &pending, state);
    if (state.progressed) attempts = 0;
  }
}

asio::awaitable<void> streamable_engine::answer_http_error(http_exchange& exchange, pending_answers& pending) {
  const auto status = exchange.status();
  std::string body;
  try {
    body = co_await exchange.read_body(max_error_body, core_->options.response_timeout);
    exchange.finish();
  } catch (const std::exception&) {
    exchange.abort();
  }
  sdk_log(log_category::transport, log_level::info, "a request was refused",
          {{"request", exchange.description()}, {"status", status}});
  const auto reason = exchange.reason();
  // The session the request went in: a newer one may have begun since.
  const auto session = exchange.request_header("Mcp-Session-Id");
  // Taken out first: forget() may erase from the set while a push waits.
  const auto ids = std::exchange(pending.ids, {});
  for (const auto& request : ids) {
    auto answer =
        core_->messages->http_status_answer(request, exchange.description(), status, reason, body, session);
    co_await core_->inbound->push(std::move(answer));
  }
}

asio::awaitable<void> streamable_engine::fail_all(pending_answers& pending, const std::string& message) {
  if (!pending.empty()) sdk_log(log_category::transport, log_level::info, "requests failed", {{"error", message}});
  // Taken out first: forget() may erase from the set while a push waits.
  const auto ids = std::exchange(pending.ids, {});
  for (const auto& request : ids) {
    auto answer = core_->messages->failure_answer(request, message);
    co_await core_->inbound->push(std::move(answer));
  }
}

// --- the GET stream ------------------------------------------------------------

asio::awaitable<void> streamable_engine::listen(self_ptr self, std::uint64_t generation) {
  (void)self;
  stream_state state;
  int attempts = 0;
  auto current = [&] { return !closed_ && generation == listen_generation_; };
  while (current()) {
    auto spec = get_spec(state.last_event_id);
    http_exchange exchange(core_->pool, core_->endpoint, std::move(spec));
    std::string failure;
    try {
      co_await exchange.send(core_->options.response_timeout);
      co_await exchange.read_head(core_->options.response_timeout);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    if (!current()) co_return;
    if (failure.empty()) {
      const auto status = exchange.status();
      if (status == 405) {
        sdk_log(log_category::transport, log_level::debug, "the server offers no GET stream (405)");
        co_return;
      }
      if (status == 404 && !session_id_.empty()) {
        sdk_log(log_category::transport, log_level::info, "GET stream refused: the session has expired",
                {{"session_id", session_id_}});
        co_return;
      }
      if (is_success(status) && exchange.media_type() == "text/event-stream") {
        state.progressed = false;
        co_await read_events(exchange, nullptr, state);
        if (state.progressed) attempts = 0;
        failure = state.failure.empty() ? std::string("the stream ended") : state.failure;
      } else {
        failure = exchange.description() + " answered HTTP " + std::to_string(status) + " " +
                  exchange.media_type();
        exchange.abort();
      }
    }
    if (!current()) co_return;
    if (attempts >= core_->options.max_reconnects) {
      sdk_log(log_category::transport, log_level::warn, "stopped listening on the GET stream",
              {{"attempts", attempts}, {"error", failure}});
      co_return;
    }
    sdk_log(log_category::transport, log_level::debug, "GET stream failed; reconnecting", {{"error", failure}});
    const auto delay = core_->reconnect_delay(state.retry, attempts);
    ++attempts;
    if (!co_await sleep(delay)) co_return;
  }
}

// --- the end -------------------------------------------------------------------

asio::awaitable<void> streamable_engine::close() {
  if (closed_) co_return;
  closed_ = true;
  auto self = shared_from_this();
  for (auto* timer : sleepers_) timer->cancel();
  slot_freed_.cancel();
  core_->pool->close_active();  // every stream and POST in flight ends
  const auto timeout = core_->options.close_timeout;
  if (!session_id_.empty()) {
    // The spec: a client that leaves ends its session with DELETE (405: the
    // server does not allow it; fine). A watchdog bounds it, connect included.
    asio::steady_timer watchdog(core_->executor);
    watchdog.expires_after(timeout);
    watchdog.async_wait([pool = core_->pool](boost::system::error_code ec) {
      if (!ec) pool->close_active();
    });
    auto spec = core_->base_request(http_method::delete_);
    spec.headers.emplace_back("Mcp-Session-Id", session_id_);
    if (!version_.empty()) spec.headers.emplace_back("MCP-Protocol-Version", version_);
    http_exchange exchange(core_->pool, core_->endpoint, std::move(spec));
    std::string failure;
    try {
      co_await exchange.send(timeout);
      co_await exchange.read_head(timeout);
      const auto status = exchange.status();
      if (!is_success(status) && status != 405) failure = "answered HTTP " + std::to_string(status);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    exchange.abort();
    watchdog.cancel();
    if (!failure.empty())
      sdk_log(log_category::transport, log_level::debug, "the DELETE of the session failed", {{"error", failure}});
  }
  core_->inbound->close();
  tasks_done_.expires_after(timeout);
  while (tasks_ > 0) {
    auto [ec] = co_await tasks_done_.async_wait(as_tuple_awaitable);
    if (!ec) break;  // the deadline: leave them to end on their own
  }
}

void streamable_engine::abort() noexcept {
  closed_ = true;
  for (auto* timer : sleepers_) timer->cancel();
  slot_freed_.cancel();
  core_->pool->close_active();
}

}  // namespace mcp::detail::http_client
