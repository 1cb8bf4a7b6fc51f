#pragma once
// The requests we sent that still await a response, as data: the ids they
// get, the request frames, when each one gives up (a timeout that progress
// resets, capped by a hard deadline), which call a progress notification or a
// response belongs to, and the `notifications/cancelled` a call that gives up
// sends. No I/O and no clock here: the caller says what time it is and arms
// its own timers at the deadlines the table names.

#include <mcp/protocol/jsonrpc.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mcp::detail {

/// A driver opens a call, sends its frame and sleeps until the deadline or a
/// wake-up (deliver and on_progress name the call to wake; close, all of
/// them). Awake, the call is settled (finish), or its deadline moved (sleep
/// again), or it gives up: expire when the deadline passed, cancel when its
/// caller stopped waiting.
class call_table {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  using progress_handler = std::function<void(const json::object&)>;

  /// What a caller asks of one call besides its method and params.
  struct terms {
    std::chrono::milliseconds timeout;    ///< reset by each progress notification of the call
    std::chrono::milliseconds max_total;  ///< the hard deadline, whatever progress says
    /// When set, the request carries `_meta.progressToken` (its id) and each
    /// matching `notifications/progress` params object is handed here.
    progress_handler on_progress = {};
    /// JSON members (`"k":v,...`) written into the request's `_meta` as they
    /// are, besides its own (call_settings::meta_members).
    std::shared_ptr<const std::string> meta_members = {};
  };

  /// A call just opened: the frame to send and when to give up.
  struct opened {
    std::int64_t id;
    std::string frame;
    time_point deadline;
  };

  /// A call whose deadline moved later.
  struct extension {
    std::int64_t id;
    time_point deadline;
  };

  /// Gives the request the next id (the first is 1); the call waits from `now`.
  opened open(std::string method, json::object params, terms asked, time_point now);

  /// Routes the params of a `notifications/progress` to the call whose id is
  /// the (integer) token: its handler first, then the timeout restarts from
  /// `now`. The call whose deadline moved, if one did; nothing for a token
  /// no call with a handler owns, or a deadline already at its cap.
  std::optional<extension> on_progress(const json::object& params, time_point now);

  /// Keeps a response or error response for the call it answers, and names
  /// that call; nothing when none waits (an unknown id, or a late reply
  /// after the call gave up).
  std::optional<std::int64_t> deliver(message reply);

  /// Every waiting call fails: the connection is gone. The driver wakes them all.
  void close();

  /// Answered, or failed by close(): the call waits no more.
  bool settled(std::int64_t id) const;
  time_point deadline(std::int64_t id) const;

  /// The result of a settled call, which leaves the table. Throws
  /// protocol_error for an error response or a result that is not an
  /// object; nothing when the table closed before an answer came.
  std::optional<json::object> finish(std::int64_t id);
  /// The call gave up at its deadline (or its caller did, below): it leaves
  /// the table, and the peer is told with the `notifications/cancelled`
  /// frame returned.
  std::string expire(std::int64_t id);
  std::string cancel(std::int64_t id);
  /// The request was never sent: the call leaves the table, and the peer
  /// need not hear of it.
  void withdraw(std::int64_t id);

  bool empty() const noexcept { return calls_.empty(); }

 private:
  struct call {
    std::chrono::milliseconds timeout;
    time_point hard_deadline;
    time_point deadline;
    progress_handler on_progress;
    std::optional<message> reply;
    bool failed = false;  // closed before an answer came
  };

  std::string give_up(std::int64_t id, std::string_view reason);

  std::int64_t next_id_ = 1;
  std::unordered_map<std::int64_t, call> calls_;
};

}  // namespace mcp::detail
