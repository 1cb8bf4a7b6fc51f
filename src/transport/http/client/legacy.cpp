#include "legacy.hpp"
#include "../../../detail/as_tuple_awaitable.hpp"

#include "exchange.hpp"
#include "http_error.hpp"
#include "sse_parser.hpp"

#include <mcp/error.hpp>
#include <mcp/log.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail::http_client {

namespace {

constexpr std::size_t max_reply_body = 64 * 1024;

}  // namespace

legacy_engine::legacy_engine(std::shared_ptr<client_core> core)
    : core_(std::move(core)), pump_done_(core_->executor) {}

legacy_engine::~legacy_engine() = default;

// Delivers the events parsed so far; stops at the endpoint event while there
// is none yet (what follows it is the reader's).
asio::awaitable<bool> legacy_engine::take_events() {
  const auto& where = stream_->description();
  if (parser_->dropped() > dropped_) {
    dropped_ = parser_->dropped();
    sdk_log(log_category::transport, log_level::warn, "dropped an SSE event over max_message_size", {{"from", where}});
  }
  while (!parser_->events().empty()) {
    auto event = std::move(parser_->events().front());
    parser_->events().pop_front();
    if (event.type == "endpoint") {
      if (post_to_) {
        sdk_log(log_category::transport, log_level::debug, "ignored a second endpoint event", {{"from", where}});
        continue;
      }
      try {
        post_to_ = resolve_endpoint(core_->endpoint, event.data);
      } catch (const mcp::invalid_argument& e) {
        throw http_error(where + ": " + e.what());
      }
      co_return true;
    }
    if (event.type != "message") {
      sdk_log(log_category::transport, log_level::debug, "ignored an SSE event", {{"type", event.type}, {"from", where}});
      continue;
    }
    auto facts = core_->messages->inspect_inbound(event.data);
    if (!facts.valid) {
      sdk_log(log_category::transport, log_level::warn, "dropped an SSE event that is not valid JSON", {{"from", where}});
      continue;
    }
    inbound_frame frame;
    frame.text = std::move(event.data);
    frame.parsed = std::move(facts.parsed);
    co_await core_->inbound->push(std::move(frame));
  }
  co_return post_to_.has_value();
}

asio::awaitable<void> legacy_engine::start() {
  if (started_) co_return;
  const auto timeout = core_->options.response_timeout;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto spec = core_->base_request(http_method::get);
  spec.headers.emplace_back("Accept", "text/event-stream");
  stream_ = std::make_unique<http_exchange>(core_->pool, core_->endpoint, std::move(spec));
  parser_ = std::make_unique<sse_parser>(core_->options.max_message_size);
  dropped_ = 0;
  post_to_.reset();
  co_await stream_->send(timeout);
  co_await stream_->read_head(timeout);
  const auto& where = stream_->description();
  if (!is_success(stream_->status()))
    throw http_error(where + " answered HTTP " + std::to_string(stream_->status()) + " " + stream_->reason());
  if (stream_->media_type() != "text/event-stream")
    throw http_error(where + " answered " + stream_->media_type() + ", not text/event-stream");
  std::string bytes;
  while (!co_await take_events()) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      throw http_error(where + ": no endpoint event within " + std::to_string(timeout.count()) + " ms");
    bytes.clear();
    if (!co_await stream_->read_some(bytes, left)) throw http_error(where + ": the stream ended before its endpoint event");
    parser_->feed(bytes);
  }
  started_ = true;
  pumping_ = true;
  sdk_log(log_category::transport, log_level::info, "HTTP+SSE stream open", {{"post_to", post_to_->url}});
  asio::co_spawn(core_->executor, pump(shared_from_this()), [self = shared_from_this()](std::exception_ptr) {
    self->pumping_ = false;
    self->pump_done_.cancel();
  });
}

asio::awaitable<void> legacy_engine::pump(std::shared_ptr<legacy_engine> self) {
  (void)self;
  std::string failure;
  bool ended = false;
  std::string bytes;
  try {
    for (;;) {
      co_await take_events();
      if (closed_) break;
      bytes.clear();
      if (!co_await stream_->read_some(bytes, core_->options.stream_idle_timeout)) {
        ended = true;
        break;
      }
      parser_->feed(bytes);
    }
  } catch (const std::exception& e) {
    failure = e.what();
  }
  stream_->abort();
  if (closed_) co_return;
  if (ended) {
    sdk_log(log_category::transport, log_level::info, "the HTTP+SSE stream ended", {{"url", core_->endpoint.url}});
    core_->inbound->end();
  } else {
    core_->inbound->fail("the HTTP+SSE stream failed: " + failure);
  }
}

asio::awaitable<void> legacy_engine::answer_all(const outgoing_facts& facts, const std::string& message) {
  if (facts.requests.empty()) {
    sdk_log(log_category::transport, log_level::warn, "a notification or response was not delivered", {{"error", message}});
    co_return;
  }
  sdk_log(log_category::transport, log_level::info, "requests failed", {{"error", message}});
  for (const auto& request : facts.requests) {
    auto answer = core_->messages->failure_answer(request, message);
    co_await core_->inbound->push(std::move(answer));
  }
}

asio::awaitable<void> legacy_engine::write(std::string frame, std::optional<sent_request> request) {
  if (closed_) throw mcp::error(asio::error::not_connected, "HTTP transport closed");
  auto self = shared_from_this();
  const auto facts = request ? facts_of(std::move(*request)) : core_->messages->inspect_outgoing(frame);
  std::string failure;
  if (!started_) {
    try {
      co_await start();
    } catch (const std::exception& e) {
      failure = std::string("cannot open the HTTP+SSE stream: ") + e.what();
    }
    if (!failure.empty()) {
      stream_.reset();
      co_await answer_all(facts, failure);
      co_return;
    }
  }
  http_exchange exchange(core_->pool, *post_to_, core_->json_post(std::move(frame)));
  const auto reply = co_await exchange.run_to_end(max_reply_body, core_->options.response_timeout);
  if (closed_) co_return;
  if (!reply.failure.empty()) {
    std::string message = "HTTP request failed: " + reply.failure;
    co_await answer_all(facts, message);
    co_return;
  }
  const auto status = reply.status;
  if (is_success(status)) co_return;  // the answers come on the stream
  if (facts.requests.empty()) {
    sdk_log(log_category::transport, log_level::warn, "a notification or response was refused",
            {{"request", exchange.description()}, {"status", status}});
    co_return;
  }
  const auto reason = exchange.reason();
  for (const auto& request : facts.requests) {
    auto answer =
        core_->messages->http_status_answer(request, exchange.description(), status, reason, reply.body, {});
    co_await core_->inbound->push(std::move(answer));
  }
}

asio::awaitable<void> legacy_engine::close() {
  if (closed_) co_return;
  abort();
  core_->inbound->close();
  pump_done_.expires_after(core_->options.close_timeout);
  while (pumping_) {
    auto [ec] = co_await pump_done_.async_wait(as_tuple_awaitable);
    if (!ec) break;
  }
}

void legacy_engine::abort() noexcept {
  closed_ = true;
  core_->pool->close_active();
}

}  // namespace mcp::detail::http_client
