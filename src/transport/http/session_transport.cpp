#include "session_transport.hpp"

#include <mcp/log.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail {

http_session_transport::http_session_transport(asio::any_io_executor ex, std::string id,
                                               transport_metadata metadata)
    : executor_(ex), id_(std::move(id)), metadata_(std::move(metadata)), inbound_ready_(ex) {
  inbound_ready_.expires_at(asio::steady_timer::time_point::max());
}

void http_session_transport::deliver(std::string frame) {
  inbound_.push_back(std::move(frame));
  inbound_ready_.cancel();
}

std::shared_ptr<response_stream> http_session_transport::open_stream(
    const std::vector<std::string>& request_ids, bool json_only) {
  auto stream = std::make_shared<response_stream>(executor_);
  stream->json_only = json_only;
  for (const auto& id : request_ids) {
    stream->awaiting.insert(id);
    streams_[id] = stream;
  }
  if (closed_) stream->finish();
  return stream;
}

std::shared_ptr<response_stream> http_session_transport::open_standalone() {
  if (standalone_ && !standalone_->done) return nullptr;
  standalone_ = std::make_shared<response_stream>(executor_);
  if (closed_) standalone_->finish();
  return standalone_;
}

void http_session_transport::release_standalone(const std::shared_ptr<response_stream>& stream) {
  if (standalone_ == stream) standalone_.reset();
}

asio::awaitable<std::optional<inbound_frame>> http_session_transport::read_frame() {
  while (inbound_.empty()) {
    // Ended by DELETE, expiry or shutdown: an abort, not an end of input, so
    // the engine cancels what runs instead of waiting to deliver replies.
    if (closed_) throw boost::system::system_error(asio::error::operation_aborted, "session ended");
    co_await inbound_ready_.async_wait(asio::as_tuple(asio::use_awaitable));
  }
  std::string text = std::move(inbound_.front());
  inbound_.pop_front();
  co_return inbound_frame{std::move(text), false};
}

asio::awaitable<void> http_session_transport::write_frame(std::string frame) {
  to_standalone(std::move(frame));
  co_return;
}

asio::awaitable<void> http_session_transport::write_routed(std::string frame,
                                                           frame_context context) {
  if (!context.answers.empty()) {
    const auto it = streams_.find(context.answers.front());
    if (it == streams_.end()) co_return;  // its POST is gone: nobody to answer
    auto stream = it->second;
    stream->push(std::move(frame));
    for (const auto& id : context.answers) {
      stream->awaiting.erase(id);
      streams_.erase(id);
    }
    if (stream->awaiting.empty()) stream->finish();
    co_return;
  }
  if (!context.related.empty()) {
    const auto it = streams_.find(context.related);
    if (it != streams_.end() && !it->second->json_only && !it->second->done) {
      it->second->push(std::move(frame));
      co_return;
    }
  }
  to_standalone(std::move(frame));
}

void http_session_transport::abandon(const std::string& request_id) {
  const auto it = streams_.find(request_id);
  if (it == streams_.end()) return;
  auto stream = it->second;
  streams_.erase(it);
  stream->awaiting.erase(request_id);
  if (stream->awaiting.empty()) stream->finish();
}

void http_session_transport::to_standalone(std::string frame) {
  if (standalone_ && !standalone_->done) {
    standalone_->push(std::move(frame));
    return;
  }
  // Without a GET stream there is no way to the client: the spec lets such
  // messages go (clients that want them keep a GET stream open).
  sdk_log(log_level::debug, "session " + id_ + ": no GET stream; dropped " + frame.substr(0, 80));
}

asio::awaitable<void> http_session_transport::close() {
  if (closed_) co_return;
  closed_ = true;
  inbound_ready_.cancel();
  for (auto& [id, stream] : streams_) stream->finish();
  streams_.clear();
  if (standalone_) standalone_->finish();
  co_return;
}

}  // namespace mcp::detail
