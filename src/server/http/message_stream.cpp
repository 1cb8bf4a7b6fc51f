#include "message_stream.hpp"

#include <mcp/log.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail {

namespace {
// A reader this far behind is cut off; it resumes from the event store.
constexpr std::size_t max_pending_events = 10'000;
}  // namespace

bool message_stream::settle(std::string_view request_id) {
  std::lock_guard lock(mutex_);
  forget_owed(request_id);
  return awaiting_.empty();
}

void message_stream::forget_owed(std::string_view request_id) {
  if (const auto it = std::ranges::find(awaiting_, request_id); it != awaiting_.end()) awaiting_.erase(it);
}

void message_stream::queue(std::uint64_t seq, std::string frame) {
  // While its response is stuck writing to a client that does not read, a
  // reader cut off would otherwise go on queueing all the while.
  if (cut_off_) return;
  pending_bytes_ += frame.size();
  pending_.push_back({seq, std::move(frame)});
  const bool too_far_behind =
      pending_.size() > max_pending_events || (pending_bytes_ > max_backlog_bytes_ && pending_.size() > 1);
  if (too_far_behind) {
    sdk_log(log_category::transport, log_level::warn, "an SSE reader fell too far behind; closing its connection",
            {{"stream_id", id_}, {"events", pending_.size()}, {"bytes", pending_bytes_}});
    cut_off_ = true;
    release_requested_ = true;
  }
}

void message_stream::push_relayed(std::uint64_t seq, std::string frame) {
  change_and_wake([&] {
    if (seq <= last_seq_ || done_) return;
    last_seq_ = seq;
    if (attached_) queue(seq, std::move(frame));
  });
}

bool message_stream::finish() {
  bool read = false;
  change_and_wake([&] {
    done_ = true;
    read = attached_;
  });
  return read;
}

void message_stream::request_release() {
  change_and_wake([&] { release_requested_ = true; });
}

void message_stream::set_refused(refusal how) {
  std::lock_guard lock(mutex_);
  refused_ = how;
}

bool message_stream::attach(asio::any_io_executor reader) {
  std::lock_guard lock(mutex_);
  if (attached_) return false;
  attached_ = true;
  reader_ = std::move(reader);
  wake_.reset();  // made on the first wait: most answers never wait
  return true;
}

message_stream::detached message_stream::detach() {
  std::lock_guard lock(mutex_);
  attached_ = false;
  release_requested_ = false;
  client_gone_ = false;
  reader_sleeps_ = false;
  wake_.reset();
  // Whatever was pending is in the event store; a resumed stream replays it.
  pending_.clear();
  pending_bytes_ = 0;
  cut_off_ = false;
  return {done_, awaiting_.empty()};
}

bool message_stream::attached() const {
  std::lock_guard lock(mutex_);
  return attached_;
}

bool message_stream::resumable() const {
  std::lock_guard lock(mutex_);
  return resumable_;
}

message_stream::view message_stream::look_locked() const {
  return view{pending_.size(), done_, release_requested_, client_gone_, refused_};
}

message_stream::view message_stream::look() const {
  std::lock_guard lock(mutex_);
  return look_locked();
}

std::size_t message_stream::pending_bytes() const {
  std::lock_guard lock(mutex_);
  std::size_t bytes = 0;
  for (const auto& event : pending_) bytes += event.data.size() + 64;
  return bytes;
}

message_stream::batch message_stream::take() {
  std::lock_guard lock(mutex_);
  batch taken{{}, look_locked()};
  taken.events.swap(pending_);
  pending_bytes_ = 0;
  return taken;
}

asio::awaitable<bool> message_stream::wait(bool (*ready)(const view&), std::chrono::steady_clock::duration timeout) {
  for (;;) {
    std::shared_ptr<lazy_event> wake;
    {
      std::lock_guard lock(mutex_);
      const auto now = look_locked();
      if (now.client_gone || ready(now) || !attached_) break;
      if (!wake_) wake_ = std::make_shared<lazy_event>(reader_);
      wake = wake_;
      reader_sleeps_ = true;
      wake_sent_ = false;
    }
    // This runs on the reader's strand: a wake dispatched there runs once
    // the wait below has begun.
    auto& timer = wake->timer();
    timer.expires_after(timeout);
    auto [ec] = co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
    {
      std::lock_guard lock(mutex_);
      reader_sleeps_ = false;
    }
    if (!ec) co_return false;
  }
  co_return true;
}

void message_stream::client_went_away() {
  change_and_wake([&] { client_gone_ = true; });
}

std::shared_ptr<lazy_event> message_stream::wake_reader() {
  if (!reader_sleeps_ || wake_sent_) return nullptr;
  wake_sent_ = true;
  return wake_;
}

void message_stream::dispatch_wake(std::shared_ptr<lazy_event> wake) {
  if (!wake) return;
  const auto reader = wake->executor();
  asio::dispatch(reader, [wake = std::move(wake)] { wake->notify(); });
}

}  // namespace mcp::detail
