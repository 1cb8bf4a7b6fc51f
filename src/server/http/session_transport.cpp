#include "session_transport.hpp"

#include "../../detail/random.hpp"
#include "../../protocol/http_rules.hpp"

#include <mcp/log.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail {

namespace {
// A reader this far behind is cut off; it resumes from the event store.
constexpr std::size_t max_pending_events = 10'000;
}  // namespace

http_session_transport::http_session_transport(asio::any_io_executor ex, std::string id,
                                               transport_metadata metadata,
                                               std::shared_ptr<event_store> events)
    : executor_(ex), id_(std::move(id)), events_(std::move(events)) {
  metadata.session_id = id_;
  metadata_ = std::make_shared<const transport_metadata>(std::move(metadata));
}

bool http_session_transport::primes_streams() const noexcept {
  return !legacy_ && primes_sse_streams(version_);
}

std::shared_ptr<message_stream> http_session_transport::open_stream(std::span<const std::string> request_ids,
                                                                    bool json_only) {
  auto stream = std::make_shared<message_stream>(executor_, unique_hex());
  stream->json_only = json_only;
  stream->attached = true;
  for (const auto& id : request_ids) {
    stream->owe(id);
    by_request_[id] = stream;
  }
  by_id_[stream->id()] = stream;
  if (closed_) finish(*stream);
  return stream;
}

void http_session_transport::make_resumable(message_stream& stream) {
  if (stream.resumable || legacy_) return;
  stream.resumable = true;
  for (const auto& event : stream.pending) events_->append(id_, stream.id(), event.seq, event.data);
}

std::shared_ptr<message_stream> http_session_transport::open_standalone() {
  if (standalone_ && standalone_->attached && !standalone_->done) return nullptr;
  if (standalone_) by_id_.erase(standalone_->id());
  standalone_ = std::make_shared<message_stream>(executor_, unique_hex());
  standalone_->resumable = !legacy_;
  standalone_->attached = true;
  by_id_[standalone_->id()] = standalone_;
  if (closed_) finish(*standalone_);
  return standalone_;
}

std::shared_ptr<message_stream> http_session_transport::find_stream(const std::string& stream_id) const {
  const auto it = by_id_.find(stream_id);
  return it == by_id_.end() ? nullptr : it->second;
}

bool http_session_transport::attach(message_stream& stream) {
  if (stream.attached) return false;
  stream.attached = true;
  return true;
}

void http_session_transport::detach(message_stream& stream) {
  stream.attached = false;
  stream.release_requested = false;
  stream.client_gone = false;
  // Whatever was pending is in the event store; a resumed stream replays it.
  stream.pending.clear();
  // Kept while something may still arrive: answers it owes, or the GET stream's messages.
  const bool expecting = !stream.awaiting.empty() || &stream == standalone_.get();
  if (stream.done || !expecting) by_id_.erase(stream.id());
}

std::shared_ptr<message_stream> http_session_transport::open_quiet_stream(const std::string& stream_id) {
  auto stream = std::make_shared<message_stream>(executor_, stream_id);
  stream->resumable = true;
  stream->attached = true;
  if (closed_) finish(*stream);
  else by_id_[stream_id] = stream;
  return stream;
}

std::size_t http_session_transport::attached_streams() const {
  std::size_t n = 0;
  for (const auto& [id, stream] : by_id_) n += stream->attached ? 1 : 0;
  return n;
}

asio::awaitable<std::optional<inbound_frame>> http_session_transport::read_frame() {
  co_return std::nullopt;
}

asio::awaitable<void> http_session_transport::write_frame(std::string frame) {
  to_standalone(std::move(frame));
  co_return;
}

asio::awaitable<void> http_session_transport::write_routed(std::string frame, frame_context context) {
  write_now(std::move(frame), std::move(context));
  co_return;
}

void http_session_transport::write_now(std::string frame, frame_context context) {
  if (legacy_) {
    to_standalone(std::move(frame));
    return;
  }
  if (!context.answers.empty()) {
    const auto it = by_request_.find(context.answers.front());
    if (it == by_request_.end()) return;  // cancelled, or its session ended: nobody to answer
    auto stream = it->second;
    if (context.refused != frame_context::refusal::none) stream->refused = context.refused;
    push(*stream, std::move(frame));
    for (const auto& id : context.answers) {
      stream->settle(id);
      by_request_.erase(id);
    }
    if (stream->awaiting.empty()) finish(*stream);
    return;
  }
  if (!context.related.empty()) {
    const auto it = by_request_.find(context.related);
    if (it != by_request_.end() && !it->second->json_only && !it->second->done) {
      push(*it->second, std::move(frame));
      return;
    }
  }
  to_standalone(std::move(frame));
}

void http_session_transport::push(message_stream& stream, std::string frame) {
  const auto seq = ++stream.last_seq;
  if (stream.resumable) events_->append(id_, stream.id(), seq, frame);
  if (stream.attached) {
    stream.pending.push_back({seq, std::move(frame)});
    if (stream.pending.size() > max_pending_events && !stream.release_requested) {
      sdk_log(log_level::warn, "session " + id_ + ": an SSE reader fell too far behind; closing its connection");
      stream.release_requested = true;
    }
  }
  stream.notify();
}

void http_session_transport::finish(message_stream& stream) {
  stream.done = true;
  // A finished stream can still be replayed from the store, but is no longer live.
  if (!stream.attached) by_id_.erase(stream.id());
  stream.notify();
}

void http_session_transport::abandon(const std::string& request_id) {
  const auto it = by_request_.find(request_id);
  if (it == by_request_.end()) return;
  auto stream = it->second;
  by_request_.erase(it);
  stream->settle(request_id);
  if (stream->awaiting.empty()) finish(*stream);
}

void http_session_transport::close_stream(const std::string& request_id) {
  if (!primes_streams()) return;  // the client has no event id to resume from
  const auto it = by_request_.find(request_id);
  if (it == by_request_.end() || it->second->json_only) return;
  it->second->release_requested = true;
  it->second->notify();
}

void http_session_transport::to_standalone(std::string frame) {
  if (standalone_ && !standalone_->done) {
    push(*standalone_, std::move(frame));
    return;
  }
  // Without a GET stream there is no way to the client: the spec lets such
  // messages go (clients that want them keep a GET stream open).
  sdk_log(log_level::debug, "session " + id_ + ": no GET stream; dropped " + frame.substr(0, 80));
}

asio::awaitable<void> http_session_transport::close() {
  end_streams();
  co_return;
}

void http_session_transport::end_streams() {
  if (closed_) return;
  closed_ = true;
  auto streams = std::move(by_id_);
  by_request_.clear();
  for (auto& [id, stream] : streams) finish(*stream);
}

}  // namespace mcp::detail
