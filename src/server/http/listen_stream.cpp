#include "listen_stream.hpp"

#include "../../protocol/modern_era.hpp"
#include "../../transport/http/server/response_text.hpp"
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
  queue_chunk(sse_event({}, acknowledgement));
  ++events_sent_;
}

std::string listen_stream::take_queued() { return std::exchange(out_, {}); }

void listen_stream::adopt(std::unique_ptr<connection_io> io, std::shared_ptr<listen_stream_owner> owner,
                          std::uint64_t number, connection_telemetry connection_events) {
  io_ = std::move(io);
  owner_ = std::move(owner);
  number_ = number;
  connection_events_.emplace(connection_events);
  if (ended_) {  // (the server closed it while its head was being written)
    writing_ = true;
    asio::co_spawn(strand_, write_rest(self()), asio::detached);
    return;
  }
  stream_events_.emplace(listener_->transport().session_id, listener_->id(), stream_kind::post, std::string_view{});
  std::weak_ptr<listen_stream> weak = self();
  io_->watch_close([weak](bool) {
    if (auto stream = weak.lock()) stream->end({});
  });
  flush();  // what was sent while the head was being written
}

void listen_stream::abandon() { end({}); }

void listen_stream::keep_alive() {
  if (ended_ || !io_) return;
  if (!wrote_) {
    queue_chunk(sse_keep_alive);
    flush();
  }
  wrote_ = false;
}

void listen_stream::close(bool graceful) {
  if (ended_) return;
  std::string last;
  if (graceful) {
    append_chunk(last, sse_event({}, serialize(response{id_, listen_closing_result(id_)})));
    last += last_chunk;
  }
  end(std::move(last));
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
  queue_chunk(sse_event({}, serialize(n)));
  ++events_sent_;
  if (!writing_ || out_.size() <= max_queued_bytes_) {
    flush();
    return;
  }
  // The reader does not keep up: what is queued still goes, then the response ends.
  sdk_log(log_category::transport, log_level::warn, "a listen stream's reader fell too far behind; closing it",
          {{"session_id", listener_->id()}, {"bytes", out_.size()}});
  end(std::string(last_chunk));
}

void listen_stream::queue_chunk(std::string_view data) {
  append_chunk(out_, data);
  wrote_ = true;
}

void listen_stream::flush() {
  if (!io_ || writing_ || out_.empty()) return;
  try {
    // (Tried first: the socket nearly always takes a notification whole.)
    out_.erase(0, io_->write_at_once(out_));
  } catch (const boost::system::system_error& e) {
    sdk_log(log_category::transport, log_level::debug, "listen stream ended", {{"error", e.what()}});
    end({});
    return;
  }
  if (out_.empty()) {
    std::string().swap(out_);  // (an idle stream keeps no buffer)
    return;
  }
  writing_ = true;
  asio::co_spawn(strand_, write_rest(self()), asio::detached);
}

asio::awaitable<void> listen_stream::write_rest(std::shared_ptr<listen_stream> /*kept alive while it runs*/) {
  try {
    while (!out_.empty()) {
      const auto bytes = std::exchange(out_, {});
      co_await io_->write_bytes(bytes);  // under the write deadline: a reader that stalls is dropped
    }
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "listen stream ended", {{"error", e.what()}});
    out_.clear();
    if (!ended_) end({});
  }
  writing_ = false;
  if (ended_) co_await close_connection();
}

void listen_stream::end(std::string last) {
  if (ended_) return;
  ended_ = true;
  const auto keep = self();  // (the session's link may hold the last reference)
  if (stream_events_) stream_events_->closed(events_sent_);
  stream_events_.reset();
  if (listener_) behaviour_.terminate(*listener_);
  listener_.reset();
  if (last.empty()) out_.clear();  // the client is gone
  out_ += last;
  if (!io_ || writing_) return;  // (not adopted: the POST closes its connection; writing: closed after)
  writing_ = true;
  asio::co_spawn(strand_, write_rest(keep), asio::detached);
}

asio::awaitable<void> listen_stream::close_connection() {
  io_->unwatch_close();
  connection_events_->closed(*io_);
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
