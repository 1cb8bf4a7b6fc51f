// The driver of an http_endpoint for an application's own HTTP server: one
// request as a value in, its response out (http_endpoint::async_handle). The
// request is served by dispatch() like a listener's, through a
// response_channel that turns what dispatch() writes into a value: the head
// and a whole body, or the head and a body stream that the application's
// server pulls (http_body_stream). The stream is bounded: dispatch() waits
// (finish()) while the reader is more than `room` bytes behind, and gives up
// after write_timeout.

#include "endpoint_impl.hpp"
#include "exchange_upgrade.hpp"

#include "../../detail/completion.hpp"
#include "../../transport/websocket/handed_stream.hpp"

#include <mcp/error.hpp>
#include <mcp/log.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <condition_variable>
#include <mutex>

namespace mcp {

namespace detail {
namespace {

using handler_of_read = asio::any_completion_handler<void(boost::system::error_code, std::string)>;
using handler_of_response = asio::any_completion_handler<void(http_endpoint_response)>;

// How far the reader of a body may fall behind before the writer waits.
constexpr std::size_t room = 256 * 1024;

}  // namespace

// What an exchange's channel (on its strand) and the body stream (any
// thread) share. The body's bytes and its end are behind `mutex`.
struct exchange_state : std::enable_shared_from_this<exchange_state> {
  explicit exchange_state(asio::any_io_executor s) : strand(std::move(s)), room_wait(strand) {}

  // The bytes for the reader, under the lock: waking a read that waits.
  void push(std::string_view bytes, bool last) {
    handler_of_read reader;
    std::string taken;
    {
      std::lock_guard lock(mutex);
      if (closed_by_reader) throw mcp::error(asio::error::connection_aborted);
      queued += bytes;
      ended = ended || last;
      if (waiting_read && (!queued.empty() || ended)) {
        store_handler(reader, take_handler(waiting_read));
        taken = take_locked();
      }
    }
    readable.notify_all();
    if (!reader) return;
    // (Decided before `taken` moves into the call: arguments have no order.)
    const auto ec = taken.empty() ? boost::system::error_code(asio::error::eof) : boost::system::error_code();
    post_completion(std::move(reader), strand, ec, std::move(taken));
  }

  // The request's response (its head), to the handler that awaits it; once.
  void answer(http_endpoint_response response) {
    if (auto respond = take_handler(this->respond)) post_completion(std::move(respond), strand, std::move(response));
  }

  // A whole body: nothing reads it, and the channel cannot fail it.
  void end_whole() {
    std::lock_guard lock(mutex);
    ended = true;
  }

  bool has_room() {
    std::lock_guard lock(mutex);
    return has_room_locked();
  }

  // Whether the writer must wait for room; if so, the next read wakes it
  // (decided under the one lock, so that no read slips in between).
  bool wait_for_room() {
    std::lock_guard lock(mutex);
    if (has_room_locked()) return false;
    writer_waits = true;
    return true;
  }

  bool has_room_locked() const { return queued.size() <= room || closed_by_reader; }

  // What a read gets now: the queued bytes, or (none queued) empty.
  std::string take_locked() {
    auto taken = std::exchange(queued, {});
    if (!taken.empty() && writer_waits) {
      writer_waits = false;
      asio::post(strand, [self = shared_from_this()] { self->room_wait.cancel(); });
    }
    return taken;
  }

  // Why a read that finds nothing queued ends: nothing (it waits), the
  // endpoint giving the body up, or its end.
  boost::system::error_code end_locked() const {
    if (closed_by_reader) return asio::error::operation_aborted;
    if (failure) return failure;
    if (ended) return asio::error::eof;
    return {};
  }

  void start_read(handler_of_read handler) {
    std::string taken;
    boost::system::error_code ec;
    {
      std::lock_guard lock(mutex);
      taken = take_locked();
      if (taken.empty()) ec = end_locked();
      if (taken.empty() && !ec) {
        store_handler(waiting_read, std::move(handler));
        return;
      }
    }
    post_completion(std::move(handler), strand, ec, std::move(taken));
  }

  http_body_stream::chunk read(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex);
    readable.wait_for(lock, timeout, [this] { return !queued.empty() || end_locked(); });
    http_body_stream::chunk chunk;
    chunk.data = take_locked();
    if (chunk.data.empty()) chunk.error = end_locked() ? end_locked() : asio::error::timed_out;
    return chunk;
  }

  // The reader closes the body: the channel's watch hears of it on the strand.
  void close_by_reader() {
    handler_of_read reader;
    {
      std::lock_guard lock(mutex);
      if (closed_by_reader) return;
      closed_by_reader = true;
      queued.clear();
      store_handler(reader, take_handler(waiting_read));
    }
    readable.notify_all();
    if (reader) post_completion(std::move(reader), strand, boost::system::error_code(asio::error::operation_aborted),
                         std::string());
    asio::post(strand, [self = shared_from_this()] {
      self->room_wait.cancel();
      if (auto on_close = std::move(self->on_reader_close)) on_close(false);
    });
  }

  // The endpoint gives the body up (its reader took nothing for the write
  // timeout): what is queued goes, and the reader learns why. A resumable
  // stream's events are in the event store for the client's resumption.
  void give_up(boost::system::error_code why) { end_with(why, true); }

  // The exchange is over before the body ended whole (a fault, the client
  // gone): the reader gets what was written, then why.
  void end_unfinished(boost::system::error_code why) { end_with(why, false); }

  void end_with(boost::system::error_code why, bool drop_queued) {
    handler_of_read reader;
    {
      std::lock_guard lock(mutex);
      if (closed_by_reader || failure || (ended && !drop_queued)) return;
      failure = why;
      if (drop_queued) queued.clear();
      if (queued.empty()) store_handler(reader, take_handler(waiting_read));
    }
    readable.notify_all();
    if (reader) post_completion(std::move(reader), strand, why, std::string());
  }

  const asio::any_io_executor strand;
  // On the strand: the response's head is awaited by this; the watch.
  handler_of_response respond;
  std::function<void(bool)> on_reader_close;
  asio::steady_timer room_wait;  // the writer waits for room; cancelled when there is

  std::mutex mutex;
  std::condition_variable readable;
  std::string queued;
  bool ended = false;             // the last bytes are queued
  bool closed_by_reader = false;  // the reader closed the body
  bool writer_waits = false;      // room_wait runs
  boost::system::error_code failure;
  handler_of_read waiting_read;
};

namespace {

class exchange_body_stream final : public http_body_stream {
 public:
  explicit exchange_body_stream(std::shared_ptr<exchange_state> state) : state_(std::move(state)) {}
  ~exchange_body_stream() override { close(); }
  chunk read(std::chrono::milliseconds timeout) override { return state_->read(timeout); }
  void close() override { state_->close_by_reader(); }

 private:
  void start_read(handler_of_read handler) override { state_->start_read(std::move(handler)); }
  std::shared_ptr<exchange_state> state_;
};

// The headers of a response head as a list: the framing ones are left to
// the application's server. `extra` holds whole lines ("Name: value\r\n").
header_list headers_of(const detail::response_head& head) {
  header_list headers;
  if (!head.content_type.empty()) headers.add("Content-Type", head.content_type);
  if (head.no_cache) {
    headers.add("Cache-Control", "no-cache");
    headers.add("X-Accel-Buffering", "no");
  }
  if (!head.field.value.empty()) headers.add(head.field.name, head.field.value);
  for (std::string_view extra = head.extra_fields; !extra.empty();) {
    const auto line_end = extra.find("\r\n");
    const auto line = extra.substr(0, line_end);
    extra.remove_prefix(line_end == std::string_view::npos ? extra.size() : line_end + 2);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    auto value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    headers.add(line.substr(0, colon), value);
  }
  return headers;
}

// The response_channel of one exchange, on its strand.
class exchange_channel final : public detail::response_channel {
 public:
  exchange_channel(std::shared_ptr<exchange_state> state, std::string peer, std::chrono::milliseconds write_timeout,
                   bool can_upgrade)
      : state_(std::move(state)), peer_(std::move(peer)), write_timeout_(write_timeout), can_upgrade_(can_upgrade) {}

  bool send_head(const detail::response_head& head, std::string_view body, bool last) override {
    http_endpoint_response response;
    response.status = static_cast<unsigned>(head.status);
    response.headers = headers_of(head);
    traffic_.bytes_out += body.size();
    if (head.content_length) {
      response.body = body;
      state_->end_whole();
    } else {
      response.stream = std::make_shared<exchange_body_stream>(state_);
      state_->push(body, last);
    }
    head_sent_ = true;
    state_->answer(std::move(response));
    return state_->has_room();
  }

  bool send_part(std::string_view data, bool last) override {
    traffic_.bytes_out += data.size();
    state_->push(data, last);
    return state_->has_room();
  }

  asio::awaitable<void> finish() override {
    const auto deadline = std::chrono::steady_clock::now() + write_timeout_;
    while (state_->wait_for_room()) {
      if (std::chrono::steady_clock::now() >= deadline) {
        // (Not timed_out: a blocking read() says that when it waited in vain.)
        state_->give_up(asio::error::connection_aborted);
        throw mcp::error(asio::error::timed_out, "the body's reader took nothing");
      }
      state_->room_wait.expires_at(deadline);
      co_await state_->room_wait.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    std::lock_guard lock(state_->mutex);
    if (state_->closed_by_reader) throw mcp::error(asio::error::connection_aborted);
  }

  void watch_close(std::function<void(bool)> on_close) override {
    bool closed = false;
    {
      std::lock_guard lock(state_->mutex);
      closed = state_->closed_by_reader;
    }
    if (closed) return on_close(false);
    state_->on_reader_close = std::move(on_close);
  }
  void unwatch_close() override { state_->on_reader_close = nullptr; }

  const std::string& peer() override { return peer_; }

  bool can_upgrade() const noexcept override { return can_upgrade_; }

  // The application is answered with the upgrade, and hands its connection
  // over to it within the handshake timeout (exchange_upgrade.hpp).
  asio::awaitable<std::unique_ptr<websocket::connection>> accept_websocket(const http_request& req,
                                                                         websocket::settings settings,
                                                                         transport_metadata metadata) override {
    if (!can_upgrade_)
      co_return co_await response_channel::accept_websocket(req, std::move(settings), std::move(metadata));
    handoff_ = std::make_shared<upgrade_handoff>(state_->strand);
    http_endpoint_response response;
    response.status = 101;
    response.upgrade = handoff_->handle();
    head_sent_ = true;
    state_->end_whole();
    state_->answer(std::move(response));
    try {
      auto* given = co_await handoff_->connection(std::chrono::steady_clock::now() + settings.handshake_timeout);
      handed_.emplace(*given, state_->strand);
      co_return co_await websocket::accept(*handed_, req, std::move(settings), std::move(metadata));
    } catch (const boost::system::system_error& e) {
      upgrade_failure_ = e.code();
      throw;
    }
  }

  // The exchange is over: a body that did not end whole fails (its reader
  // sees an error, not the end, and can tell its client so), and a request
  // that got no response at all (a fault) gets a 500.
  asio::awaitable<void> close() override {
    if (handoff_) handoff_->finish(upgrade_failure_);  // (its session has ended)
    state_->end_unfinished(asio::error::connection_aborted);
    if (!head_sent_) {
      http_endpoint_response response;
      response.status = 500;
      response.headers.add("Content-Type", "application/json");
      response.body = serialize(make_error({}, errc::internal_error, "Internal Server Error"));
      state_->answer(std::move(response));
    }
    co_return;
  }

 private:
  std::shared_ptr<exchange_state> state_;
  std::string peer_;
  std::chrono::milliseconds write_timeout_;
  bool head_sent_ = false;
  const bool can_upgrade_;
  std::shared_ptr<upgrade_handoff> handoff_;  // a WebSocket upgrade's
  std::optional<websocket::handed_stream> handed_;
  boost::system::error_code upgrade_failure_;
};

bool is_loopback_endpoint(std::string_view endpoint) {
  // "127.0.0.1:80", "[::1]:80", or an address alone.
  std::string_view address = endpoint;
  if (address.starts_with('[')) {
    address = address.substr(1, address.find(']') - 1);
  } else if (address.find(':') == address.rfind(':')) {
    address = address.substr(0, address.find(':'));
  }
  boost::system::error_code ec;
  const auto parsed = asio::ip::make_address(address, ec);
  return !ec && parsed.is_loopback();
}

}  // namespace
}  // namespace detail

void http_endpoint::start_handle(http_endpoint_request request,
                                 asio::any_completion_handler<void(http_endpoint_response)> handler) {
  const auto strand = impl_->make_strand();
  auto state = std::make_shared<detail::exchange_state>(strand);
  detail::store_handler(state->respond, std::move(handler));
  asio::co_spawn(strand, impl_->serve_exchange(std::move(request), std::move(state)), asio::detached);
}

asio::awaitable<void> http_endpoint::impl::serve_exchange(http_endpoint_request request,
                                                         std::shared_ptr<detail::exchange_state> state) {
  // The exchange may end after the http_endpoint is gone: it keeps the state it uses alive.
  const auto self = shared_from_this();
  auto channel = std::make_unique<detail::exchange_channel>(state, std::move(request.remote_endpoint),
                                                           options.write_timeout, request.can_upgrade);
  auto& entry = open_channel(state->strand, channel.get(), nullptr);
  entry.busy = true;  // (until it ends: it waits for no other request)
  const auto number = entry.number;
  served_request req;
  req.assign(http::string_to_verb(request.method), request.target, request.http_version, request.headers,
             std::move(request.body), detail::known_header_slot);
  req.loopback = detail::is_loopback_endpoint(request.local_endpoint);
  req.public_origin = std::move(request.public_origin);
  detail::http_request_telemetry request_events(*channel);
  channel->counted().bytes_in = req.body().size();
  request_events.arrived();
  try {
    if (req.body().size() > options.max_body_size) co_await refuse_too_large_body(*channel, req);
    else co_await dispatch(*channel, req);
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "HTTP exchange ended", {{"error", e.what()}});
  }
  request_events.answered(*channel, req);
  if (req.taken_over) {
    hand_over_connection(std::move(req.taken_over), std::move(channel), number, nullptr);
    co_return;
  }
  close_channel(number);
  co_await channel->close();
}

}  // namespace mcp
