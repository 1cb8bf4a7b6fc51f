#pragma once
// A client for programs without an event loop: it runs its own I/O thread,
// and each call blocks the calling thread until the answer comes, or its
// time is up.

#include <mcp/export.hpp>
#include <mcp/client/client.hpp>
#include <mcp/error.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// How a blocking_client runs: its client's options and how long a call may block.
struct MCP_API blocking_client_options {
  client_options client = {};  ///< the options of the mcp::client inside
  /// The longest any call blocks, on top of the limits the client keeps itself
  /// (each request's timeout): connecting, lists of many pages, closing. When
  /// it is up the call is cancelled (notifications/cancelled for a request)
  /// and throws mcp::error(asio::error::timed_out). wait_for_task waits
  /// for its own timeout instead.
  std::chrono::milliseconds call_timeout{120'000};
};

/// An mcp::client on an I/O thread of its own, whose calls wait.
///
///   mcp::blocking_client c;
///   c.connect(mcp::spawn_process(c.get_executor(), {.command = "my-server"}));
///   auto result = c.call_tool("echo", {{"text", "hi"}});
///
/// @par Thread safety
/// Any number of threads may call it at once: their requests go out together
/// on the one connection. The callbacks (on_log, on_sampling...) run on its
/// I/O thread: they must not block, and must not make a call that waits (it
/// would wait for the thread it runs on: it throws mcp::invalid_argument).
/// A server_request_reply may be answered from any thread, later (a GUI
/// dialog).
///
/// Errors are the client's (mcp/error.hpp): protocol_error, malformed_result,
/// mcp::error with asio::error::timed_out, connection_aborted...
///
/// Cancellation: a call that waits cannot be cancelled from outside; it ends
/// with its operation, or when blocking_client_options::call_timeout is up
/// (wait_for_task: its own timeout and 5 s): the operation is then cancelled
/// on the I/O thread as the client's coroutine of the same name says
/// (client.hpp: a request is sent notifications/cancelled), and the call,
/// having waited up to 5 s more for it to end, throws
/// mcp::error(timed_out), whatever the operation's outcome.
class MCP_API blocking_client {
 public:
  /// Starts the I/O thread, with default options.
  blocking_client();
  /// Starts the I/O thread.
  explicit blocking_client(blocking_client_options options);
  /// Closes the connection (within call_timeout) and stops the I/O thread.
  ~blocking_client();
  blocking_client(const blocking_client&) = delete;
  blocking_client& operator=(const blocking_client&) = delete;

  /// The I/O thread's executor: make transports on it.
  asio::any_io_executor get_executor() const noexcept;

  /// client::connect: opens the connection on `transport` (made on
  /// get_executor()) and returns what the server said of itself.
  initialize_result connect(std::unique_ptr<message_transport> transport);
  /// Connects through a transport from `factory`, and again whenever the
  /// connection ends (client::connect).
  initialize_result connect(transport_factory factory);
  /// Ends the connection, and any reconnection; the client may connect again.
  void close();

  /// Where the connection stands now.
  connection_state state() const;
  /// What the server said of itself (client::server): its `initialize`
  /// result, or its `server/discover` result in the 2026-07-28 era. Throws
  /// mcp::error(not_connected) before the first connect.
  initialize_result server() const;

  /// Any request (client::request); returns the result object.
  json::object request(std::string method, json::object params = {});
  /// The same, with per-call options; a `timeout` longer than
  /// blocking_client_options::call_timeout is cut short by it.
  json::object request(std::string method, json::object params, call_options options);
  /// Sends a notification; returns once it is queued. Throws
  /// mcp::error(not_connected) unless ready.
  void notify(std::string method, json::object params = {});
  /// A method of the typed table (client::request<Method>); a result that
  /// does not read as its type is a malformed_result.
  template <class Method>
  typename Method::result request(typename Method::params params) {
    return detail::method_result<Method>(request(std::string(Method::name), detail::method_params(std::move(params))));
  }
  /// Returns when the server answers (client::ping).
  void ping();

  /// `tools/list`, every page (client::list_tools).
  std::vector<tool_info> list_tools();
  /// `tools/call` (client::call_tool): a tool's failure is `is_error` in the
  /// result; a result off its known `outputSchema` throws tool_call_error.
  call_tool_result call_tool(std::string name, json::object arguments = {});
  /// The same, with per-call options (timeout, progress, trace).
  call_tool_result call_tool(std::string name, json::object arguments, call_options options);
  /// client::call_tool_as: typed arguments in, the checked structuredContent out as a `Result`.
  template <class Result, class Arguments>
  Result call_tool_as(std::string name, Arguments arguments) {
    const std::string tool = name;
    return detail::structured_as<Result>(tool, call_tool_structured(std::move(name), detail::tool_arguments(arguments)));
  }
  /// The checked `structuredContent` of a successful call
  /// (client::call_tool_structured); tool_call_error otherwise.
  json::value call_tool_structured(std::string name, json::object arguments);

  /// `tools/call` that may run as a task (client::call_tool_as_task); a
  /// task_info without id when the server answered directly.
  task_info call_tool_as_task(std::string name, json::object arguments = {});
  /// `tasks/get`: where the task stands now.
  task_info get_task(std::string id);
  /// Waits for the task's end and returns its tool result
  /// (client::wait_for_task): blocks up to `options.timeout` (plus a few
  /// seconds' grace), not call_timeout. A failed or cancelled task is a task_error.
  call_tool_result wait_for_task(std::string id, task_wait_options options = {});
  /// `tasks/cancel`: asks the server to stop the task.
  void cancel_task(std::string id);
  /// `tasks/list` (2025-11-25 only), every page.
  std::vector<task_info> list_tasks();
  /// `tasks/list`, one page; an empty `cursor` asks for the first.
  task_page list_tasks_page(std::string cursor);

  /// `resources/list`, every page.
  std::vector<resource_info> list_resources();
  /// `resources/templates/list`, every page.
  std::vector<resource_template_info> list_resource_templates();
  /// `resources/read`: the contents at `uri`.
  std::vector<resource_contents> read_resource(std::string uri);
  /// Asks for updates about `uri` (on_resource_updated); see client::subscribe.
  void subscribe(std::string uri);
  /// Stops the updates about `uri`.
  void unsubscribe(std::string uri);

  /// `prompts/list`, every page.
  std::vector<prompt_info> list_prompts();
  /// `prompts/get`: the prompt's messages for these arguments.
  get_prompt_result get_prompt(std::string name, std::map<std::string, std::string> arguments = {});
  /// `completion/complete` for an argument of a prompt.
  completion complete_prompt_argument(std::string prompt, std::string argument, std::string value,
                                      completion_context context = {});
  /// `completion/complete` for a variable of a resource template.
  completion complete_template_variable(std::string uri_template, std::string variable, std::string value,
                                        completion_context context = {});
  /// The least severe log messages the server should send (client::set_logging_level).
  void set_logging_level(logging_level level);

  // Callbacks, as the client's (set them before connect); they run on the
  // I/O thread.

  /// Called at every change of state().
  void on_state_change(std::function<void(connection_state)> handler);
  /// Every notification from the server (progress ones too).
  void on_notification(std::function<void(const notification&)> handler);
  /// `notifications/message`: the server's log messages.
  void on_log(std::function<void(const log_message&)> handler);
  /// `notifications/{tools,resources,prompts}/list_changed`: "tools", "resources" or "prompts".
  void on_list_changed(std::function<void(std::string_view what)> handler);
  /// `notifications/resources/updated`: a subscribed resource changed.
  void on_resource_updated(std::function<void(const std::string& uri)> handler);
  /// Status notifications of tasks (`notifications/tasks/status`, 2025-11-25).
  void on_task_status(std::function<void(const task_info&)> handler);
  /// Sampling (`sampling/createMessage`), answered through a
  /// server_request_reply from any thread. Set before connect, it declares
  /// the capability.
  void on_sampling(server_request_callback handler);
  /// Elicitation (`elicitation/create`), answered likewise; see client::on_elicitation.
  void on_elicitation(server_request_callback handler);
  /// Offers roots (client::set_roots).
  void set_roots(std::vector<root> roots);
  /// Roots asked for each time (`roots/list`), answered likewise; see client::on_roots.
  void on_roots(server_request_callback handler);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace mcp
