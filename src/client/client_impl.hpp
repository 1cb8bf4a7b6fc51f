#pragma once
// The state of an mcp::client, shared by client.cpp (connection, reading,
// dispatch), session.cpp (handshake, renewal, reconnection), calls.cpp (the
// typed calls) and server_requests.cpp (answering what the server asks).

#include <mcp/client/client.hpp>
#include <mcp/json/validate.hpp>
#include <mcp/log.hpp>

#include "../detail/rpc_peer.hpp"
#include "client_telemetry.hpp"
#include "hosted_tasks.hpp"
#include "../protocol/client_connection.hpp"
#include "../protocol/x_mcp_header.hpp"

#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/steady_timer.hpp>

#include <map>
#include <memory>
#include <set>
#include <unordered_map>

namespace mcp {

/// Runs a user's callback; what it throws is logged and dropped.
template <class Callback, class... Args>
void run_callback(const Callback& callback, std::string_view what, Args&&... args) {
  if (!callback) return;
  try {
    callback(std::forward<Args>(args)...);
  } catch (const std::exception& e) {
    sdk_log(log_category::client, log_level::warn, "a callback threw", {{"callback", what}, {"error", e.what()}});
  }
}

/// One transport and the JSON-RPC peer on it. A reconnection replaces the
/// whole link; calls hold the link they were sent on, so an old one lives
/// until its last call has failed.
struct client_link {
  client_link(std::unique_ptr<message_transport> t, const client_options& options);

  std::unique_ptr<message_transport> transport;
  detail::rpc_peer peer;  // writes to *transport: declared after it
  /// HTTP sessions can expire (404): calls keep their params to retry once.
  /// And an HTTP transport is told what each request is (describe_request).
  bool sessions_can_expire = false;
  bool reading = false;
  asio::steady_timer reader_done;  // an event: cancelled when the reader stops
};

struct client::impl : std::enable_shared_from_this<impl> {
  impl(asio::any_io_executor ex, client_options opts);

  // client.cpp
  asio::awaitable<void> read_loop(std::shared_ptr<client_link> link);
  // Runs what the core asks for, except an answer to write (read_loop awaits it).
  void perform(const std::shared_ptr<client_link>& link, detail::client_connection::action&& action);
  void handle_notification(const detail::client_connection::deliver_notification& n);
  /// Sends a request through the client's middleware (client::use), then
  /// once the client is ready (waiting, within the call's timeout, while it
  /// reconnects), renewing an expired session once.
  asio::awaitable<json::object> call(std::string method, json::object params, detail::call_settings settings);
  asio::awaitable<json::object> call_through_middleware(std::string method, json::object params,
                                                        detail::call_settings settings);
  /// The end of call()'s middleware chain: send() with its telemetry events
  /// (send_reported) when they are wanted.
  asio::awaitable<json::object> send_observed(std::string method, json::object params,
                                              detail::call_settings settings);
  asio::awaitable<json::object> send_reported(std::string method, json::object params,
                                              detail::call_settings settings);
  /// The request itself: on the ready link, in its era, renewed once on expiry.
  asio::awaitable<json::object> send(std::string method, json::object params, detail::call_settings settings);
  /// send() once the client is ready (waiting for it, within the call's timeout).
  asio::awaitable<json::object> send_when_ready(std::string method, json::object params,
                                                detail::call_settings settings);
  asio::awaitable<void> send_notification(std::string frame);
  /// close(): no reconnection after it.
  asio::awaitable<void> shut_down();
  asio::awaitable<void> close_link(std::shared_ptr<client_link> ending);
  detail::call_settings settings(const call_options& call) const;
  /// The capabilities `initialize` declares: the options', plus what the handlers imply.
  json::object declared_capabilities() const;

  // session.cpp
  void set_state(connection_state next);
  /// The link to send on once ready; throws not_connected when there will be
  /// none, timed_out at `deadline`.
  asio::awaitable<std::shared_ptr<client_link>> ready_link(std::chrono::steady_clock::time_point deadline);
  std::shared_ptr<client_link> install(std::unique_ptr<message_transport> transport);
  /// Opens the connection's era: the modern probe when we speak 2026-07-28,
  /// else (or when the server does not) initialize + initialized. Sets `server`.
  asio::awaitable<void> open_session(std::shared_ptr<client_link> link);
  /// initialize + initialized on `link`; sets `server`.
  asio::awaitable<void> handshake(std::shared_ptr<client_link> link);
  /// A new session on the same link after the server forgot the old one.
  asio::awaitable<void> renew_session(std::shared_ptr<client_link> link);
  /// Connects again through the factory with backoff after the link ended.
  asio::awaitable<void> reconnect();
  /// Subscriptions and the log level, asked again of a new session.
  asio::awaitable<void> restore_session_state(std::shared_ptr<client_link> link);

  /// Tells an HTTP link's transport what a request is (call_settings::request),
  /// so that it does not parse the frame back. `version`: the envelope's
  /// protocol version when it is not in `params`.
  static void describe_request(const client_link& on, std::string_view method, const json::object& params,
                               std::string_view version, detail::call_settings& settings);

  // modern.cpp (the 2026-07-28 era)
  /// The `_meta` envelope of a request at `version`.
  json::object envelope(protocol_version version) const;
  void add_envelope(json::object& params) const;
  /// The envelope of a relayed request (client::relay_request) as its
  /// `_meta` has it, with this connection's protocol version.
  void keep_relayed_envelope(json::object& params) const;
  /// The same as JSON members (`"k":v,...`), serialized once for as long as
  /// what it says (the version, the capabilities the handlers imply, the log
  /// level) stays the same.
  std::shared_ptr<const std::string> envelope_members(protocol_version version);
  /// Gives a modern request on `on` its envelope: as text written into its
  /// `_meta` (settings.meta_members), or merged into `params` when the
  /// request sets fields of the envelope itself.
  void attach_envelope(const client_link& on, std::string_view method, json::object& params,
                       detail::call_settings& settings);
  /// The `server/discover` probe: true (and `server`, `modern` set) when the
  /// server speaks a modern version we do; false: fall back to initialize.
  asio::awaitable<bool> discover(std::shared_ptr<client_link> link);
  /// A modern request: its envelope, and the rounds of input it may need.
  asio::awaitable<json::object> call_modern(std::shared_ptr<client_link> link, std::string method,
                                            json::object params, detail::call_settings settings);
  /// (Re)opens the subscriptions/listen stream for what the callbacks and
  /// subscriptions want; stops the one before.
  void restart_listen(std::shared_ptr<client_link> link);
  asio::awaitable<void> listen(std::shared_ptr<client_link> link, json::object filter);
  /// Waits (within the request timeout) until the listen stream just
  /// (re)opened is acknowledged: what follows a subscribe() is not missed.
  asio::awaitable<void> listen_acknowledgement();

  // tasks.cpp
  /// Waits for task `id` to end and returns its tool result (raw), answering
  /// its input requests on the way; see client::wait_for_task.
  asio::awaitable<json::object> task_result(std::string id, task_wait_options options);
  /// 2026-07-28: the rounds of polling and tasks/update until the end.
  asio::awaitable<json::object> poll_task(task_info task, task_wait_options options,
                                          std::chrono::steady_clock::time_point deadline);

  // server_requests.cpp
  asio::awaitable<void> answer_server_request(std::shared_ptr<client_link> link, mcp::request req);
  asio::awaitable<json::object> serve_server_request(const mcp::request& req);

  asio::any_io_executor executor;
  client_options options;
  std::shared_ptr<client_link> link;
  transport_factory factory;  // empty: a connection that ends stays ended
  connection_state state = connection_state::disconnected;
  bool closing = false;       // close() was called: no reconnection
  bool reconnecting = false;  // reconnect() runs: links it makes and drops are its business
  std::optional<initialize_result> server;
  /// The version of a modern connection (from discover); unset in a legacy session.
  std::optional<protocol_version> modern;
  // The last envelope_members() and what it was made of.
  struct envelope_text {
    protocol_version version;
    std::optional<logging_level> log_level;
    bool sampling, elicitation, roots;
    std::shared_ptr<const std::string> members;
    bool same_as(const envelope_text& other) const noexcept {
      return version == other.version && log_level == other.log_level && sampling == other.sampling &&
             elicitation == other.elicitation && roots == other.roots;
    }
  };
  std::optional<envelope_text> envelope_cache;
  std::shared_ptr<asio::cancellation_signal> listen_stop;  // the running listen stream
  bool listen_acknowledged = false;
  asio::steady_timer listen_changed;  // an event: cancelled when a listen stream is acknowledged
  /// Counts sessions: a call that failed in an older one retries without renewing again.
  std::uint64_t session_generation = 0;
  asio::steady_timer state_changed;  // an event: cancelled at every state change
  asio::steady_timer backoff;        // the pause between reconnection attempts

  /// The links every call goes through (client::middleware()); a call keeps
  /// the chain it started with (its snapshot).
  client_middleware_chain middleware;

  std::function<void(connection_state)> on_state_change;
  std::function<void(const notification&)> on_notification;
  std::function<void(const log_message&)> on_log;
  std::function<void(std::string_view)> on_list_changed;
  std::function<void(const std::string&)> on_resource_updated;
  std::function<void(const task_info&)> on_task_status;
  server_request_handler on_sampling;
  server_request_handler on_elicitation;
  server_request_handler on_roots;  // asked each time; before `roots`
  std::function<asio::awaitable<json::object>(std::string, json::object)> on_server_request;  // any other
  std::optional<std::vector<root>> roots;
  detail::hosted_tasks hosted;  // the tasks a 2025-11-25 server asked us to run

  // What a new session is asked again (restore_session_state).
  std::set<std::string, std::less<>> subscriptions;
  std::optional<logging_level> log_level;

  // What the server's messages come to, and its requests being answered (a
  // cancelled one is stopped and answered by nothing).
  detail::client_connection core;
  // outputSchema by tool name, from the last tools/list; compiled when first used.
  struct output_check {
    std::optional<json::object> schema;
    std::shared_ptr<const schema_validator> validator;
  };
  std::optional<std::map<std::string, output_check, std::less<>>> output_schemas;
  // The x-mcp-header arguments of each tool (modern era), from the last tools/list.
  std::map<std::string, std::vector<detail::mirrored_param>, std::less<>> mirrored;
  /// Checks a successful result of `tool` against its known outputSchema.
  /// @throws tool_call_error when it does not match
  void check_output(const std::string& tool, const call_tool_result& result);
};

}  // namespace mcp
