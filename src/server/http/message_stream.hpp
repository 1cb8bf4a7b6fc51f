#pragma once
// One logical stream of messages to the client over HTTP: the answers to a
// POST's requests (and what their handlers send on the way), or a session's
// GET stream. One HTTP response at a time reads it; it outlives that
// response when it is resumable (its events are then in the event store).
//
// Two sides use a stream, on two strands when the server runs on several
// threads: the session's engine writes to it (through its transport) on the
// session's strand, and the attached response reads it on its connection's
// strand. Every field is behind the stream's mutex, held briefly and never
// across a wait. The reader sleeps on a timer of its own strand, and a
// writer wakes it by dispatching the wake there: at once when it runs there
// already (one thread, or a session its connection serves), else posted.

#include "../../detail/lazy_event.hpp"

#include <mcp/transport/frame.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

namespace asio = boost::asio;

/// An event on its way to an HTTP response.
struct queued_event {
  std::uint64_t seq = 0;  // 0: not an SSE event (a JSON response, a legacy stream)
  std::string data;
};

class message_stream {
 public:
  using refusal = frame_context::refusal;

  /// What the reader sees of the stream at one moment.
  struct view {
    std::size_t pending = 0;         // messages not yet taken
    bool done = false;               // the last message has been queued
    bool release_requested = false;  // close the connection, keep the stream (SSE polling)
    bool client_gone = false;        // the connection of the attached response ended
    refusal refused = refusal::none;  // how its answer refuses its request
  };
  // What a reader waits for (wait()): something to act on (a message, the
  // end, a release), or the end.
  static bool has_news(const view& v) noexcept { return v.pending != 0 || v.done || v.release_requested; }
  static bool is_done(const view& v) noexcept { return v.done; }

  /// A stream read from the start by a response on `reader`'s strand.
  /// `json_only`: a JSON response, so messages that merely serve a request
  /// go elsewhere. `resumable`: an SSE stream whose events have ids and are
  /// recorded. `owed`: the requests (ids as JSON text) it owes answers.
  message_stream(std::string id, bool json_only, bool resumable, asio::any_io_executor reader,
                 std::span<const std::string> owed = {})
      : id_(std::move(id)), json_only_(json_only), resumable_(resumable), awaiting_(owed.begin(), owed.end()),
        attached_(true), reader_(std::move(reader)) {}
  message_stream(const message_stream&) = delete;
  message_stream& operator=(const message_stream&) = delete;

  const std::string& id() const noexcept { return id_; }
  bool json_only() const noexcept { return json_only_; }
  /// Written by another server, whose events are relayed here (push_relayed).
  /// Set before the stream is shared.
  void set_relayed() noexcept { relayed_ = true; }
  /// A reader whose backlog (events queued, not yet taken) grows beyond
  /// `bytes` is cut off, as one 10,000 events behind is: its connection
  /// ends and it resumes from the event store. A single event of any size
  /// still goes out whole. Set before the stream is shared.
  void limit_backlog(std::size_t bytes) noexcept { max_backlog_bytes_ = bytes; }
  /// Numbers its events on from `seq` (a stream taken over from a server
  /// that died, whose events up to `seq` are recorded). Before it is shared.
  void continue_after(std::uint64_t seq) noexcept { last_seq_ = seq; }
  bool relayed() const noexcept { return relayed_; }

  // The writer's side (the session's transport).

  /// The request got its answer (or will get none); true when the stream owes nothing more.
  bool settle(std::string_view request_id);
  /// What push() did.
  struct pushed {
    bool last = false;  // the stream owes nothing more: it has ended
    bool read = false;  // a response reads the stream
  };
  /// Queues a message for the reader; a resumable stream hands it with its
  /// sequence number to `record(seq, text)` first (the event store), in order.
  /// `answers`: the requests it answers; with the last one owed, the stream
  /// ends with this message (the reader sees both at once).
  template <class Record>
  pushed push(std::string frame, Record&& record, std::span<const std::string> answers = {}) {
    pushed outcome;
    change_and_wake([&] {
      const auto seq = ++last_seq_;
      if (resumable_) record(seq, frame);
      if (attached_) queue(seq, std::move(frame));
      for (const auto& id : answers) forget_owed(id);
      outcome.last = !answers.empty() && awaiting_.empty();
      done_ = done_ || outcome.last;
      outcome.read = attached_;
    });
    return outcome;
  }
  /// An event another server wrote and recorded, relayed to the response
  /// here that carries its stream (a stream resumed on another server than
  /// the one running it). Events it has seen already are skipped.
  void push_relayed(std::uint64_t seq, std::string frame);
  /// The last message is queued. True when a response still reads the stream.
  bool finish();
  /// Ends the attached response while the stream goes on (SSE polling).
  void request_release();
  void set_refused(refusal how);

  // The reader's side (the attached response).

  /// A response reads the stream from now on, on `reader`'s strand; false
  /// while another one does.
  bool attach(asio::any_io_executor reader);
  /// The response went away. What follows is kept in the event store only.
  struct detached {
    bool done = false;          // the last message has been queued
    bool owes_nothing = false;  // no answer is owed any more
  };
  detached detach();
  bool attached() const;
  /// Makes the stream resumable: what is queued is handed to `record` now.
  template <class Record>
  void make_resumable(Record&& record) {
    std::lock_guard lock(mutex_);
    if (resumable_) return;
    resumable_ = true;
    for (const auto& event : pending_) record(event.seq, event.data);
  }
  bool resumable() const;
  view look() const;
  /// About how many bytes the queued events take as SSE (room to reserve).
  std::size_t pending_bytes() const;
  /// What is queued, taken, and what the stream showed as it was taken.
  struct batch {
    std::vector<queued_event> events;
    view state;
  };
  batch take();
  /// Waits until `ready` holds of what the stream shows, or the client goes
  /// away; false when `timeout` passed first.
  asio::awaitable<bool> wait(bool (*ready)(const view&),
                             std::chrono::steady_clock::duration timeout = std::chrono::hours(24 * 365));
  /// The connection of the attached response ended (its close watch says so).
  void client_went_away();

 private:
  // Applies `change` with the mutex held, then wakes a sleeping reader.
  template <class Change>
  void change_and_wake(Change&& change) {
    std::shared_ptr<lazy_event> wake;
    {
      std::lock_guard lock(mutex_);
      change();
      wake = wake_reader();
    }
    dispatch_wake(std::move(wake));
  }
  // With the mutex held.
  void queue(std::uint64_t seq, std::string frame);
  void forget_owed(std::string_view request_id);
  view look_locked() const;
  // The reader's wake, when a reader sleeps and no wake is on its way.
  std::shared_ptr<lazy_event> wake_reader();
  // Wakes the reader on its strand (without the mutex: the wake may run at once).
  static void dispatch_wake(std::shared_ptr<lazy_event> wake);

  const std::string id_;
  const bool json_only_;
  bool relayed_ = false;
  mutable std::mutex mutex_;
  bool resumable_;
  // Not yet taken by the attached response, and their bytes.
  // (A vector: a deque allocates even while empty, and there is one per POST.)
  std::vector<queued_event> pending_;
  std::size_t pending_bytes_ = 0;
  std::size_t max_backlog_bytes_ = SIZE_MAX;
  // The reader fell too far behind: nothing more is queued for it (what
  // follows is in the event store), and its response ends.
  bool cut_off_ = false;
  // Ids of requests this stream still owes an answer: mostly one, kept in place.
  boost::container::small_vector<std::string, 1> awaiting_;
  std::uint64_t last_seq_ = 0;
  bool done_ = false;
  bool attached_ = false;
  bool release_requested_ = false;
  bool client_gone_ = false;
  refusal refused_ = refusal::none;
  // The attached response's strand, and its wake there: a new one per
  // attachment, so a wake still on its way to an old reader touches only
  // that reader's.
  asio::any_io_executor reader_;
  std::shared_ptr<lazy_event> wake_;
  bool reader_sleeps_ = false;
  bool wake_sent_ = false;
};

}  // namespace mcp::detail
