#pragma once
// What a server handler sees of its session and of the request it serves.

#include <mcp/export.hpp>
#include <mcp/auth/principal.hpp>
#include <mcp/json/convert.hpp>
#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/messages.hpp>  // input_request
#include <mcp/protocol/types.hpp>
#include <mcp/protocol/versions.hpp>
#include <mcp/transport/transport.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <atomic>
#include <chrono>
#include <span>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeindex>
#include <vector>

namespace mcp {

namespace asio = boost::asio;


/// Thrown by request_context::sample, elicit and roots when the client did
/// not declare the capability (or its protocol version lacks the feature).
/// In a tool handler it becomes a tool error result, like any exception.
/// Code: errc::missing_client_capability.
class MCP_API capability_error : public error {
 public:
  /// `message` is the whole of what() (no code prefix).
  explicit capability_error(std::string message) : error(errc::missing_client_capability, std::move(message), whole_message{}) {}
};

/// The error a handler throws when it cannot go on until the user has
/// visited `url` (URL-mode elicitation, 2025-11-25: -32042 with
/// `data.elicitations`): the client shows the URL and may retry the request
/// once session::post_elicitation_complete has told it the user is done.
/// (2026-07-28 has no such error: there, co_await ctx.elicit_url(...).)
MCP_API protocol_error url_elicitation_required(std::string message, std::string url, std::string elicitation_id);

/// The input requests of one round, by the keys the handler names them with,
/// and the client's answers (ElicitResult, CreateMessageResult,
/// ListRootsResult) by the same keys.
using input_requests = std::map<std::string, input_request, std::less<>>;
/// The client's answers to input_requests, by the same keys.
using input_responses = std::map<std::string, json::object, std::less<>>;

/// Ends a 2026-07-28 request that needs input the client has not given yet:
/// the engine answers it with an InputRequiredResult asking for `requests`,
/// and serves the client's retry by running the handler again. Thrown by
/// request_context::ask (and elicit, sample, roots); a low-level handler may
/// throw it too. Deliberately not a std::exception, so that a handler's
/// `catch (const std::exception&)` lets it through.
struct MCP_API input_required {
  input_requests requests;  ///< What the InputRequiredResult asks the client for, by key.
};

namespace detail {
class server_engine;
class task_run;
struct input_round;

/// A request that runs as a task takes its input here: the task asks the
/// client (2025-11-25: requests tagged with the task; 2026-07-28: the
/// task's inputRequests, answered by tasks/update) and waits.
class MCP_API task_inputs {
 public:
  virtual asio::awaitable<input_responses> ask(input_requests requests, std::chrono::milliseconds timeout) = 0;

 protected:
  ~task_inputs() = default;
};

/// How a session's state<T>() of a described T follows the session to the
/// other servers of a cluster: its key (the type's name) and its JSON form
/// both ways.
struct MCP_API shared_state_codec {
  std::string key;
  json::value (*write)(const void* value);
  void (*read)(void* value, const json::value& json);
};

template <class T>
const shared_state_codec& shared_state_codec_of() {
  static const shared_state_codec codec{
      typeid(T).name(), [](const void* value) { return to_json_value(*static_cast<const T*>(value)); },
      [](void* value, const json::value& json) { *static_cast<T*>(value) = from_json<T>(json); }};
  return codec;
}

/// Implemented by the engine that owns a connection; handlers reach the
/// peer through it. Shared, so that a session kept alive elsewhere can still
/// post to it safely after the connection has ended.
class MCP_API connection_link : public std::enable_shared_from_this<connection_link> {
 public:
  virtual ~connection_link() = default;
  /// `related`: the JSON text of the request id the notification serves, or empty.
  virtual asio::awaitable<void> send_notification(notification n, std::string related) = 0;
  /// Thread safe: queues `n` for sending from the connection's executor;
  /// `related` as for send_notification.
  virtual void post_notification(notification n, std::string related) = 0;
  /// Thread safe: as post_notification, but `n` is dropped unless the
  /// transport reaches the client itself (message_transport::reaches_client).
  virtual void post_broadcast(notification n) = 0;
  virtual asio::awaitable<json::object> send_request(std::string method, json::object params,
                                                     std::chrono::milliseconds timeout,
                                                     std::string related) = 0;
  /// See message_transport::close_stream.
  virtual void close_stream(const std::string& related) = 0;
};
}  // namespace detail

/// One client's session: what it negotiated, and state that lives as long as it.
///
/// @par Thread safety
/// Used from the session's executor only (over HTTP on several threads, the
/// session's strand), like everything of one session, but for the members
/// that say "any thread" (post_notification, post_broadcast,
/// post_elicitation_complete). A plain-function handler on the worker pool
/// may read what is settled once the session is open (id, version, client
/// info and capabilities, transport), but not principal() or log_level(),
/// which the session's requests may change on its executor (a refreshed
/// token, `logging/setLevel`), and must not touch state<T>().
class MCP_API session : public std::enable_shared_from_this<session> {
 public:
  /// Made by the engine for each connection (or HTTP session, or 2026-07-28
  /// request); a session made by hand is connected to nothing.
  session(std::string id, asio::any_io_executor executor)
      : id_(std::move(id)), executor_(std::move(executor)) {}
  session(const session&) = delete;
  session& operator=(const session&) = delete;

  /// Over HTTP the HTTP session's id (Streamable HTTP's `Mcp-Session-Id`);
  /// otherwise random hex. A 2026-07-28 request's session: its connection's
  /// id, `/` and a number.
  const std::string& id() const noexcept { return id_; }
  /// The revision negotiated by `initialize` (a 2026-07-28 request's
  /// session: the one the request names).
  protocol_version version() const noexcept { return version_; }
  /// The client's `clientInfo` (from `initialize`, or a 2026-07-28 request's envelope).
  const implementation& client_info() const noexcept { return client_info_; }
  /// The client's declared `capabilities` (from `initialize`, or a 2026-07-28 request's envelope).
  const json::object& client_capabilities() const noexcept { return client_capabilities_; }

  /// Where the session's connection comes from (kind, peer, headers, or the
  /// environment for stdio).
  const transport_metadata& transport() const noexcept {
    static const transport_metadata none;
    return transport_ ? *transport_ : none;
  }

  /// Who the request's access token stands for, on a server protected with
  /// OAuth (http_server_options::auth); null otherwise. In a stateful
  /// session it is the principal of the latest request (a refreshed token
  /// brings its new scopes); the session is bound to its identity.
  const auth::principal* principal() const noexcept { return principal_.get(); }

  /// The least severe level the client wants: `logging/setLevel` in a legacy
  /// session (unset: every message is sent), the request's `_meta` logLevel
  /// in the modern era (unset: none is sent).
  std::optional<logging_level> log_level() const noexcept { return log_level_; }
  /// A 2026-07-28 request's own session: it lives as long as the request,
  /// built from the request's envelope (no handshake, no shared state).
  bool per_request() const noexcept { return per_request_; }
  /// The session of a `subscriptions/listen` stream: the resource URIs it
  /// asked `notifications/resources/updated` for. (Its other notifications
  /// are filtered on the way out; a behaviour just sends them.)
  const std::vector<std::string>& resource_subscriptions() const noexcept { return resource_subscriptions_; }
  /// The session of a `subscriptions/listen` stream: the tasks it asked
  /// `notifications/tasks` for (the tasks extension).
  const std::vector<std::string>& task_subscriptions() const noexcept { return task_subscriptions_; }
  /// Sets log_level(), as `logging/setLevel` does (servers sharing the
  /// session store it with the session's shared state).
  void set_log_level(logging_level level) noexcept { log_level_ = level; }

  /// Typed per-session state: one `T`, default-constructed on first use and
  /// destroyed with the session. Sessions never see each other's state.
  ///
  /// When servers share their sessions (docs/scale-out.md), a described
  /// struct T (BOOST_DESCRIBE_STRUCT) follows the session to every server:
  /// a request that changed it has it saved in the session store before its
  /// answer goes out, and the next request of the session, on any server,
  /// finds it there (two servers changing it at once: the last save wins).
  /// Any other T stays with the server that made it.
  template <class T>
  T& state() {
    auto& slot = state_[std::type_index(typeid(T))];
    if (!slot.value) {
      auto value = std::make_shared<T>();
      if constexpr (detail::described_struct<T>) share_state(slot, detail::shared_state_codec_of<T>(), value.get());
      slot.value = std::move(value);
    }
    return *static_cast<T*>(slot.value.get());
  }

  /// The session's `T` when state<T>() made one; null otherwise (nothing is created).
  template <class T>
  T* find_state() const {
    const auto it = state_.find(std::type_index(typeid(T)));
    return it == state_.end() ? nullptr : static_cast<T*>(it->second.value.get());
  }

  /// The executor of the session's connection.
  const asio::any_io_executor& get_executor() const noexcept { return executor_; }

  /// Sends a notification that belongs to no request (e.g. list_changed).
  /// Call from the session's executor. Cancellation: as
  /// request_context::progress.
  asio::awaitable<void> notify(std::string method, json::object params = {});

  /// Sends a notification from any thread (it is queued on the session's
  /// executor); dropped once the connection has ended.
  void post_notification(std::string method, json::object params = {});

  /// As post_notification, for a notification that every server of a
  /// cluster sends to its own copy of the session (a change of the whole
  /// server, docs/scale-out.md): only the copy that reaches the client sends
  /// it, so the client gets it once. Outside a cluster the same as
  /// post_notification.
  void post_broadcast(std::string method, json::object params = {});

  /// Tells the client that the URL-mode elicitation `elicitation_id` is
  /// complete (`notifications/elicitation/complete`), from any thread; its
  /// revision must have URL-mode elicitation (2025-11-25), else nothing is sent.
  void post_elicitation_complete(std::string elicitation_id);

  /// Sends a request to the client that belongs to none of its requests
  /// (`roots/list` as the session begins, or a gateway relaying what its
  /// upstream server asks) and waits for the result; over Streamable HTTP it
  /// goes on the session's GET stream. Throws protocol_error for an error
  /// reply, system_error on timeout (the client is then sent
  /// `notifications/cancelled`). Legacy sessions only: a 2026-07-28
  /// request's session throws capability_error (its requests ask through
  /// request_context::ask). Call from the session's executor.
  /// Cancellation: as request_context::request in a legacy session.
  asio::awaitable<json::object> request(std::string method, json::object params = {},
                                        std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  friend class detail::server_engine;
  friend class detail::task_run;
  friend class request_context;
  std::string id_;
  asio::any_io_executor executor_;
  std::shared_ptr<const transport_metadata> transport_;  // set by the engine
  std::shared_ptr<const auth::principal> principal_;      // set by the engine
  protocol_version version_ = latest_legacy_version;
  implementation client_info_;
  json::object client_capabilities_;
  std::optional<logging_level> log_level_;
  bool per_request_ = false;
  std::vector<std::string> resource_subscriptions_;
  std::vector<std::string> task_subscriptions_;

  struct state_slot {
    std::shared_ptr<void> value;
    const detail::shared_state_codec* shared = nullptr;  // a described T
  };
  // A described T's slot joins the shared state: its saved value is read in.
  void share_state(state_slot& slot, const detail::shared_state_codec& codec, void* value);
  // The shared state (described states, the log level) as the session store
  // has it: read in by a copy of the session, and what was changed since.
  void load_shared_state(const json::object& state);
  json::object changed_shared_state();
  std::map<std::type_index, state_slot> state_;
  json::object shared_state_;  // by key, as last loaded or saved
  std::shared_ptr<detail::connection_link> link_;
};

/// The request a handler serves, and its way back to the client.
///
/// Input from the client (elicitation, sampling, roots): one handler serves
/// both eras. In a legacy session, ask() and its shorthands elicit(),
/// sample() and roots() send real requests to the client and wait for the
/// answers. On a 2026-07-28 request they return the answers the client sent
/// with the request (or that earlier rounds carried in its requestState);
/// otherwise they throw input_required, the request is answered with an
/// InputRequiredResult, and the handler runs again from the start when the
/// client retries with the answers. Code before ask() must therefore be safe
/// to run more than once; carry() keeps a value across the rounds.
///
/// Cancellation: the handler runs with an Asio cancellation slot that fires
/// (terminal) on `notifications/cancelled` for this request, when its
/// session ends (deleted, expired, its input failed, or ended in order and
/// the drain ran out) and on shutdown (after the drain, when it has one);
/// cancelled() turns true with it, for a CPU-bound loop or a plain-function
/// handler to poll. From then on every co_await of the handler, on these
/// operations or any other, ends at once with operation_aborted (Asio's
/// default, unless the handler resets its cancellation state). A cancelled
/// request gets no reply, whatever the handler returns. A tools/call that
/// became a task (docs/tasks.md) is no longer the request: its handler's
/// slot fires on `tasks/cancel`. Each awaitable operation below says what
/// cancelling it does.
///
/// @par Thread safety
/// Not thread safe: it belongs to one request, is used on its session's
/// executor, and lives until the handler returns. A coroutine handler may
/// call every member. A plain-function handler on mcp::server's worker pool
/// may read the request's own data (id, method, params, meta, trace,
/// carried) and cancelled() (an atomic, set on the executor); it must not
/// call the awaitable members, carry, set_trace or close_stream, and what it
/// reads of session() is as session's thread safety says.
class MCP_API request_context {
 public:
  /// `cancelled` is set from the session's executor while a plain-function
  /// handler may read it on the worker pool: hence an atomic.
  request_context(const request& req, mcp::session& s, const std::atomic<bool>& cancelled) noexcept;
  /// A 2026-07-28 request: `round` holds its input answers and carried value.
  request_context(const request& req, mcp::session& s, const std::atomic<bool>& cancelled,
                  detail::input_round& round) noexcept;

  /// The request's JSON-RPC id.
  const request_id& id() const noexcept { return request_.id; }
  /// The request's method, e.g. `tools/call`.
  const std::string& method() const noexcept { return request_.method; }
  /// The request's params as the client sent them.
  const json::object& params() const noexcept { return request_.params; }
  /// `params._meta`, or an empty object.
  const json::object& meta() const noexcept;
  /// The session the request belongs to (a 2026-07-28 request: its own).
  mcp::session& session() noexcept { return session_; }
  /// The session's principal (see session::principal): null without OAuth.
  const auth::principal* principal() const noexcept { return session_.principal(); }
  /// Refuses the request unless its token has the scopes `required`: throws
  /// protocol_error auth::insufficient_scope_code with `requiredScopes` (over
  /// HTTP, 403 with a challenge naming them: step-up), as a tool, resource or
  /// prompt's `required_scopes` are enforced. Without OAuth there is no
  /// principal and nothing to check.
  void require_scopes(std::span<const std::string> required) const;
  /// The session's protocol version.
  protocol_version version() const noexcept { return session_.version(); }
  /// Whether the request was cancelled (by the client, or by shutdown);
  /// safe to read from any thread.
  bool cancelled() const noexcept { return cancelled_.load(std::memory_order_relaxed); }
  /// The W3C trace context the request runs in: the server span's while a
  /// tracing link (telemetry/mcp_tracing.hpp) wraps it; otherwise what the
  /// client sent in `params._meta` (either era; over HTTP, the POST's
  /// `traceparent` header when `_meta` has none). Empty when none. Pass it
  /// as `call_options::trace` to continue the trace in a call of your own.
  const trace_context& trace() const noexcept { return trace_; }
  /// Makes `trace` the context the rest of the request runs in (a tracing
  /// link sets its span's).
  void set_trace(trace_context trace) noexcept { trace_ = std::move(trace); }

  /// Reports progress when the client asked for it (`_meta.progressToken`);
  /// otherwise does nothing. Values that do not increase are dropped, as the
  /// spec requires progress to increase; `message` is sent from 2025-03-26 on.
  /// Cancellation: it waits only for room in the session's write queue
  /// (session_options::max_queued_bytes; over Streamable HTTP never); once
  /// the request is cancelled, co_awaiting it throws operation_aborted.
  asio::awaitable<void> progress(double progress, std::optional<double> total = std::nullopt,
                                 std::string_view message = {});

  /// Sends a notification to the client in the context of this request.
  /// Cancellation: as progress().
  asio::awaitable<void> notify(std::string method, json::object params = {});

  /// Sends `notifications/message` when `level` passes the session's
  /// threshold (`logging/setLevel`). Cancellation: as progress().
  asio::awaitable<void> log(logging_level level, json::value data, std::string_view logger = {});

  /// Sends a request to the client and waits for its result (throws
  /// protocol_error for an error reply, system_error on timeout). On a
  /// 2026-07-28 request the three input methods go through ask(), under the
  /// key `<method>#<n>`; any other method throws capability_error.
  /// Cancellation: in a legacy session (and a 2025-11-25 task), cancelling
  /// the handler cancels the request to the client: it is sent
  /// `notifications/cancelled` (reason "Request cancelled"), a late answer
  /// is dropped, and this throws operation_aborted; the timeout does the
  /// same (reason "Request timed out") and throws timed_out. On a 2026-07-28
  /// request the input methods do not wait (see ask()).
  asio::awaitable<json::object> request(std::string method, json::object params = {},
                                        std::chrono::milliseconds timeout = std::chrono::seconds(30));

  /// Asks the client for several inputs at once; returns its answers by key
  /// (see the class comment for how each era serves it). Refuses an input
  /// the client did not declare the capability for: capability_error in a
  /// legacy session, protocol_error -32021 (`requiredCapabilities`) on a
  /// 2026-07-28 request. An answer of the wrong shape counts as missing.
  /// Cancellation: in a legacy session, as request(), for the request in
  /// flight (those after it are not sent). On a 2026-07-28 request nothing
  /// waits: it returns the answers or throws input_required at once. In a
  /// task of the 2026-07-28 extension it waits for `tasks/update`:
  /// `tasks/cancel` ends the wait with operation_aborted (the task's
  /// inputRequests are withdrawn), the timeout with timed_out.
  asio::awaitable<input_responses> ask(input_requests requests,
                                       std::chrono::milliseconds timeout = std::chrono::minutes(5));

  /// The value carry() set in this run or an earlier round of this request;
  /// null when none. Travels in the integrity-protected requestState.
  const json::value& carried() const noexcept;
  /// Sets what carried() returns, in this run and, on a 2026-07-28 request,
  /// in the rounds after this one.
  void carry(json::value value);

  /// `sampling/createMessage` with the given params (messages, maxTokens...);
  /// returns the client's CreateMessageResult. Cancellation: as ask().
  asio::awaitable<json::object> sample(json::object params,
                                       std::chrono::milliseconds timeout = std::chrono::seconds(60));
  /// Form-mode `elicitation/create` (2025-06-18 on): asks the user for values
  /// matching `requested_schema`; returns the ElicitResult (action, content).
  /// Cancellation: as ask().
  asio::awaitable<json::object> elicit(std::string message, json::object requested_schema,
                                       std::chrono::milliseconds timeout = std::chrono::minutes(5));
  /// URL-mode `elicitation/create` (2025-11-25 on). Cancellation: as ask().
  asio::awaitable<json::object> elicit_url(std::string message, std::string url,
                                           std::string elicitation_id,
                                           std::chrono::milliseconds timeout = std::chrono::minutes(5));
  /// Over Streamable HTTP, closes the connection that carries this request's
  /// SSE stream while the request goes on; the client reconnects after the
  /// server's `retry` interval and resumes the stream with `Last-Event-ID`,
  /// missing nothing. Lets a long call free its connection (SSE polling,
  /// 2025-11-25 on; ignored for older versions and other transports).
  void close_stream();

  /// `roots/list`: the client's roots array. Cancellation: as ask().
  asio::awaitable<json::array> roots(std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  friend class detail::task_run;
  // Where notifications and requests go: the session's connection, or the
  // task's own way out once the request runs as a task.
  detail::connection_link& link() const noexcept { return link_ ? *link_ : *session_.link_; }

  // ask() with one request, under a key of its own.
  asio::awaitable<json::object> ask_one(std::string method, json::object params,
                                        std::chrono::milliseconds timeout);

  const mcp::request& request_;
  mcp::session& session_;
  const std::atomic<bool>& cancelled_;
  std::string id_text_;  // the id as JSON text, to route frames that serve this request
  std::optional<double> last_progress_;
  detail::input_round* round_ = nullptr;  // set on 2026-07-28 requests
  trace_context trace_;
  json::value carried_;                   // legacy: what carry() set
  std::size_t auto_keys_ = 0;             // names the inputs of request() and the shorthands
  std::shared_ptr<detail::connection_link> link_;  // a task's; null: the session's
  detail::task_inputs* task_ = nullptr;            // set while the request runs as a task
};

}  // namespace mcp
