#pragma once
// A client for programs without an event loop: it runs its own I/O thread,
// and each call blocks the calling thread until the answer comes, or its
// time is up.

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

struct blocking_client_options {
  client_options client = {};
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
/// I/O thread: they must not block, and must not call the blocking_client
/// (they would wait for the thread they run on). A server_request_reply may
/// be answered from any thread, later (a GUI dialog).
///
/// Errors are the client's (mcp/error.hpp): protocol_error, malformed_result,
/// mcp::error with asio::error::timed_out, connection_aborted...
class blocking_client {
 public:
  blocking_client();
  explicit blocking_client(blocking_client_options options);
  /// Closes the connection (within call_timeout) and stops the I/O thread.
  ~blocking_client();
  blocking_client(const blocking_client&) = delete;
  blocking_client& operator=(const blocking_client&) = delete;

  /// The I/O thread's executor: make transports on it.
  asio::any_io_executor get_executor() const noexcept;

  initialize_result connect(std::unique_ptr<message_transport> transport);
  /// Connects through a transport from `factory`, and again whenever the
  /// connection ends (client::connect).
  initialize_result connect(transport_factory factory);
  void close();

  connection_state state() const;
  /// The server's `initialize` result; valid once connected.
  initialize_result server() const;

  json::object request(std::string method, json::object params = {});
  json::object request(std::string method, json::object params, call_options options);
  void notify(std::string method, json::object params = {});
  /// A method of the typed table (client::request<Method>).
  template <class Method>
  typename Method::result request(typename Method::params params) {
    return detail::method_result<Method>(request(std::string(Method::name), detail::method_params(std::move(params))));
  }
  void ping();

  std::vector<tool_info> list_tools();
  call_tool_result call_tool(std::string name, json::object arguments = {});
  call_tool_result call_tool(std::string name, json::object arguments, call_options options);
  /// client::call_tool_as: typed arguments in, the checked structuredContent out as a `Result`.
  template <class Result, class Arguments>
  Result call_tool_as(std::string name, Arguments arguments) {
    const std::string tool = name;
    return detail::structured_as<Result>(tool, call_tool_structured(std::move(name), detail::tool_arguments(arguments)));
  }
  json::value call_tool_structured(std::string name, json::object arguments);

  task_info call_tool_as_task(std::string name, json::object arguments = {});
  task_info get_task(std::string id);
  call_tool_result wait_for_task(std::string id, task_wait_options options = {});
  void cancel_task(std::string id);
  task_page list_tasks(std::string cursor = {});

  std::vector<resource_info> list_resources();
  std::vector<resource_template_info> list_resource_templates();
  std::vector<resource_contents> read_resource(std::string uri);
  void subscribe(std::string uri);
  void unsubscribe(std::string uri);

  std::vector<prompt_info> list_prompts();
  get_prompt_result get_prompt(std::string name, std::map<std::string, std::string> arguments = {});
  completion complete_prompt_argument(std::string prompt, std::string argument, std::string value,
                                      completion_context context = {});
  completion complete_template_variable(std::string uri_template, std::string variable, std::string value,
                                        completion_context context = {});
  void set_logging_level(logging_level level);

  // Callbacks, as the client's (set them before connect); they run on the
  // I/O thread.
  void on_state_change(std::function<void(connection_state)> handler);
  void on_notification(std::function<void(const notification&)> handler);
  void on_log(std::function<void(const log_message&)> handler);
  void on_list_changed(std::function<void(std::string_view what)> handler);
  void on_resource_updated(std::function<void(const std::string& uri)> handler);
  void on_task_status(std::function<void(const task_info&)> handler);
  /// Sampling and elicitation, answered through a server_request_reply from any thread.
  void on_sampling(server_request_callback handler);
  void on_elicitation(server_request_callback handler);
  void set_roots(std::vector<root> roots);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace mcp
