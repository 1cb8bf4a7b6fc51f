#pragma once
// The outbound half of a JSON-RPC connection, shared by the server engine and
// the client: a bounded write queue drained by one writer (so replies and
// notifications never interleave on the stream), and the requests we sent
// that still await a response: protocol/call_table decides (ids, deadlines,
// progress, the `notifications/cancelled` to send), and each waiting call
// sleeps on a timer of its own. On a transport that writes at once
// (message_transport::writes_at_once) frames skip the queue, and there is no
// writer.

#include "../protocol/call_table.hpp"

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/transport/transport.hpp>

#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mcp::detail {

struct peer_limits {
  std::size_t max_queued_bytes = 16 * 1024 * 1024;
  /// A single frame write that takes longer than this means the peer stopped
  /// reading: the connection is closed.
  std::chrono::milliseconds write_timeout{30'000};
};

struct call_settings {
  std::chrono::milliseconds timeout{30'000};  ///< reset by each progress notification
  std::chrono::milliseconds max_total{600'000};
  /// When set, the request carries `_meta.progressToken` and each matching
  /// `notifications/progress` params object is handed here.
  std::function<void(const json::object&)> on_progress = {};
  /// Transport headers of the request (frame_context::headers).
  std::vector<std::pair<std::string, std::string>> headers = {};
  /// The trace the request continues: the client writes it to `_meta`
  /// before the request reaches the peer, which ignores it.
  trace_context trace = {};
  /// JSON members (`"k":v,...`) the request's `_meta` carries besides its
  /// own, written as they are: the client's 2026-07-28 envelope, serialized
  /// once per client. None of their keys may be in the params' `_meta`.
  std::shared_ptr<const std::string> meta_members = {};
  /// What the request is, for the transport (frame_context::request); the
  /// peer fills in its id.
  std::optional<sent_request> request = {};
  /// The client's, not the peer's: a 2026-07-28 InputRequiredResult is the
  /// call's result, not answered by the client (client::relay_request).
  bool pass_input_rounds = false;
};

class rpc_peer {
 public:
  rpc_peer(message_transport& transport, peer_limits limits);
  ~rpc_peer();
  rpc_peer(const rpc_peer&) = delete;
  rpc_peer& operator=(const rpc_peer&) = delete;

  /// Starts the writer on the transport's executor; it holds `keep_alive` until it stops.
  void start(std::shared_ptr<void> keep_alive = {});

  /// Queues a frame; waits while the queue is over its bound. Throws
  /// system_error(connection_aborted) once the connection is closed.
  ///
  /// g++ 12 miscompiles class temporaries in an expression that suspends
  /// (they are destroyed twice), so callers serialize into a named string
  /// first, and this takes only that string.
  asio::awaitable<void> send(std::string frame, frame_context context);
  /// A frame that belongs to no request. (An overload, not a defaulted
  /// aggregate argument: see docs/compilers.md.)
  asio::awaitable<void> send(std::string frame);

  /// Queues a frame without waiting, past the bound if need be: for callers
  /// that wait_for_space() before they produce more. Throws
  /// system_error(connection_aborted) once the connection is closed.
  void post(std::string frame, frame_context context);
  /// Waits while the queue is over its bound (or until the connection closes),
  /// and yields to an idle writer once a few frames are queued.
  asio::awaitable<void> wait_for_space();
  /// wait_for_space() would not wait: callers check this first, and skip a
  /// coroutine in the common case.
  bool has_space() const noexcept;

  /// Sends a request and waits for its response. Returns the result object;
  /// throws protocol_error for an error response, system_error(timed_out)
  /// after the timeout (having sent `notifications/cancelled`),
  /// operation_aborted when the caller cancels (likewise), and
  /// connection_aborted when the connection ends first.
  asio::awaitable<json::object> call(std::string method, json::object params,
                                     call_settings settings, std::string related = {});

  /// Hands a response to the call waiting for it. False when none waits: a
  /// late reply after a timeout or cancellation, or an unknown id.
  bool deliver(message reply);

  /// Routes `notifications/progress` to the call that owns the token.
  void on_progress(const json::object& params);

  /// Ends everything: waiting calls fail, the writer stops after the frames
  /// already queued (bounded by the write timeout).
  void shutdown();

  /// Waits until the writer has flushed the queue and stopped, and its
  /// watchdog with it: after that the peer may be destroyed.
  asio::awaitable<void> drained();

  bool closed() const noexcept { return closed_; }
  /// Nothing to write and no call awaiting a reply: shutdown() needs no drain.
  bool idle() const noexcept { return !writer_running_ && !watchdog_running_ && calls_.empty(); }

 private:
  asio::awaitable<void> write_loop();
  /// Cancels a write that outlives limits_.write_timeout. One timer for the
  /// connection, re-armed about once per timeout rather than once per write.
  asio::awaitable<void> watch_writes();
  struct queued_frame {
    std::string text;
    frame_context context;
  };

  /// Writes the next frame, or on a transport that batches writes every
  /// frame queued (bounded); failure as a value.
  asio::awaitable<boost::system::error_code> write_next();
  void enqueue(std::string frame, frame_context context = {});

  message_transport& transport_;
  peer_limits limits_;
  // The write queue and its writer's timers; absent on a transport that
  // writes at once. Held by pointer, not in an optional: an HTTP session
  // then carries 8 bytes for it, not the 600 of the queue's room.
  struct write_queue {
    explicit write_queue(const asio::any_io_executor& ex)
        : queue_ready(ex), queue_space(ex), writer_done(ex), watchdog(ex) {
      // Used as events: they never expire, cancel() wakes the waiters.
      queue_ready.expires_at(std::chrono::steady_clock::time_point::max());
      queue_space.expires_at(std::chrono::steady_clock::time_point::max());
      writer_done.expires_at(std::chrono::steady_clock::time_point::max());
    }
    std::deque<queued_frame> frames;
    std::size_t bytes = 0;
    asio::steady_timer queue_ready;  // cancelled to wake the writer
    asio::steady_timer queue_space;  // cancelled to wake blocked senders
    asio::steady_timer writer_done;  // cancelled when the writer stops
    asio::steady_timer watchdog;     // the write deadline; never expires while no write runs
  };
  std::unique_ptr<write_queue> q_;
  bool direct() const noexcept { return !q_; }  // the transport writes at once
  asio::cancellation_signal write_cancel_;  // bound to the writer: cancels its write
  std::chrono::steady_clock::time_point write_deadline_ = std::chrono::steady_clock::time_point::max();
  bool watchdog_idle_ = false;
  bool write_stalled_ = false;
  bool writer_running_ = false;
  bool writer_waiting_ = false;  // the writer waits for frames: a yield lets it write
  bool watchdog_running_ = false;
  bool closed_ = false;
  call_table calls_;
  // The timer each waiting call sleeps on, by id: it expires at the call's
  // deadline, and is cancelled (or re-armed) to wake the call.
  std::unordered_map<std::int64_t, asio::steady_timer> waiting_;
};

}  // namespace mcp::detail
