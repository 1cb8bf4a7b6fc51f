#pragma once
// The client: connects over any transport, negotiates the protocol version,
// and multiplexes any number of requests over the one connection.

#include <mcp/export.hpp>
#include <mcp/client/middleware.hpp>
#include <mcp/client/tasks.hpp>
#include <mcp/json/convert.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/protocol/versions.hpp>
#include <mcp/transport/transport.hpp>
#include <mcp/version.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// Where a client's connection stands (client::state()): `disconnected`
/// (not connected yet, closed, ended without a transport_factory, or
/// reconnection gave up), `connecting` (connect() began, or reconnecting:
/// the pause between attempts, a new transport), `initializing` (the
/// handshake, or a new session after the server forgot the old one),
/// `ready` (calls are sent at once).
enum class connection_state { disconnected, connecting, initializing, ready };

/// Makes a new transport to the same server each time it is called; a
/// client connected through one reconnects by itself.
using transport_factory = std::function<asio::awaitable<std::unique_ptr<message_transport>>()>;

/// How a client connected through a transport_factory reconnects after its
/// connection ended: attempts paced by a delay that doubles up to `max_delay`.
struct MCP_API reconnect_policy {
  /// Attempts in a row before the client gives up and stays disconnected.
  std::size_t max_attempts = 5;
  std::chrono::milliseconds initial_delay{250};  ///< the pause before the first attempt
  std::chrono::milliseconds max_delay{10'000};   ///< the longest pause between attempts
};

/// How an mcp::client speaks: what it says of itself, which protocol
/// versions it accepts, its limits and timeouts.
struct MCP_API client_options {
  /// The `clientInfo` the server is told (`initialize`, or each request's
  /// envelope in the 2026-07-28 era).
  implementation client_info{"caduceus", version_string};
  /// Capabilities declared besides those the handlers imply (on_sampling,
  /// on_elicitation, set_roots, host_tasks), which are added unless this
  /// already has their key; e.g. `extensions`.
  json::object capabilities = {};
  /// Versions we accept. With a 2026-07-28 one (the default), connect()
  /// probes with `server/discover` first and stays in the modern era when
  /// the server offers it; otherwise `initialize` offers the newest legacy
  /// version. `legacy_versions()` skips the probe (a server that keeps
  /// state per session needs a legacy session: the modern era has none).
  std::vector<protocol_version> versions{all_versions().begin(), all_versions().end()};
  /// Per-request timeout unless a call says otherwise; each progress
  /// notification resets it for a call that asked for progress
  /// (call_options::on_progress).
  std::chrono::milliseconds request_timeout{30'000};
  /// The most any request may take, progress or not.
  std::chrono::milliseconds max_request_timeout{600'000};
  /// Bytes of outgoing frames queued before the transport: while over it,
  /// a request waits before it is queued.
  std::size_t max_queued_bytes = 16 * 1024 * 1024;
  /// A single frame write that takes longer means the server stopped
  /// reading: the connection is closed.
  std::chrono::milliseconds write_timeout{30'000};
  /// How a client connected through a transport_factory reconnects.
  reconnect_policy reconnect = {};
  /// 2025-11-25: run as tasks the elicitation and sampling requests a server
  /// asks to be tasks (`params.task`): declares the `tasks` capability, answers
  /// such a request with a CreateTaskResult, runs the handler in the
  /// background and answers the server's tasks/get, tasks/result, tasks/list
  /// and tasks/cancel about it (docs/tasks.md).
  bool host_tasks = false;
};

/// One `notifications/progress` for a call (call_options::on_progress).
struct MCP_API progress_update {
  double progress = 0;          ///< how far along; the spec has it grow with each update
  std::optional<double> total;  ///< the value `progress` will reach, when the server knows it
  std::string message;          ///< what is going on; empty when the server sent none (2025-03-26 on)
};


/// Values of the other arguments already chosen, for a completion.
using completion_context = std::map<std::string, std::string>;

/// Answers a request the server sends (sampling, elicitation): it gets the
/// request's params and returns its result; a protocol_error it throws goes
/// back as that JSON-RPC error, any other exception as -32603.
using server_request_handler = std::function<asio::awaitable<json::object>(json::object params)>;

namespace detail {
struct server_request_answer;
}

/// The answer to one request from the server (sampling, elicitation), to be
/// given once, later, from any thread: a GUI shows a dialog and answers when
/// the user has. Copies share the one answer; the first given counts, later
/// ones are ignored. When the last copy goes without an answer, the server
/// gets -32603. An answer after the server cancelled the request, or after it
/// timed out, goes nowhere.
class MCP_API server_request_reply {
 public:
  /// Made by the client for each request it hands a server_request_callback.
  explicit server_request_reply(std::shared_ptr<detail::server_request_answer> answer);
  /// Answers with the request's result. False when an answer was given already.
  bool result(json::object result) const;
  /// Answers with a JSON-RPC error. False when an answer was given already.
  bool error(rpc_error error) const;

 private:
  std::shared_ptr<detail::server_request_answer> answer_;
};

/// The callback form of a server_request_handler: it gets the request's params
/// and a reply to answer through, now or later, from any thread. It runs on
/// the client's executor and must not block.
using server_request_callback = std::function<void(json::object params, server_request_reply reply)>;

/// Per-call settings of a request: its timeout, progress, trace.
struct MCP_API call_options {
  std::optional<std::chrono::milliseconds> timeout;  ///< default: client_options::request_timeout
  /// When set, the request asks for progress and each update lands here.
  std::function<void(const progress_update&)> on_progress;
  /// The W3C trace this call continues, e.g. `ctx.trace()` of the server
  /// request a handler serves: sent in `params._meta` (`traceparent`,
  /// `tracestate`, `baggage`), in either era. Empty: none, unless a tracing
  /// link starts one (docs/observability.md).
  trace_context trace = {};
};

/// A tool call whose result the caller cannot use: the tool reported a
/// failure (`isError`), or its `structuredContent` is missing, does not match
/// the tool's `outputSchema`, or does not convert to the requested type.
/// Code: sdk_errc::tool_failed for the first, boost::system::errc::bad_message
/// for the others.
class MCP_API tool_call_error : public error {
 public:
  /// `message` is what(); the code follows `result.is_error`.
  tool_call_error(const std::string& message, call_tool_result result);
  /// What the server sent.
  const call_tool_result& result() const noexcept { return *result_; }

 private:
  std::shared_ptr<const call_tool_result> result_;  // shared: exceptions are copied
};

/// A connection to one MCP server.
///
/// Every operation that waits comes in two forms: a coroutine
/// (`co_await c.call_tool(...)`), and `async_...` taking an Asio completion
/// token as its last argument (a callback, `asio::use_future`,
/// `asio::deferred`, `asio::as_tuple(...)`, `asio::use_awaitable`), which
/// completes with `void(std::exception_ptr, Result)` (`void(std::exception_ptr)`
/// for those without a result) on the token's associated executor, or the
/// client's. Both run the same code, compiled in the library; an `async_`
/// operation starts on the client's executor, so it may be initiated from any
/// thread, while the client outlives it. See docs/client.md.
///
/// Every request has a deadline (call_options::timeout, which each progress
/// notification resets, within client_options::max_request_timeout); when
/// it passes, a request that went out is sent `notifications/cancelled`
/// (reason "Request timed out") and any late reply is ignored; either way
/// the call fails with timed_out.
///
/// Cancellation: each operation below says what cancelling it does. A
/// coroutine is cancelled by a terminal cancellation of the coroutine that
/// awaits it (the type Asio's default filter lets through); an `async_`
/// operation by a cancellation of any type on the slot bound to its token,
/// taken as terminal (a request that went out cannot be taken back). "The
/// request's" cancellation is this: a request still waiting to go out
/// (while the client reconnects, or for room in the write queue) is not
/// sent; one that went out is sent `notifications/cancelled` (reason
/// "Request cancelled"), its late reply is dropped, and over Streamable HTTP
/// the transport stops waiting for its answer (the POST's exchange ends);
/// the call fails with operation_aborted. The connection, the session and
/// the other calls go on.
/// Errors (mcp/error.hpp), all of them mcp::error: protocol_error for a
/// JSON-RPC error reply; malformed_result for a result the client cannot
/// read; otherwise the code says it: asio::error::timed_out,
/// operation_aborted (cancelled), connection_aborted (the connection ended
/// while the call waited) or not_connected.
///
/// When the server says the session expired (HTTP 404, `data.sessionExpired`),
/// the client initializes a new session on the same transport, subscribes
/// again to the resources it had subscribed to, sets the log level it had
/// set, and sends the call again: the server never saw it. Connected through
/// a transport_factory, it also reconnects when the connection ends (see
/// reconnect_policy); calls that were waiting then fail with
/// connection_aborted (the server may have run them), and calls made while it
/// reconnects wait for it, within their timeout.
///
/// @par Thread safety
/// Not thread safe: call its coroutines and setters from its executor (a
/// strand with several threads). The `async_` functions may be called from
/// any thread. For a client that any thread may call and that waits,
/// mcp::blocking_client (client/blocking_client.hpp).
class MCP_API client {
 public:
  /// The type of get_executor(), for Asio.
  using executor_type = asio::any_io_executor;
  /// A client with default client_options, running on `ex`.
  explicit client(asio::any_io_executor ex);
  /// A client with `options`, running on `ex`. (Not a defaulted argument:
  /// `client c(co_await this_coro::executor)` must not create an aggregate
  /// temporary; see docs/compilers.md.)
  client(asio::any_io_executor ex, client_options options);
  /// Closes a connection still open, in the background on the executor.
  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// Takes the transport, starts reading, and opens the connection in the
  /// era client_options::versions allows. With a 2026-07-28 version allowed
  /// it first probes with `server/discover` (timeout: the request timeout,
  /// at most 10 s) at the newest such version, once more at the one a -32022
  /// answer offers instead (when we allow it); a result whose
  /// `supportedVersions` share a modern version with ours keeps the
  /// connection in that era (no `initialize`, no session; a
  /// `subscriptions/listen` stream opens for the notifications it has
  /// handlers or subscriptions for). Any other error answer, no answer in
  /// time, or a result without a shared version falls back to the legacy
  /// handshake: `initialize` at the newest legacy version allowed
  /// (mcp::error(no_protocol_option) when none is), a check of the version
  /// the server chose, then `notifications/initialized`. Returns what the
  /// server said of itself either way. Throws mcp::error(already_connected)
  /// unless disconnected; on a failed handshake the transport is closed and
  /// the client is disconnected again.
  /// Cancellation: the request's, for the probe or `initialize` in flight;
  /// connect() then fails as a failed handshake does.
  asio::awaitable<initialize_result> connect(std::unique_ptr<message_transport> transport);
  /// Connects through a new transport from `factory`, and again whenever the
  /// connection ends (reconnect_policy), until close(). The first attempt's
  /// failure is thrown. Cancellation: while the factory makes the transport,
  /// the factory's own; then connect(transport)'s. A connect() that failed
  /// or was cancelled does not reconnect.
  asio::awaitable<initialize_result> connect(transport_factory factory);

  /// The executor it was made with: its callbacks and handlers run there.
  executor_type get_executor() const noexcept;

  /// Where the connection stands now.
  connection_state state() const noexcept;
  /// Called at every change of state(), e.g. to tell a user it reconnects.
  void on_state_change(std::function<void(connection_state)> handler);
  /// What the server said of itself (its `initialize` result, or in the
  /// 2026-07-28 era its `server/discover` result); valid once connected,
  /// and kept after the connection ends. Throws mcp::error(not_connected)
  /// before the first connection, or after one that failed.
  const initialize_result& server() const;

  // Each call comes with and without `call_options`. There are no defaulted
  // option arguments on purpose: g++ 12 destroys an aggregate temporary twice
  // when it appears in an expression that suspends (see docs/compilers.md),
  // and a defaulted `call_options` would be exactly such a temporary.

  /// Any request, through the middleware; returns the result object.
  /// Waits (within the timeout) while the client reconnects.
  /// Cancellation: the request's (see the class comment).
  asio::awaitable<json::object> request(std::string method, json::object params = {});
  /// The same, with per-call options.
  asio::awaitable<json::object> request(std::string method, json::object params,
                                        call_options options);
  /// As request(), for a relay (a gateway) that passes a 2026-07-28 server's
  /// input rounds on to a client of its own: an InputRequiredResult comes
  /// back as it is, for the caller to answer by sending the request again
  /// with `inputResponses` and the result's `requestState`, instead of being
  /// answered by this client's handlers. The 2026-07-28 envelope that the
  /// params' `_meta` carries (the relayed client's info, capabilities and log
  /// level) is sent as it is, in place of this client's, with this
  /// connection's protocol version. In the legacy era, the same as
  /// request(). Cancellation: the request's.
  asio::awaitable<json::object> relay_request(std::string method, json::object params, call_options options);
  /// Sends a notification (not through the middleware); completes once it is
  /// queued. Throws mcp::error(not_connected) unless state() is ready.
  /// Cancellation: it waits only for room in the write queue; cancelled
  /// while the queue is full, it fails with operation_aborted, unsent.
  asio::awaitable<void> notify(std::string method, json::object params = {});

  /// A method of the typed table (mcp::method in methods.hpp), typed both
  /// ways: the params written and the result read by their JSON form
  /// (wire.hpp). Build the params first (docs/compilers.md):
  ///   mcp::paginated_params page{.cursor = next};
  ///   auto tools = co_await c.request<mcp::method::tools_list>(std::move(page));
  /// A result that does not read as its type is a malformed_result.
  /// Cancellation: the request's.
  template <class Method>
  asio::awaitable<typename Method::result> request(typename Method::params params);
  /// The same, with per-call options.
  template <class Method>
  asio::awaitable<typename Method::result> request(typename Method::params params, call_options options);
  /// A notification of the typed table, its params written by their JSON
  /// form; as notify(std::string, json::object) otherwise (cancellation too).
  template <class Method>
  asio::awaitable<void> notify(typename Method::params params);

  /// `ping`, or in the 2026-07-28 era (which has none) `server/discover`:
  /// completes when the server answers. Cancellation: the request's.
  asio::awaitable<void> ping();
  /// The same, with per-call options.
  asio::awaitable<void> ping(call_options options);

  // Lists follow `nextCursor` to the end (bounded: a server that never stops
  // paging is an error after 10,000 pages).

  /// `tools/list`, every page. Remembers each tool's `outputSchema` for
  /// call_tool to check results against. In the 2026-07-28 era a tool whose
  /// `x-mcp-header` annotations break the rules is left out (and logged).
  /// Cancellation: the request's, for the page in flight; the pages read
  /// are dropped, and the schemas remembered stay those of the last
  /// list_tools that finished.
  asio::awaitable<std::vector<tool_info>> list_tools();
  /// `tools/call`. A tool that fails reports it in the result (`is_error`);
  /// an unknown tool or bad arguments are a protocol_error. When an earlier
  /// list_tools saw the tool's `outputSchema`, a successful result's
  /// `structuredContent` is checked against it (the spec's SHOULD): a result
  /// without one, or one that does not match, is a tool_call_error.
  /// Cancellation: the request's; in the 2026-07-28 era a handler answering
  /// its input requests (on_elicitation...) is cancelled with it. When the
  /// server made the call a task (a client that declares the tasks extension
  /// for every request), cancelling ends the wait for the task, whose
  /// tasks/get in flight is cancelled as a request, and the task goes on:
  /// cancel_task stops it.
  asio::awaitable<call_tool_result> call_tool(std::string name, json::object arguments = {});
  /// The same, with per-call options (timeout, progress, trace).
  asio::awaitable<call_tool_result> call_tool(std::string name, json::object arguments,
                                              call_options options);

  // Tasks (docs/tasks.md): a tool call the server runs in the background,
  // in either era. A client that declares the `io.modelcontextprotocol/tasks`
  // extension in client_options::capabilities lets the server turn any
  // call into a task; call_tool then waits for it (answering what it asks)
  // and returns its result as if it had come at once.

  /// `tools/call` that may run as a task: 2025-11-25 asks for one
  /// (`params.task`, when the server's capabilities offer tasks for
  /// tools/call); 2026-07-28 declares the tasks extension for this request
  /// and lets the server decide. A call the server answers directly (or a
  /// server without tasks) gives a task_info without id, its result set.
  /// Cancellation: the request's (the `tools/call`).
  asio::awaitable<task_info> call_tool_as_task(std::string name, json::object arguments = {});
  /// The same, with the task's options (the ttl to ask for, 2025-11-25).
  asio::awaitable<task_info> call_tool_as_task(std::string name, json::object arguments,
                                               task_call_options options);
  /// `tasks/get`: where the task stands now. Cancellation: the request's.
  asio::awaitable<task_info> get_task(std::string id);
  /// Waits for the task's end and returns its tool result, answering on the
  /// way what it asks (through on_elicitation, on_sampling and the roots):
  /// 2026-07-28 polls tasks/get at the task's pollInterval and answers its
  /// inputRequests with tasks/update; 2025-11-25 waits on tasks/result,
  /// which brings the task's requests. A failed or cancelled task is a
  /// task_error; the timeout (task_wait_options, 10 minutes by default) is
  /// mcp::error(timed_out).
  /// Cancellation: ends the wait with operation_aborted: the tasks/result,
  /// tasks/get or tasks/update in flight is cancelled as a request (the
  /// request's), the pause between polls ends, and (2026-07-28) a handler
  /// answering the task's inputRequests is cancelled with it. The task
  /// itself goes on: cancel_task stops it.
  asio::awaitable<call_tool_result> wait_for_task(std::string id);
  /// The same, with a timeout of its own and a status callback.
  asio::awaitable<call_tool_result> wait_for_task(std::string id, task_wait_options options);
  /// `tasks/cancel`: asks the server to stop the task (it may already have ended).
  /// Cancellation: the request's (a `tasks/cancel` the server has received
  /// is not taken back).
  asio::awaitable<void> cancel_task(std::string id);
  /// `tasks/list` (2025-11-25 only: the extension has none, so a modern
  /// server answers -32601), every page, as the other lists. Cancellation:
  /// the request's.
  asio::awaitable<std::vector<task_info>> list_tasks();
  /// `tasks/list`, one page; an empty `cursor` asks for the first.
  asio::awaitable<task_page> list_tasks_page(std::string cursor);
  /// Status notifications of tasks (`notifications/tasks/status`, 2025-11-25).
  void on_task_status(std::function<void(const task_info&)> handler);

  /// `tools/call` with typed arguments and a typed result. `Arguments` is a
  /// json::object or any type from_json/to_json_value know (a described
  /// struct); the result is the `structuredContent`, checked against the
  /// tool's `outputSchema` (listing the tools first when needed) and read as
  /// `Result`. A json::value `Result` takes it as it is. Cancellation: the
  /// request's, for the `tools/list` or `tools/call` in flight.
  /// @throws tool_call_error when the tool fails (`isError`) or its
  ///         structuredContent is missing, off-schema or not a `Result`.
  ///
  ///   struct forecast { double high; double low; std::string summary; };  // described
  ///   auto f = co_await c.call_tool_as<forecast>("forecast", forecast_args{"Paris"});
  template <class Result, class Arguments>
  asio::awaitable<Result> call_tool_as(std::string name, Arguments arguments);
  /// The same, with per-call options.
  template <class Result, class Arguments>
  asio::awaitable<Result> call_tool_as(std::string name, Arguments arguments, call_options options);

  /// The untyped core of call_tool_as: the checked `structuredContent`.
  /// Cancellation: as call_tool_as.
  asio::awaitable<json::value> call_tool_structured(std::string name, json::object arguments,
                                                    call_options options);
  /// The `outputSchema` the server declared for a tool (from the last
  /// list_tools, listing them first when needed); nullopt when it has none.
  /// Cancellation: list_tools's, when it lists them.
  asio::awaitable<std::optional<json::object>> output_schema(std::string tool);

  /// `resources/list`, every page. Cancellation: the request's, for the
  /// page in flight (the pages read are dropped).
  asio::awaitable<std::vector<resource_info>> list_resources();
  /// `resources/templates/list`, every page. Cancellation: as list_resources.
  asio::awaitable<std::vector<resource_template_info>> list_resource_templates();
  /// `resources/read`: the contents at `uri` (one resource may have several).
  /// Throws malformed_result when the result has no `contents` array.
  /// Cancellation: the request's.
  asio::awaitable<std::vector<resource_contents>> read_resource(std::string uri);
  /// Asks for `notifications/resources/updated` about `uri` (on_resource_updated),
  /// kept for a new session. 2026-07-28: reopens the `subscriptions/listen`
  /// stream with it, if the server offers subscriptions, and waits (at most
  /// the request timeout) for the server to acknowledge it.
  /// Cancellation: legacy, the request's (`uri` is not kept for a new
  /// session, though the server may have subscribed); 2026-07-28, `uri` is
  /// kept and the stream reopened at once: only the wait for the
  /// acknowledgement ends.
  asio::awaitable<void> subscribe(std::string uri);
  /// Stops the updates about `uri` (2026-07-28: reopens the listen stream
  /// without it, not waiting). Cancellation: legacy, the request's (`uri`
  /// stays kept for a new session); 2026-07-28, nothing waits.
  asio::awaitable<void> unsubscribe(std::string uri);

  /// `prompts/list`, every page. Cancellation: as list_resources.
  asio::awaitable<std::vector<prompt_info>> list_prompts();
  /// `prompts/get`: the prompt's messages for these arguments.
  /// Cancellation: the request's.
  asio::awaitable<get_prompt_result> get_prompt(std::string name,
                                                std::map<std::string, std::string> arguments = {});

  /// `completion/complete` for an argument of a prompt. Cancellation: the
  /// request's.
  asio::awaitable<completion> complete_prompt_argument(std::string prompt, std::string argument,
                                                       std::string value,
                                                       completion_context context = {});
  /// `completion/complete` for a variable of a resource template.
  /// Cancellation: the request's.
  asio::awaitable<completion> complete_template_variable(std::string uri_template,
                                                         std::string variable, std::string value,
                                                         completion_context context = {});

  /// `logging/setLevel`: the least severe messages the server should send;
  /// set again in a new session. 2026-07-28: no request, each later request's
  /// envelope asks for it. Cancellation: legacy, the request's (the level
  /// is not kept for a new session); 2026-07-28, nothing waits.
  asio::awaitable<void> set_logging_level(logging_level level);

  // Callbacks: set them before connect. They run on the client's executor
  // and must not block; an exception they throw is logged and dropped.

  /// Every notification from the server (progress ones too).
  void on_notification(std::function<void(const notification&)> handler);
  /// `notifications/message`: the server's log messages (set_logging_level).
  void on_log(std::function<void(const log_message&)> handler);
  /// `notifications/{tools,resources,prompts}/list_changed`: "tools", "resources" or "prompts".
  void on_list_changed(std::function<void(std::string_view what)> handler);
  /// `notifications/resources/updated`: a subscribed resource changed (read it again).
  void on_resource_updated(std::function<void(const std::string& uri)> handler);

  // Requests from the server. Setting a handler before connect declares the
  // capability; without one the server's request gets -32601. A handler's
  // coroutine is cancelled (terminal) when the server sends
  // notifications/cancelled for its request, which then gets no answer;
  // answering a 2026-07-28 input request, it is cancelled with the call.

  /// `sampling/createMessage`: return a CreateMessageResult. The handler
  /// runs on the client's executor.
  void on_sampling(server_request_handler handler);
  /// The same, answered through a server_request_reply.
  void on_sampling(server_request_callback handler);
  /// `elicitation/create`, form and URL mode: return an ElicitResult. For an
  /// accepted form, fields the user left out get the defaults of the
  /// requested schema (SEP-1034) before the result goes back.
  void on_elicitation(server_request_handler handler);
  /// The same, answered through a server_request_reply.
  void on_elicitation(server_request_callback handler);
  /// Offers roots (`roots/list`). Before connect it declares the capability;
  /// afterwards, when the capability was declared, it tells a legacy server
  /// they changed (in the background; a 2026-07-28 server asks each time).
  void set_roots(std::vector<root> roots);
  /// Answers `roots/list` by asking `handler` each time (roots that live
  /// elsewhere: a gateway asks its own client): return a ListRootsResult.
  /// Taken before set_roots' list. Set before connect, it declares the
  /// capability (`roots` with listChanged); tell a legacy server of a change
  /// with notify("notifications/roots/list_changed").
  void on_roots(server_request_handler handler);
  /// The same, answered through a server_request_reply.
  void on_roots(server_request_callback handler);
  /// Any other request from the server, one the client does not answer
  /// itself: an extension's, or `tasks/*` about tasks the server had the
  /// client run while the client does not host them (client_options::
  /// host_tasks; a relay passes them on). It gets the method and params and
  /// returns the result; without it such a request gets -32601.
  void on_server_request(std::function<asio::awaitable<json::object>(std::string method, json::object params)> handler);

  /// The links around every request this client sends (client/middleware.hpp):
  /// `client.middleware().use(link)` adds one inside those added before, for
  /// the calls that start from then on, as `server.middleware().use(link)`
  /// does on a server; `remove(link)` takes it out.
  client_middleware_chain& middleware() noexcept;
  /// middleware().use(link).
  [[deprecated("use middleware().use(link), the server's naming")]]
  void use(std::shared_ptr<client_middleware> link);
  /// middleware().remove(link).
  [[deprecated("use middleware().remove(link), the server's naming")]]
  bool remove_middleware(const std::shared_ptr<client_middleware>& link);

  /// Ends the connection (for a child process: stdin closed, then signals)
  /// and any reconnection; calls still waiting fail with connection_aborted.
  /// Cancellation: before it first waits, close() has failed the calls and
  /// stopped any reconnection; a cancellation ends only the wait that
  /// follows, perhaps before the transport is closed: call close() again to
  /// finish.
  asio::awaitable<void> close();

  // The completion-token forms: each is the coroutine of the same name,
  // started on the client's executor, completing `token` with
  // void(std::exception_ptr, Result), or void(std::exception_ptr).
  // Cancellation: the coroutine's, as its comment says; a cancellation of
  // any type emitted on the slot bound to `token` counts as terminal. Once
  // the operation has completed, the slot is cleared.
  //   c.async_call_tool("echo", args, [](std::exception_ptr e, mcp::call_tool_result r) { ... });
  //   std::future<mcp::call_tool_result> f = c.async_call_tool("echo", args, asio::use_future);

  /// connect(std::unique_ptr<message_transport>): `void(std::exception_ptr, initialize_result)`.
  template <class CompletionToken>
  auto async_connect(std::unique_ptr<message_transport> transport, CompletionToken&& token);
  /// connect(transport_factory): `void(std::exception_ptr, initialize_result)`.
  template <class CompletionToken>
  auto async_connect(transport_factory factory, CompletionToken&& token);

  /// request(std::string, json::object): `void(std::exception_ptr, json::object)`.
  template <class CompletionToken>
  auto async_request(std::string method, json::object params, CompletionToken&& token);
  /// request(std::string, json::object, call_options): `void(std::exception_ptr, json::object)`.
  template <class CompletionToken>
  auto async_request(std::string method, json::object params, call_options options, CompletionToken&& token);
  /// notify(std::string, json::object): `void(std::exception_ptr)`.
  template <class CompletionToken>
  auto async_notify(std::string method, json::object params, CompletionToken&& token);
  /// request<Method>(params): `void(std::exception_ptr, Method::result)`, read on the handler's executor.
  template <class Method, class CompletionToken>
  auto async_request(typename Method::params params, CompletionToken&& token);
  /// request<Method>(params, options): `void(std::exception_ptr, Method::result)`.
  template <class Method, class CompletionToken>
  auto async_request(typename Method::params params, call_options options, CompletionToken&& token);
  /// notify<Method>(params): `void(std::exception_ptr)`.
  template <class Method, class CompletionToken>
  auto async_notify(typename Method::params params, CompletionToken&& token);

  /// ping(): `void(std::exception_ptr)`.
  template <class CompletionToken>
  auto async_ping(CompletionToken&& token);
  /// ping(call_options): `void(std::exception_ptr)`.
  template <class CompletionToken>
  auto async_ping(call_options options, CompletionToken&& token);

  /// list_tools(): `void(std::exception_ptr, std::vector<tool_info>)`.
  template <class CompletionToken>
  auto async_list_tools(CompletionToken&& token);
  /// call_tool(std::string, json::object): `void(std::exception_ptr, call_tool_result)`.
  template <class CompletionToken>
  auto async_call_tool(std::string name, json::object arguments, CompletionToken&& token);
  /// call_tool(std::string, json::object, call_options): `void(std::exception_ptr, call_tool_result)`.
  template <class CompletionToken>
  auto async_call_tool(std::string name, json::object arguments, call_options options, CompletionToken&& token);
  /// call_tool_as<Result>(name, arguments): `void(std::exception_ptr, Result)`, read on the handler's executor.
  /// On a failure the Result is value-initialised (Asio's convention for a
  /// value beside an error), so it must be default constructible. Arguments
  /// that do not make a JSON object throw mcp::invalid_argument here, before
  /// anything starts, as a programming error.
  template <class Result, class Arguments, class CompletionToken>
  auto async_call_tool_as(std::string name, Arguments arguments, CompletionToken&& token);
  /// call_tool_as<Result>(name, arguments, options): `void(std::exception_ptr, Result)`.
  template <class Result, class Arguments, class CompletionToken>
  auto async_call_tool_as(std::string name, Arguments arguments, call_options options, CompletionToken&& token);
  /// call_tool_structured(): `void(std::exception_ptr, json::value)`.
  template <class CompletionToken>
  auto async_call_tool_structured(std::string name, json::object arguments, call_options options,
                                  CompletionToken&& token);
  /// output_schema(): `void(std::exception_ptr, std::optional<json::object>)`.
  template <class CompletionToken>
  auto async_output_schema(std::string tool, CompletionToken&& token);

  /// call_tool_as_task(std::string, json::object): `void(std::exception_ptr, task_info)`.
  template <class CompletionToken>
  auto async_call_tool_as_task(std::string name, json::object arguments, CompletionToken&& token);
  /// call_tool_as_task(std::string, json::object, task_call_options): `void(std::exception_ptr, task_info)`.
  template <class CompletionToken>
  auto async_call_tool_as_task(std::string name, json::object arguments, task_call_options options,
                               CompletionToken&& token);
  /// get_task(): `void(std::exception_ptr, task_info)`.
  template <class CompletionToken>
  auto async_get_task(std::string id, CompletionToken&& token);
  /// wait_for_task(std::string): `void(std::exception_ptr, call_tool_result)`.
  template <class CompletionToken>
  auto async_wait_for_task(std::string id, CompletionToken&& token);
  /// wait_for_task(std::string, task_wait_options): `void(std::exception_ptr, call_tool_result)`.
  template <class CompletionToken>
  auto async_wait_for_task(std::string id, task_wait_options options, CompletionToken&& token);
  /// cancel_task(): `void(std::exception_ptr)`.
  template <class CompletionToken>
  auto async_cancel_task(std::string id, CompletionToken&& token);
  /// list_tasks(): `void(std::exception_ptr, std::vector<task_info>)`.
  template <class CompletionToken>
  auto async_list_tasks(CompletionToken&& token);
  /// list_tasks_page(): `void(std::exception_ptr, task_page)`; an empty `cursor` asks for the first page.
  template <class CompletionToken>
  auto async_list_tasks_page(std::string cursor, CompletionToken&& token);

  /// list_resources(): `void(std::exception_ptr, std::vector<resource_info>)`.
  template <class CompletionToken>
  auto async_list_resources(CompletionToken&& token);
  /// list_resource_templates(): `void(std::exception_ptr, std::vector<resource_template_info>)`.
  template <class CompletionToken>
  auto async_list_resource_templates(CompletionToken&& token);
  /// read_resource(): `void(std::exception_ptr, std::vector<resource_contents>)`.
  template <class CompletionToken>
  auto async_read_resource(std::string uri, CompletionToken&& token);
  /// subscribe(): `void(std::exception_ptr)`.
  template <class CompletionToken>
  auto async_subscribe(std::string uri, CompletionToken&& token);
  /// unsubscribe(): `void(std::exception_ptr)`.
  template <class CompletionToken>
  auto async_unsubscribe(std::string uri, CompletionToken&& token);

  /// list_prompts(): `void(std::exception_ptr, std::vector<prompt_info>)`.
  template <class CompletionToken>
  auto async_list_prompts(CompletionToken&& token);
  /// get_prompt(): `void(std::exception_ptr, get_prompt_result)`.
  template <class CompletionToken>
  auto async_get_prompt(std::string name, std::map<std::string, std::string> arguments, CompletionToken&& token);
  /// complete_prompt_argument(): `void(std::exception_ptr, completion)`.
  template <class CompletionToken>
  auto async_complete_prompt_argument(std::string prompt, std::string argument, std::string value,
                                      completion_context context, CompletionToken&& token);
  /// complete_template_variable(): `void(std::exception_ptr, completion)`.
  template <class CompletionToken>
  auto async_complete_template_variable(std::string uri_template, std::string variable, std::string value,
                                        completion_context context, CompletionToken&& token);
  /// set_logging_level(): `void(std::exception_ptr)`.
  template <class CompletionToken>
  auto async_set_logging_level(logging_level level, CompletionToken&& token);

  /// close(): `void(std::exception_ptr)`.
  template <class CompletionToken>
  auto async_close(CompletionToken&& token);

 private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

}  // namespace mcp

#include <mcp/client/impl/typed_calls.hpp>
#include <mcp/client/impl/async_calls.hpp>
