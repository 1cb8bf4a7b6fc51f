#include "listen_stream.hpp"

#include "../../protocol/modern_era.hpp"
#include "../../transport/http/server/sse.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>

namespace mcp::detail {

listen_stream::listen_stream(asio::any_io_executor strand, server_behaviour& behaviour,
                             std::size_t max_queued_bytes)
    : strand_(std::move(strand)), behaviour_(behaviour), max_queued_bytes_(max_queued_bytes) {}

void listen_stream::open(const request_id& id, std::string acknowledgement, std::shared_ptr<session> listener) {
  id_ = id;
  listener_ = std::move(listener);
  queue(sse_event({}, acknowledgement));
  ++events_sent_;
}

std::string listen_stream::begin_response() {
  // (Before the client can see its first bytes: a client that has them knows the stream is counted.)
  if (listener_ && !ended_)
    stream_events_.emplace(listener_->transport().session_id, listener_->id(), stream_kind::post, std::string_view{});
  return std::exchange(out_, {});
}

void listen_stream::adopt(std::unique_ptr<response_channel> io, std::shared_ptr<listen_stream_owner> owner,
                          std::uint64_t number, const connection_telemetry* connection_events) {
  io_ = std::move(io);
  owner_ = std::move(owner);
  number_ = number;
  if (connection_events) connection_events_.emplace(*connection_events);
  if (ended_) {  // (the server closed it while its head was being written)
    writing_ = true;
    asio::co_spawn(strand_, write_rest(self()), asio::detached);
    return;
  }
  std::weak_ptr<listen_stream> weak = self();
  io_->watch_close([weak](bool) {
    if (auto stream = weak.lock()) stream->end(false);
  });
  flush();  // what was sent while the head was being written
}

void listen_stream::abandon() { end(false); }

void listen_stream::keep_alive() {
  if (ended_ || !io_) return;
  if (!wrote_) {
    queue(sse_keep_alive);
    flush();
  }
  wrote_ = false;
}

void listen_stream::close(bool graceful) {
  if (ended_) return;
  if (graceful) end(true, sse_event({}, serialize(response{id_, listen_closing_result(id_)})));
  else end(false);
}

asio::awaitable<void> listen_stream::send_notification(notification n, std::string) {
  post_notification(std::move(n), {});
  co_return;
}

void listen_stream::post_notification(notification n, std::string) {
  // (Posted even on the strand: the behaviour may hold its locks while it notifies.)
  asio::post(strand_, [stream = self(), n = std::move(n)] { stream->send(n); });
}

// (A listen stream reaches its client wherever it runs.)
void listen_stream::post_broadcast(notification n) { post_notification(std::move(n), {}); }

asio::awaitable<json::object> listen_stream::send_request(std::string method, json::object, std::chrono::milliseconds,
                                                          std::string) {
  throw capability_error("a subscriptions/listen stream carries notifications only, not " + method);
}

void listen_stream::send(const notification& n) {
  if (ended_) return;
  queue(sse_event({}, serialize(n)));
  ++events_sent_;
  if (!writing_ || out_.size() <= max_queued_bytes_) {
    flush();
    return;
  }
  // The reader does not keep up: what is queued still goes, then the response ends.
  sdk_log(log_category::transport, log_level::warn, "a listen stream's reader fell too far behind; closing it",
          {{"session_id", listener_->id()}, {"bytes", out_.size()}});
  end(true);
}

void listen_stream::queue(std::string_view events) {
  out_ += events;
  wrote_ = true;
}

bool listen_stream::send_queued() {
  const bool last = ends_whole_;
  const auto events = std::exchange(out_, {});
  ends_whole_ = false;
  return io_->send_part(events, last);
}

void listen_stream::flush() {
  if (!io_ || writing_ || out_.empty()) return;
  try {
    // (Tried first: the channel nearly always takes a notification whole.)
    if (send_queued()) return;
  } catch (const boost::system::system_error& e) {
    sdk_log(log_category::transport, log_level::debug, "listen stream ended", {{"error", e.what()}});
    end(false);
    return;
  }
  writing_ = true;
  asio::co_spawn(strand_, write_rest(self()), asio::detached);
}

asio::awaitable<void> listen_stream::write_rest(std::shared_ptr<listen_stream> /*kept alive while it runs*/) {
  try {
    // Under the write deadline: a reader that stalls is dropped.
    co_await io_->finish();
    while (!out_.empty() || ends_whole_)
      if (!send_queued()) co_await io_->finish();
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "listen stream ended", {{"error", e.what()}});
    out_.clear();
    ends_whole_ = false;
    if (!ended_) end(false);
  }
  writing_ = false;
  if (ended_) co_await close_connection();
}

void listen_stream::end(bool whole, std::string_view last_event) {
  if (ended_) return;
  ended_ = true;
  const auto keep = self();  // (the session's link may hold the last reference)
  if (stream_events_) stream_events_->closed(events_sent_);
  stream_events_.reset();
  if (listener_) behaviour_.terminate(*listener_);
  listener_.reset();
  if (whole) {
    out_ += last_event;
    ends_whole_ = true;
  } else {
    out_.clear();  // the client is gone
  }
  if (!io_ || writing_) return;  // (not adopted: the POST closes its connection; writing: closed after)
  writing_ = true;
  asio::co_spawn(strand_, write_rest(keep), asio::detached);
}

asio::awaitable<void> listen_stream::close_connection() {
  io_->unwatch_close();
  if (connection_events_) connection_events_->closed(*io_);
  try {
    co_await io_->close();
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "listen connection did not close cleanly", {{"error", e.what()}});
  }
  owner_->listen_connection_closed(number_);
}

std::shared_ptr<connection_link> listen_taker::hold_listen(const request_id& id, std::string acknowledgement,
                                                           std::shared_ptr<session> listener) {
  taken = std::make_shared<listen_stream>(strand_, behaviour_, max_queued_bytes_);
  taken->open(id, std::move(acknowledgement), std::move(listener));
  return taken;
}

}  // namespace mcp::detail
