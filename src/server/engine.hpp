#pragma once
// The server engine: the driver of one connection's protocol core
// (protocol/server_connection.hpp) on Asio. The core decides what each
// message of a frame comes to (the lifecycle, the era, batches, the ids in
// use, cancellation); the engine runs what it asks for: handlers, each
// request as a coroutine with its own cancellation, notification handlers
// in order, and the writes through its transport.
//
// Both eras go through it. A legacy request is served in the connection's
// session, which `initialize` opened. A 2026-07-28 request carries its own
// envelope in `_meta` and is served in a session of its own, made from the
// envelope and gone with the request (engine_modern.cpp). On a stream the
// first request decides the era of the connection; HTTP gives every modern
// POST an engine of its own.
//
// Stream transports (stdio, in-memory) get a read loop around it, serve().
// An HTTP session has no loop and no coroutine of its own while it is idle:
// each POST hands its body to accept(), and the replies reach the POST's
// stream through the session transport, which writes at once. An idle
// session is then just this object and its transport, and a stateless POST
// builds one without starting anything.

#include <mcp/server/serve.hpp>
#include <mcp/telemetry/events.hpp>

#include "../detail/lazy_event.hpp"
#include "../detail/rpc_peer.hpp"
#include "../detail/signalled_run.hpp"
#include "../protocol/server_connection.hpp"
#include "../protocol/input_round.hpp"

#include <boost/asio/steady_timer.hpp>

#include <memory>
#include <optional>

namespace mcp::detail {

/// A transport that holds subscriptions/listen streams itself (HTTP, where
/// each is a response of its own): the engine hands a listen over once it
/// is acknowledged, and keeps nothing of it.
class listen_host {
 public:
  /// Takes the stream of listen request `id`: `acknowledgement` (a frame)
  /// goes first on it, then what `listener` is sent. Returns where the
  /// session's notifications go (filtered and tagged on the way). The
  /// behaviour's init(listener) follows at once; its terminate() is the
  /// host's to call when the stream ends.
  virtual std::shared_ptr<connection_link> hold_listen(const request_id& id, std::string acknowledgement,
                                                       std::shared_ptr<session> listener) = 0;

 protected:
  ~listen_host() = default;
};

class server_engine {
 public:
  server_engine(server_behaviour& behaviour, message_transport& transport, session_options options);
  // Runs on the connection's executor, like everything that touches the engine.
  ~server_engine();
  server_engine(const server_engine&) = delete;
  server_engine& operator=(const server_engine&) = delete;

  /// Starts serving: the writer of a transport that queues its writes, and
  /// the session of `session_options::assume_initialized`.
  void start();

  /// Serves one inbound frame: answers what needs no handler at once and
  /// starts the requests it carries. Frames are served in the order given.
  asio::awaitable<void> accept(inbound_frame frame);

  /// What is left of a frame take() could not finish: a notification whose
  /// handler must be awaited, then the rest of the frame. (The notification
  /// lives in the cursor's messages, which stay put when the cursor moves.)
  struct frame_rest {
    server_connection::frame_cursor cursor;
    notification* waiting;
  };
  /// accept() without a coroutine: does everything up to the frame's first
  /// notification (requests carry none, so nearly always all of it), and
  /// returns what is left for accept_rest().
  std::optional<frame_rest> take(inbound_frame&& frame);
  asio::awaitable<void> accept_rest(frame_rest rest);
  /// Reads the transport's frames and serves them until its input ends: a
  /// stream transport's loop (HTTP hands each POST to accept() instead).
  /// Throws what the read throws.
  asio::awaitable<void> serve_frames();

  /// Listen streams go to `host` from now on (null: they run here). The
  /// host outlives the requests it may be handed.
  void set_listen_host(listen_host* host) noexcept { listen_host_ = host; }

  /// Fixes the era of the connection before its first request (HTTP knows
  /// it from the POST); a stream's first request decides it otherwise.
  void set_era(protocol_era era) noexcept { core_.set_era(era); }

  /// The session's shared state as the session store has it now (another
  /// copy of the session changed it): read in at once.
  void load_shared_state(const json::object& state) { session_->load_shared_state(state); }

  /// Who the next requests come from (OAuth): their sessions see it, and a
  /// requestState is bound to its identity rather than to the token.
  void set_principal(std::shared_ptr<const auth::principal> who) noexcept { session_->principal_ = std::move(who); }

  /// True while the session runs as many requests as its options allow.
  bool saturated() const noexcept { return core_.requests().running() >= options_.max_requests_in_flight; }
  /// Waits until the session may take another frame: fewer requests in
  /// flight than allowed (or the engine finishing), and room in the write
  /// queue for a reader that does not keep up.
  asio::awaitable<void> wait_for_room();
  /// wait_for_room() would not wait: checked first, it spares a coroutine.
  bool has_room() const noexcept { return (!saturated() || finishing_) && peer_.has_space(); }

  /// Ends the session: with `drain`, requests still running get the drain
  /// timeout to finish (their replies still go out), unless the awaiting
  /// coroutine is cancelled; then the rest are cancelled, the behaviour's
  /// terminate() runs, and the transport is closed. Call once; the engine may
  /// be destroyed when it returns.
  asio::awaitable<void> finish(bool drain);
  /// finish() at once, without a coroutine, when nothing runs and nothing
  /// waits to be written: true when done. The transport is left to the
  /// caller to close. (A stateless POST ends its session this way.)
  bool finish_if_idle();
  /// The engine has finished: it takes no more frames.
  bool ended() const noexcept { return ended_; }
  /// Why the session will end, for its telemetry event: session_closed (the
  /// default), session_expired or session_deleted. Set before finish().
  void set_end_reason(telemetry::event reason) noexcept { end_reason_ = reason; }

 private:
  struct link;
  using in_flight = signalled_run;
  using batch_id = server_connection::batch_id;

  static std::shared_ptr<session> make_session(message_transport& transport);
  // Runs what the core asks for, except a notification (handle_notification,
  // awaited by accept()).
  void perform(server_connection::action&& action);
  // Performs the cursor's actions up to its next notification, returned for
  // its handler to be awaited; nullptr when the frame is done.
  notification* perform_until_notification(server_connection::frame_cursor& cursor);
  asio::awaitable<void> handle_notification(notification n);
  // Opens the legacy session `initialize` asked for, and answers it.
  void open_session(server_connection::open_session& hello);
  // The answer of `initialize` once options_.on_initialized has run.
  asio::awaitable<void> answer_once_recorded(protocol_version version, message reply, negotiated_session settled);
  // Starts a request (either era) once it is admitted: at once, or as a coroutine.
  void serve(request req, batch_id batch, std::shared_ptr<session> s,
             std::unique_ptr<input_round> round);
  // The reply of a request the behaviour serves at once; nullopt: it must be run.
  std::optional<message> serve_at_once(const request& req, session& s, input_round* round);
  asio::awaitable<void> run_request(request req, std::shared_ptr<in_flight> entry, batch_id batch,
                                    std::shared_ptr<session> s, std::unique_ptr<input_round> round);
  // Saves `changes` of the session's shared state (options_.save_state); when
  // it cannot, `reply` becomes an error saying so.
  asio::awaitable<void> save_shared_state(const request& req, json::object changes, message& reply);
  // The answer of a request that was started (in flight): written, and the
  // waiters for requests in flight woken.
  void send_answer(const request_id& id, batch_id batch, message reply, bool modern);
  // The answer of a request served at once that changed the shared state:
  // sent once the change is saved (`entry` is its place among the requests
  // in flight until then).
  asio::awaitable<void> answer_after_saving(request req, message reply, batch_id batch,
                                            std::shared_ptr<in_flight> entry, json::object changes);
  // The reply for what the handler returned; `round` is set on a modern request.
  message success_reply(const request& req, json::object result, const input_round* round) const;
  // The error reply for a handler's exception (logged unless the request was
  // cancelled), or the InputRequiredResult of a modern request.
  message failure_reply(const request& req, const session& s, std::exception_ptr failure, bool cancelled,
                        const input_round* round) const;

  // engine_modern.cpp: the 2026-07-28 era.
  void handle_modern_request(server_connection::serve_modern_request& admitted);
  std::shared_ptr<session> make_request_session(request_envelope& envelope, protocol_version version);
  // subscriptions/listen: acknowledges, then holds the request open (or
  // hands it to the listen host); the behaviour sees its session like a
  // legacy one (init, terminate) and notifies it, filtered and tagged on
  // the way out.
  void start_listen(request req, request_envelope& envelope, protocol_version version);
  asio::awaitable<void> run_listen(request req, std::shared_ptr<session> s, json::object acknowledgement);
  // The server ends its listen streams, each with its closing result.
  void close_listens();
  // resultType, caching hints and serverInfo, on a modern result.
  json::object finish_modern_result(const request& req, json::object result) const;
  message input_required_reply(const request& req, const input_required& need,
                               const input_round& round) const;
  // Who a requestState is bound to: the OAuth identity, or the client's credentials.
  std::string client_principal() const;
  // Replies are queued past the bound on queued bytes: the read loop waits
  // for room before it reads more (wait_for_room), which bounds them.
  void write(std::optional<outgoing_frame>&& frame);
  void write(answered&& reply);
  asio::awaitable<void> send_in_background(notification n, std::string related);
  // Waits up to `limit` for the running requests (and background sends) to
  // end; `until_stopped`: or until the awaiting coroutine is cancelled.
  asio::awaitable<void> wait_for_requests(std::chrono::milliseconds limit, bool until_stopped);
  void cancel_all();
  // The end of finish(): the behaviour forgets the session, the peer closes.
  void end();

  server_behaviour& behaviour_;
  message_transport& transport_;
  session_options options_;
  rpc_peer peer_;
  server_connection core_;
  input_rounds rounds_;
  std::uint64_t modern_requests_ = 0;  // names their sessions
  listen_host* listen_host_ = nullptr;
  std::shared_ptr<link> link_;
  std::shared_ptr<session> session_;
  std::size_t background_sends_ = 0;  // posted notifications still being sent
  // Notified when a request ends (or the engine finishes). Most sessions,
  // and every stateless POST, never wait on it.
  lazy_event in_flight_changed_;
  bool finishing_ = false;
  bool ended_ = false;
  // Set when `initialize` opened the session here: its end is reported then.
  std::optional<std::chrono::steady_clock::time_point> created_at_;
  telemetry::event end_reason_ = telemetry::event::session_closed;
};

}  // namespace mcp::detail
