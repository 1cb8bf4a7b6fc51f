#pragma once
// The Streamable HTTP transport, client side (spec 2025-11-25, basic/
// transports): each frame a POST; answers as JSON or SSE, read by background
// coroutines; the session id and protocol version header; the GET stream;
// resumption of dropped streams with Last-Event-ID; DELETE on close.

#include "core.hpp"
#include "exchange.hpp"
#include "message_binding.hpp"

#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace mcp::detail::http_client {

class streamable_engine : public std::enable_shared_from_this<streamable_engine> {
 public:
  /// `may_fall_back`: a 400, 404 or 405 to the first `initialize` is
  /// reported (write() returns fall_back) rather than answered as an error.
  streamable_engine(std::shared_ptr<client_core> core, bool may_fall_back);
  ~streamable_engine();

  enum class outcome { sent, fall_back };

  /// POSTs one frame. Returns once it is sent (a request's answer is read in
  /// the background); waits for the answer head of notifications, responses
  /// and `initialize`. Failures become error answers to the frame's requests.
  /// Throws only once closed.
  /// `context.headers`: added to the POST as they are; `context.request`:
  /// what the frame is, when its sender said so (else it is parsed).
  asio::awaitable<outcome> write(std::string frame, frame_context context);

  /// Whether the next write of an `initialize` may still return fall_back.
  bool may_fall_back() const noexcept { return may_fall_back_; }
  /// The status that made write() return fall_back.
  unsigned fallback_status() const noexcept { return fallback_status_; }

  void set_protocol_version(std::string_view version) { version_ = version; }
  const std::string& session_id() const noexcept { return session_id_; }

  /// DELETEs the session (when there is one), ends every stream and waits
  /// (bounded) for the background coroutines. Never throws.
  asio::awaitable<void> close();
  /// Ends everything at once, without a DELETE (the transport is destroyed).
  void abort() noexcept;

 private:
  struct pending_answers;
  struct stream_state;
  class request_slot;
  class awaiting_guard;
  using self_ptr = std::shared_ptr<streamable_engine>;

  request_spec post_spec(std::string body, const outgoing_facts& frame) const;
  request_spec get_spec(const std::string& last_event_id) const;
  void spawn(asio::awaitable<void> task);
  asio::awaitable<bool> sleep(std::chrono::milliseconds delay);
  asio::awaitable<void> acquire_slot();
  void adopt_session(const std::string& header);
  /// The client cancelled this request (JSON text id): stop waiting for its answer.
  void forget(const std::string& request);

  asio::awaitable<void> send_notice(std::string frame, outgoing_facts facts);
  asio::awaitable<void> answer(self_ptr self, std::shared_ptr<http_exchange> exchange, outgoing_facts facts,
                               std::shared_ptr<request_slot> slot, bool head_read);
  asio::awaitable<void> read_json(http_exchange& exchange, pending_answers& pending);
  asio::awaitable<void> read_events(http_exchange& exchange, pending_answers* pending, stream_state& state);
  asio::awaitable<void> deliver(std::string data, std::string_view type, pending_answers* pending,
                                const std::string& where);
  asio::awaitable<void> resume(pending_answers& pending, stream_state& state);
  asio::awaitable<void> listen(self_ptr self, std::uint64_t generation);
  asio::awaitable<void> answer_http_error(http_exchange& exchange, pending_answers& pending);
  asio::awaitable<void> fail_all(pending_answers& pending, const std::string& message);

  std::shared_ptr<client_core> core_;
  bool may_fall_back_;
  unsigned fallback_status_ = 0;
  std::string session_id_;
  std::string version_;
  bool closed_ = false;
  std::size_t free_slots_;
  asio::steady_timer slot_freed_;   // an event: cancelled when a slot frees up
  std::size_t tasks_ = 0;
  asio::steady_timer tasks_done_;   // cancelled when the last background coroutine ends
  std::set<asio::steady_timer*> sleepers_;
  std::map<std::string, pending_answers*> awaiting_;  // requests whose answers are being read, by id
  std::uint64_t listen_generation_ = 0;  // a new session stops the old GET stream
  bool listening_ = false;
};

}  // namespace mcp::detail::http_client
