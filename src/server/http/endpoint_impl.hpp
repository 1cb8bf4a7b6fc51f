#pragma once
// The state of an http_endpoint, shared by the files that implement it:
// endpoint.cpp (channels, sessions, shutdown), streamable.cpp (POST / GET /
// DELETE of Streamable HTTP), legacy_sse.cpp (the 2024-11-05 transport),
// responses.cpp (writing JSON and SSE responses), auth_gate.cpp (OAuth),
// cluster.cpp (servers sharing a message bus), websocket.cpp. Its drivers:
// the built-in listener (listener.cpp: connections read from sockets) and
// the exchanges of an application's own server (exchange.cpp). Both hand
// each request to dispatch() with the channel its response goes to.
//
// Threads (docs/http.md, "Threads"). With more than one thread, the
// endpoint's own work (idle expiry, shutdown; the listener's accepting) runs
// on its strand (`executor`), each channel on a strand of its own (a
// connection: its socket, its deadlines, the response it writes; an
// exchange: its response), and each session on a strand of its own (its
// engine, handlers, tables). A channel hops to the session's strand for
// what touches the engine (deliver, end_session: each runs itself again
// there when called elsewhere). A session runs on the strand of the channel
// that opened it, so most requests need no hop. The session's streams are
// shared by the two behind their own mutexes (message_stream.hpp). The
// tables of sessions and channels are behind `tables`, never held across a
// wait. With one thread every strand is the executor itself and no hop is
// made.

#include <mcp/server/http_endpoint.hpp>

#include "../../auth/dpop_proof.hpp"
#include "../../protocol/http_rules.hpp"
#include "../../transport/http/server/response_channel.hpp"
#include "request_rules.hpp"
#include "served_request.hpp"
#include "http_session.hpp"
#include "http_telemetry.hpp"
#include "listen_stream.hpp"

#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mcp {

namespace detail {
struct exchange_state;
}

using detail::close_watch;
using detail::response_channel;
using detail::http_request;
using detail::served_request;
using detail::known_header;
using detail::http_session;
using detail::http_session_transport;
using detail::message_stream;
using detail::listen_stream;
namespace http = detail::http;

/// The absolute URL of the Protected Resource Metadata of `resource` (RFC 9728 §3.1).
std::string resource_metadata_url_of(std::string_view resource);
/// `scheme://authority` of the resource URL.
std::string origin_of_resource(std::string_view resource);
/// How many threads run an endpoint: `options.threads`, or (0) one per core.
unsigned threads_of(const http_endpoint_options& options);

struct http_endpoint::impl final : std::enable_shared_from_this<impl>, detail::listen_stream_owner {
  using clock = std::chrono::steady_clock;
  // After the forced shutdown: the engine gives cancelled requests 1 s to
  // end; a handler that ignores cancellation past this is left behind.
  static constexpr std::chrono::milliseconds abandon_after{1500};

  struct string_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };

  struct session_entry {
    std::shared_ptr<http_session> session;
    clock::time_point last_activity = clock::now();
    clock::time_point last_store_touch = clock::now();
    bool legacy = false;  // ends with its one stream; not in the session store
    std::string owner;    // with OAuth: the identity of the principal that opened it
  };

  // A channel requests come through: a connection of the listener, or an
  // exchange. The fields are read and written on the channel's strand only
  // (the table itself is behind `tables`).
  struct connection_entry {
    std::uint64_t number = 0;        // its key in the table
    asio::any_io_executor executor;  // the channel's strand
    response_channel* io = nullptr;
    // What stop() does to the channel while it waits for a request (a
    // listener's connection stops reading; one in its TLS handshake gives
    // it up); `forced`: the deadline passed. Null: nothing (an exchange).
    std::function<void(bool forced)> stop_waiting = nullptr;
    bool busy = false;  // between reading a request and finishing its response
    std::shared_ptr<listen_stream> listen;  // the listen stream that holds the channel, once it does
  };

  // The live session a request names, or why not (400 without an id, 404 unknown or ended).
  struct session_lookup {
    std::shared_ptr<http_session> session;
    http::status status = http::status::ok;
    std::string refusal;
  };

  // How an SSE response starts: the session id header (on initialize), a
  // priming event, and events replayed from the store.
  struct stream_start {
    std::string session_header;
    bool prime = false;
    std::vector<stored_event> replay;
    std::string preamble;  // raw SSE text written first (the legacy endpoint event)
    detail::stream_kind kind = detail::stream_kind::post;  // (for its telemetry)
    std::string_view last_event_id;                        // where a resumed stream resumes
  };

  impl(asio::any_io_executor ex, server_behaviour& b, http_endpoint_options o);

  // endpoint.cpp
  // Starts the endpoint's own work (idle expiry, keep-alives, the cluster):
  // once, right after it is made.
  void start();
  // A new channel in the table (counted from here: shutdown waits for it);
  // its entry stays put until close_channel(), and is its strand's.
  connection_entry& open_channel(asio::any_io_executor strand, response_channel* io,
                                 std::function<void(bool forced)> stop_waiting);
  // The channel leaves the table.
  void close_channel(std::uint64_t number);
  // exchange.cpp: serves one request of an application's server (async_handle).
  asio::awaitable<void> serve_exchange(http_endpoint_request request, std::shared_ptr<detail::exchange_state> state);
  // Calls `done` once the endpoint has stopped (at once if it has).
  void when_stopped(asio::any_completion_handler<void()> done);
  // A strand for a connection or a session; the executor itself with one thread.
  asio::any_io_executor make_strand() const;
  // Hands a POST's frame to the session's engine on its strand, the
  // principal bound first when `rebind` (a refreshed token), once the
  // session has room for it when `wait_for_room` (never for responses: the
  // requests that fill the session may wait for them). False when the
  // session ended meanwhile (nothing was served).
  asio::awaitable<bool> deliver(const std::shared_ptr<http_session>& session, const served_request& req,
                                inbound_frame frame, bool rebind, bool wait_for_room);
  // What handing a frame over did: `delivered` as deliver() says it, and
  // what is left of the frame for the engine's accept_rest().
  struct delivery {
    bool delivered = false;
    std::optional<detail::server_engine::frame_rest> rest;
  };
  // deliver() without a coroutine, where it would not wait: the session on
  // `here`, with room for the frame (nearly always). nullopt: nothing was
  // done, deliver() it.
  std::optional<delivery> deliver_at_once(http_session& session, const served_request& req, inbound_frame& frame,
                                          bool rebind, bool wait_for_room, const asio::any_io_executor& here);
  // deliver()'s last step, on the session's strand once there is room.
  delivery hand_over(http_session& session, const served_request& req, inbound_frame&& frame, bool rebind);
  std::size_t session_count() const;
  // Wakes wait_until_quiet() when a session or connection ended while stopping.
  void note_ended();
  asio::awaitable<bool> dispatch(response_channel& io, served_request& req);
  asio::awaitable<void> reap_idle_sessions();
  // Counts a session whose client reads one of its streams as active.
  asio::awaitable<void> keep_listening_session(const std::string& id);
  // The connection that served a listen POST is its stream's from now on
  // (the request's coroutines and JSON end here).
  // `connection_events`: its connection's telemetry (a listener's; null for an exchange).
  void hand_over_connection(std::shared_ptr<listen_stream> stream, std::unique_ptr<response_channel> io,
                            std::uint64_t number, const detail::connection_telemetry* connection_events);
  void listen_connection_closed(std::uint64_t number) override;
  // The listen streams of the connections, with their strands (taken under `tables`).
  std::vector<std::pair<asio::any_io_executor, std::shared_ptr<listen_stream>>> held_listens() const;
  // Every keep_alive_interval, a comment on each listen stream that was quiet since the last.
  asio::awaitable<void> keep_listens_alive();
  asio::awaitable<void> wait_until_quiet();
  // After stop(): waits until quiet, then lets go of what the endpoint
  // joined and made, and calls what when_stopped() was given.
  asio::awaitable<void> drain();
  // The session `id` names, when the answer needs no session store (the
  // common case, without waiting); nullopt: ask find_session. A session of
  // another principal is unknown (404) to this one.
  std::optional<session_lookup> find_session_here(std::string_view id, const served_request& req);
  // The session `id` names: served here, or resumed from the session store.
  asio::awaitable<session_lookup> find_session(response_channel& io, const served_request& req,
                                               std::string_view id);
  // The copy reads in `state`, at `version`, which the store's refresh()
  // gave since another copy saved a change, on its strand.
  asio::awaitable<void> refresh_shared_state(std::shared_ptr<http_session> session, std::uint64_t version,
                                             json::object state);
  // What a session started here is: one of Streamable HTTP (recorded in
  // the session store, shared in a cluster), a legacy HTTP+SSE one (it
  // lives and dies with its one stream), or one that serves a single POST
  // (stateless serving, a 2026-07-28 request).
  enum class session_kind { streamable, legacy, alone };
  // A new session, its engine started for the request's principal. It runs
  // on the strand of the connection that opens it: a client that keeps to
  // one connection (most do) never makes its requests hop.
  asio::awaitable<std::shared_ptr<http_session>> start_session(std::string id, const served_request& req,
                                                               response_channel& io, session_options engine,
                                                               session_kind kind);
  // Ends this server's copy of a session (its calls in flight are cancelled)
  // and comes back once it has.
  asio::awaitable<void> end_session(std::shared_ptr<http_session> session);
  // The same, telling the session's telemetry why it ends (session_expired, session_deleted).
  asio::awaitable<void> end_session(std::shared_ptr<http_session> session, telemetry::event reason);
  // The same, on the session's strand.
  void end_session_here(const std::shared_ptr<http_session>& session,
                        telemetry::event reason = telemetry::event::session_closed);
  // The session leaves the table (once its engine has ended).
  void forget_entry(const std::shared_ptr<http_session>& session);
  // Runs the session's engine's finish(), on its strand; the session leaves
  // the table after.
  void finish_session(const std::shared_ptr<http_session>& session, bool drain);
  // Ends a session for good: its record and its events go.
  asio::awaitable<void> forget_session(std::string id);
  void begin_shutdown();
  void force_shutdown();
  // stop() reaches a channel (on its strand): one waiting for a request
  // stops waiting; `forced_now`: any.
  void stop_channel(std::uint64_t number, bool forced_now);

  // streamable.cpp
  asio::awaitable<bool> handle_post(response_channel& io, served_request& req);
  // A 2026-07-28 POST: its routing headers checked, then served alone.
  asio::awaitable<bool> handle_modern_post(response_channel& io, served_request& req, json::value body,
                                           const detail::body_summary& summary);
  // Serves a POST in an engine of its own, ended with it (stateless legacy
  // serving, and every modern request).
  asio::awaitable<bool> serve_alone(response_channel& io, served_request& req, json::value body,
                                    const detail::body_summary& summary, session_options engine,
                                    protocol_era era);
  /// `body` is the request's body as JSON; `alone`: the session lives only
  /// for this POST (its stream cannot be resumed); `rebind`: the session
  /// serves the request's principal from now on (a refreshed token).
  asio::awaitable<bool> answer_post(response_channel& io, served_request& req, json::value body,
                                    std::shared_ptr<http_session> session,
                                    std::span<const std::string> request_ids,
                                    std::string session_header, bool alone, bool rebind);
  // One request's answer as a JSON response: with the status its refusal
  // asks for (a step-up challenge for missing scopes).
  asio::awaitable<bool> reply_answer(response_channel& io, served_request& req, std::string answer,
                                     frame_context::refusal refused, const std::string& session_header);
  // The head of a listen stream's response and its acknowledgement; then
  // the connection is handed over to the stream (req.taken_over).
  asio::awaitable<bool> open_listen_response(response_channel& io, served_request& req,
                                             std::shared_ptr<listen_stream> stream);
  asio::awaitable<bool> handle_get(response_channel& io, served_request& req);
  asio::awaitable<bool> resume_stream(response_channel& io, served_request& req,
                                      std::shared_ptr<http_session> session,
                                      std::string_view last_event_id);
  asio::awaitable<bool> handle_delete(response_channel& io, served_request& req);

  // cluster.cpp (servers sharing a message bus, docs/scale-out.md)
  // The session's copy here joins the others: its streams relay what they
  // record, and it listens to the session's channel while it lives.
  asio::awaitable<void> join_cluster(const std::shared_ptr<http_session>& session);
  // What another copy of a session relayed (on the bus's strand).
  void on_relayed(const std::weak_ptr<http_session>& session, std::string_view text);
  // The client's answers, cancellations and progress in a POST body, for
  // the copies where the requests they concern run.
  void relay_client_messages(http_session& session, const json::value& body) const;
  // A stream this server does not have live, when the store has its record
  // (null otherwise): one relayed from the server that writes it, or, when
  // that server is dead, what it recorded, with an error for each request
  // it left unanswered (a GET stream is taken over instead). Fills
  // `start.replay`.
  asio::awaitable<std::shared_ptr<message_stream>> resume_from_cluster(http_session_transport& streams,
                                                                        const std::string& stream_id,
                                                                        std::uint64_t after_seq,
                                                                        asio::any_io_executor reader,
                                                                        stream_start& start);
  // Every copy of the session ends.
  void announce_session_end(const std::string& id) const;
  // While a response carries a stream `writer` relays, checks now and then
  // that the writer lives; once it does not, lets the response go, and the
  // client's next resumption answers what the dead writer owed.
  asio::awaitable<void> watch_writer(std::shared_ptr<message_stream> relayed, std::string writer);
  static constexpr std::chrono::milliseconds writer_check_interval{1000};
  // The behaviour joins the cluster (server_behaviour::join_cluster), tried
  // again every second while the bus is unreachable.
  asio::awaitable<void> join_behaviour_to_cluster();

  // auth_gate.cpp (OAuth 2.1, when options.auth is set)
  bool is_metadata_path(std::string_view path) const;
  // The paths is_metadata_path() takes.
  std::vector<std::string> metadata_paths() const;
  // The Protected Resource Metadata (RFC 9728).
  asio::awaitable<bool> serve_resource_metadata(response_channel& io, const http_request& req);
  // Checks the request's bearer token and the server's required scopes: sets
  // req.principal and returns true, or answers (400, 401, 403, 503) and
  // returns false, `keep` telling whether the connection stays.
  asio::awaitable<bool> authenticate(response_channel& io, served_request& req, bool& keep);
  // A 401 or 403 (or 400) with its WWW-Authenticate challenges.
  // Reports the refusal (auth.token.refused), timed from `checking_since`.
  asio::awaitable<bool> reply_challenge(response_channel& io, const served_request& req, http::status status,
                                        std::string error, std::string description,
                                        std::vector<std::string> scopes,
                                        std::chrono::steady_clock::time_point checking_since);
  // The WWW-Authenticate fields: Bearer and DPoP (as the options say), the
  // error on the scheme the request used.
  std::string challenge_fields(const served_request& req, const std::string& error, const std::string& description,
                               const std::vector<std::string>& scopes) const;
  // The DPoP proof of a request whose token came with the DPoP scheme and
  // is bound to `jkt`: empty when good, else why not.
  std::string check_dpop(const served_request& req, std::string_view token, const std::string& jkt);
  // The scopes a 403 for a refused request names: the server's and the
  // request's own (its JSON-RPC error data), all at once (step-up).
  std::vector<std::string> challenge_scopes(std::string_view answer) const;
  // Whether the request's principal may use a session opened by `owner`.
  static bool same_owner(const std::string& owner, const served_request& req);
  // The session serves the request's principal from now on (a refreshed token).
  static void bind_principal(http_session& session, const served_request& req);
  std::string resource_metadata_url;  // absolute, for the challenges
  std::string resource_origin;        // scheme://authority of the resource: DPoP proofs name it
  std::mutex dpop_mutex;
  auth::detail::dpop_replay_cache dpop_replay;  // under dpop_mutex
  // Where the token verifier runs: verifiers (JWKS and token caches) are
  // used from one strand.
  asio::any_io_executor verifier_strand;

  // metrics_endpoint.cpp
  // GET of the metrics path: the registry's text (Host and Origin checked, no OAuth).
  asio::awaitable<bool> serve_metrics(response_channel& io, const served_request& req);

  // legacy_sse.cpp
  asio::awaitable<bool> handle_legacy_stream(response_channel& io, served_request& req);
  asio::awaitable<bool> handle_legacy_post(response_channel& io, served_request& req);

  // websocket.cpp (MCP over WebSocket, docs/transports.md)
  // A GET asking for a WebSocket upgrade.
  static bool wants_websocket(const http_request& req);
  // Upgrades the connection (after the checks of dispatch) and serves it as
  // one MCP connection until it ends; false: the connection is done.
  asio::awaitable<bool> handle_websocket(response_channel& io, served_request& req);
  std::atomic<std::size_t> websocket_sessions = 0;  // counted in session_count()
  // What ends each WebSocket connection, by its connection (under `tables`;
  // called on the connection's strand): in order, or (forced) at once.
  std::unordered_map<const response_channel*, std::function<void(bool forced)>> websocket_stops;

  // responses.cpp
  asio::awaitable<bool> reply(response_channel& io, const http_request& req, http::status status,
                              std::string body, std::string_view content_type,
                              std::string_view session_header, std::string_view extra_fields = {});
  asio::awaitable<bool> reply_error(response_channel& io, const http_request& req, http::status status,
                                    int code, std::string message);
  asio::awaitable<bool> reply_status(response_channel& io, const http_request& req, http::status status);
  // 413 for a request whose body is over max_body_size.
  asio::awaitable<bool> refuse_too_large_body(response_channel& io, const http_request& req);
  asio::awaitable<bool> write_event_stream(response_channel& io, const http_request& req,
                                           http_session_transport& session,
                                           std::shared_ptr<message_stream> stream,
                                           stream_start start);
  // An SSE response whose one event is an answer that came at once: the
  // head, the priming event when the stream is resumable and the session's
  // revision primes, and the answer, in one write.
  asio::awaitable<bool> write_answer_event(response_channel& io, const http_request& req,
                                           http_session_transport& session,
                                           http_session_transport::answered_event event,
                                           const std::string& session_header);
  // The head of an SSE response.
  detail::response_head event_stream_head(const http_request& req, std::string_view session_header) const;
  bool keep_alive(const http_request& req) const { return req.keep_alive() && !stopping; }

  asio::any_io_executor io;        // what the threads run
  unsigned threads;                // how many run it
  asio::any_io_executor executor;  // the server's own strand
  server_behaviour& behaviour;
  http_endpoint_options options;
  shared_stores shared;  // what options named or make_stores made
  std::shared_ptr<event_store> events;
  std::shared_ptr<session_store> store;
  std::shared_ptr<message_bus> bus;  // null: this server shares nothing live
  std::string server_tag;            // names this server's messages on the bus
  asio::steady_timer reaper;   // cancelled by stop(), so that nothing outlives the endpoint
  asio::steady_timer quiet;    // cancelled when a session or channel ends while stopping
  asio::steady_timer listen_sweep;  // keep_listens_alive(); cancelled by stop()
  std::atomic<bool> stopping = false;
  bool forced = false;        // what runs was cancelled (the deadline, or a second stop()); on `executor`
  bool stopped = false;       // drain() is over; on `executor`
  // when_stopped(); on `executor`. (A list: a vector would copy them as it
  // grows, which Boost 1.81's any_completion_handler allows and gets wrong.)
  std::list<asio::any_completion_handler<void()>> stop_waiters;
  mutable std::mutex tables;  // guards the two tables below
  // Hashed, and found by the header's own text (transparent lookup).
  std::unordered_map<std::string, session_entry, string_hash, std::equal_to<>> sessions;
  std::map<std::uint64_t, connection_entry> connections;
  std::uint64_t next_connection = 0;
  std::atomic<std::uint64_t> stateless_requests = 0;  // names the per-request sessions of stateless serving
};

}  // namespace mcp
