#include "session_transport.hpp"

#include "../../detail/random.hpp"
#include "../../protocol/http_rules.hpp"

#include <mcp/log.hpp>

#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail {

http_session_transport::http_session_transport(asio::any_io_executor ex, std::string id,
                                               transport_metadata metadata,
                                               std::shared_ptr<event_store> events)
    : executor_(ex), id_(std::move(id)), events_(std::move(events)) {
  metadata.session_id = id_;
  metadata_ = std::make_shared<const transport_metadata>(std::move(metadata));
}

void http_session_transport::set_relay(std::shared_ptr<const session_relay> relay, std::string_view node) {
  relay_ = std::move(relay);
  stream_prefix_ = std::string(node) + "-";
}

std::string http_session_transport::new_stream_id() const { return stream_prefix_ + unique_hex(); }

void http_session_transport::record(const std::string& stream_id, std::uint64_t seq, const std::string& data) {
  events_->append(id_, stream_id, seq, data);
  if (relay_) relay_->event(stream_id, seq, data);
}

void http_session_transport::record_end(const std::string& stream_id) {
  events_->end_stream(id_, stream_id);
  relay_->stream_ended(stream_id);
}

bool http_session_transport::primes_streams() const noexcept {
  return !legacy_ && primes_sse_streams(version_);
}

std::shared_ptr<message_stream> http_session_transport::open_stream(std::span<const std::string> request_ids,
                                                                    bool json_only, asio::any_io_executor reader) {
  auto stream = make_stream(new_stream_id(), json_only, false, std::move(reader), request_ids);
  std::lock_guard lock(mutex_);
  enter(stream, request_ids);
  return stream;
}

void http_session_transport::enter(const std::shared_ptr<message_stream>& stream,
                                   std::span<const std::string> request_ids) {
  for (const auto& id : request_ids) by_request_[id] = stream;
  by_id_[stream->id()] = stream;
  if (closed_) finish(*stream);
}

void http_session_transport::expect_direct(direct_slot& slot) {
  std::lock_guard lock(mutex_);
  direct_ = &slot;
}

std::shared_ptr<message_stream> http_session_transport::take_direct() {
  std::lock_guard lock(mutex_);
  auto& slot = *direct_;
  open_direct_stream(slot.request_id);
  direct_ = nullptr;
  return std::move(slot.stream);
}

http_session_transport::answered_event http_session_transport::take_answer_event(direct_slot& slot, bool resumable) {
  answered_event event{new_stream_id(), resumable && !legacy_, std::move(*slot.answer)};
  slot.answer.reset();
  if (!event.resumable) return event;
  if (relay_) events_->open_stream(id_, event.stream_id, std::span<const std::string>(&slot.request_id, 1));
  record(event.stream_id, 1, event.data);  // (a stream's first event is seq 1; its priming event, 0)
  if (relay_) record_end(event.stream_id);
  return event;
}

void http_session_transport::forget_direct(const direct_slot& slot) noexcept {
  std::lock_guard lock(mutex_);
  if (direct_ == &slot) direct_ = nullptr;
}

void http_session_transport::open_direct_stream(std::string_view request_id) {
  if (!direct_) return;
  auto& slot = *direct_;
  if (slot.stream || slot.answer || slot.request_id != request_id) return;
  const std::span<const std::string> owed(&slot.request_id, 1);
  slot.stream = make_stream(new_stream_id(), slot.json_only, false, slot.reader, owed);
  enter(slot.stream, owed);
}

bool http_session_transport::keep_direct(std::string& frame, const frame_context& context) {
  auto& slot = *direct_;
  if (slot.stream || slot.answer) return false;  // its stream, or nothing, takes what follows
  if (context.answers.size() == 1 && context.answers.front() == slot.request_id) {
    slot.answer = std::move(frame);
    slot.refused = context.refused;
    return true;
  }
  open_direct_stream(context.related);
  return false;
}

void http_session_transport::make_resumable(message_stream& stream, std::span<const std::string> owed) {
  if (legacy_) return;
  if (relay_) events_->open_stream(id_, stream.id(), owed);
  stream.make_resumable([&](std::uint64_t seq, const std::string& data) { record(stream.id(), seq, data); });
  // (An answer that came first ended the stream before it was recorded.)
  if (relay_ && stream.look().done) record_end(stream.id());
}

std::shared_ptr<message_stream> http_session_transport::open_standalone(asio::any_io_executor reader) {
  std::lock_guard lock(mutex_);
  if (get_stream_read()) return nullptr;
  auto stream = make_stream(new_stream_id(), false, !legacy_, std::move(reader));
  if (relay_) events_->open_stream(id_, stream->id(), {});
  become_get_stream(stream);
  if (closed_) finish(*standalone_);
  return standalone_;
}

std::shared_ptr<message_stream> http_session_transport::find_stream(const std::string& stream_id) const {
  std::lock_guard lock(mutex_);
  const auto it = by_id_.find(stream_id);
  return it == by_id_.end() ? nullptr : it->second;
}

bool http_session_transport::attach(message_stream& stream, asio::any_io_executor reader) {
  return stream.attach(std::move(reader));
}

void http_session_transport::detach(message_stream& stream) {
  std::lock_guard lock(mutex_);
  const auto left = stream.detach();
  // Kept while something may still arrive: answers it owes, or the GET stream's messages.
  const bool expecting = !left.owes_nothing || &stream == standalone_.get();
  if (left.done || !expecting) by_id_.erase(stream.id());
}

std::shared_ptr<message_stream> http_session_transport::open_quiet_stream(const std::string& stream_id,
                                                                          asio::any_io_executor reader) {
  return hold(make_stream(stream_id, false, true, std::move(reader)));
}

std::shared_ptr<message_stream> http_session_transport::open_relayed_stream(const std::string& stream_id,
                                                                            asio::any_io_executor reader) {
  auto stream = make_stream(stream_id, false, true, std::move(reader));
  stream->set_relayed();
  return hold(std::move(stream));
}

std::shared_ptr<message_stream> http_session_transport::hold(std::shared_ptr<message_stream> stream) {
  std::lock_guard lock(mutex_);
  if (closed_) finish(*stream);
  else by_id_[stream->id()] = stream;
  return stream;
}

void http_session_transport::relayed_event(std::string_view stream_id, std::uint64_t seq, std::string_view data) {
  std::lock_guard lock(mutex_);
  const auto it = by_id_.find(stream_id);
  if (it != by_id_.end() && it->second->relayed()) it->second->push_relayed(seq, std::string(data));
}

void http_session_transport::relayed_stream_ended(std::string_view stream_id) {
  std::lock_guard lock(mutex_);
  const auto it = by_id_.find(stream_id);
  if (it != by_id_.end() && it->second->relayed()) finish(*it->second);
}

void http_session_transport::relayed_to_get_stream(std::string_view frame) {
  std::lock_guard lock(mutex_);
  if (standalone_ && !standalone_->look().done) push(*standalone_, std::string(frame));
}

void http_session_transport::get_stream_taken_elsewhere(std::string_view stream_id) {
  std::lock_guard lock(mutex_);
  if (standalone_ && standalone_->id() != stream_id && !standalone_->look().done) finish(*standalone_);
}

void http_session_transport::release_relayed_streams() {
  std::lock_guard lock(mutex_);
  for (const auto& [id, stream] : by_id_)
    if (stream->relayed()) stream->request_release();
}

std::shared_ptr<message_stream> http_session_transport::take_over_get_stream(const std::string& stream_id,
                                                                             std::uint64_t last_seq,
                                                                             asio::any_io_executor reader) {
  std::lock_guard lock(mutex_);
  if (closed_ || get_stream_read()) return nullptr;
  auto stream = make_stream(stream_id, false, true, std::move(reader));
  stream->continue_after(last_seq);
  become_get_stream(stream);
  return standalone_;
}

bool http_session_transport::get_stream_read() const {
  return standalone_ && standalone_->attached() && !standalone_->look().done;
}

void http_session_transport::become_get_stream(std::shared_ptr<message_stream> stream) {
  if (standalone_) finish(*standalone_);  // (a client that lost it: it will never resume it now)
  standalone_ = std::move(stream);
  by_id_[standalone_->id()] = standalone_;
  if (relay_) relay_->took_get_stream(standalone_->id());
}

std::shared_ptr<message_stream> http_session_transport::open_ended_stream(const std::string& stream_id,
                                                                          asio::any_io_executor reader) {
  auto stream = make_stream(stream_id, false, true, std::move(reader));
  stream->finish();
  return stream;
}

std::size_t http_session_transport::attached_streams() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& [id, stream] : by_id_) n += stream->attached() ? 1 : 0;
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
  std::lock_guard lock(mutex_);
  if (legacy_) {
    to_standalone(std::move(frame));
    return;
  }
  if (direct_ && keep_direct(frame, context)) return;
  if (!context.answers.empty()) {
    const auto it = by_request_.find(context.answers.front());
    if (it == by_request_.end()) return;  // cancelled, or its session ended: nobody to answer
    auto stream = it->second;
    if (context.refused != frame_context::refusal::none) stream->set_refused(context.refused);
    for (const auto& id : context.answers) by_request_.erase(id);
    push(*stream, std::move(frame), context.answers);  // the answer, and the end with the last one owed
    return;
  }
  if (!context.related.empty()) {
    const auto it = by_request_.find(context.related);
    if (it != by_request_.end() && !it->second->json_only() && !it->second->look().done) {
      push(*it->second, std::move(frame));
      return;
    }
  }
  to_standalone(std::move(frame));
}

void http_session_transport::push(message_stream& stream, std::string frame, std::span<const std::string> answers) {
  const auto outcome = stream.push(
      std::move(frame), [&](std::uint64_t seq, const std::string& data) { record(stream.id(), seq, data); }, answers);
  if (relay_ && outcome.last && stream.resumable()) record_end(stream.id());
  // A finished stream can still be replayed from the store, but is no longer live.
  if (outcome.last && !outcome.read) by_id_.erase(stream.id());
}

void http_session_transport::finish(message_stream& stream) {
  const bool ends_now = relay_ && !stream.look().done && stream.resumable() && !stream.relayed();
  // A finished stream can still be replayed from the store, but is no longer live.
  if (!stream.finish()) by_id_.erase(stream.id());
  if (ends_now) record_end(stream.id());
}

void http_session_transport::abandon(const std::string& request_id) {
  std::lock_guard lock(mutex_);
  open_direct_stream(request_id);
  const auto it = by_request_.find(request_id);
  if (it == by_request_.end()) return;
  auto stream = it->second;
  by_request_.erase(it);
  if (stream->settle(request_id)) finish(*stream);
}

void http_session_transport::close_stream(const std::string& request_id) {
  if (!primes_streams()) return;  // the client has no event id to resume from
  std::lock_guard lock(mutex_);
  open_direct_stream(request_id);
  const auto it = by_request_.find(request_id);
  if (it == by_request_.end() || it->second->json_only()) return;
  it->second->request_release();
}

void http_session_transport::to_standalone(std::string frame) {
  if (standalone_ && !standalone_->look().done) {
    push(*standalone_, std::move(frame));
    return;
  }
  // In a cluster another server may hold the GET stream.
  if (relay_) {
    relay_->to_get_stream(frame);
    return;
  }
  // Without a GET stream there is no way to the client: the spec lets such
  // messages go (clients that want them keep a GET stream open).
  sdk_log(log_category::transport, log_level::debug, "no GET stream; a message was dropped",
          {{"session_id", id_}, {"frame", std::string_view(frame).substr(0, 80)}});
}

bool http_session_transport::reaches_client() const {
  std::lock_guard lock(mutex_);
  return !relay_ || (standalone_ && !standalone_->look().done);
}

asio::awaitable<void> http_session_transport::close() {
  end_streams();
  co_return;
}

void http_session_transport::end_streams() {
  std::lock_guard lock(mutex_);
  if (closed_.exchange(true)) return;
  auto streams = std::move(by_id_);
  by_request_.clear();
  for (auto& [id, stream] : streams) finish(*stream);
}

}  // namespace mcp::detail
