#pragma once
// The state of an mcp::client, shared by client.cpp (connection, reading,
// dispatch), calls.cpp (the typed calls) and server_requests.cpp (answering
// what the server asks).

#include <mcp/client/client.hpp>
#include <mcp/json/validate.hpp>

#include "../detail/rpc_peer.hpp"

#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/steady_timer.hpp>

#include <map>
#include <memory>
#include <unordered_map>

namespace mcp {

struct client::impl : std::enable_shared_from_this<impl> {
  impl(asio::any_io_executor ex, client_options opts);

  asio::awaitable<void> read_loop();
  asio::awaitable<void> handle(frame_item item);
  void handle_notification(const notification& n);
  asio::awaitable<void> shut_down();
  detail::call_settings settings(const call_options& call) const;
  /// The capabilities `initialize` declares: the options', plus what the handlers imply.
  json::object declared_capabilities() const;

  // server_requests.cpp
  asio::awaitable<void> answer_server_request(mcp::request req);
  asio::awaitable<json::object> serve_server_request(const mcp::request& req);
  void cancel_server_request(const json::object& params);

  asio::any_io_executor executor;
  client_options options;
  std::unique_ptr<message_transport> transport;
  std::optional<detail::rpc_peer> peer;
  connection_state state = connection_state::disconnected;
  std::optional<initialize_result> server;
  bool reading = false;
  asio::steady_timer reader_done;  // an event: cancelled when the reader stops

  std::function<void(const notification&)> on_notification;
  std::function<void(const log_message&)> on_log;
  std::function<void(std::string_view)> on_list_changed;
  std::function<void(const std::string&)> on_resource_updated;
  server_request_handler on_sampling;
  server_request_handler on_elicitation;
  std::optional<std::vector<root>> roots;

  // Server requests being answered, so that the server can cancel them.
  std::unordered_map<request_id, std::shared_ptr<asio::cancellation_signal>> serving;
  // outputSchema by tool name, from the last tools/list; compiled when first used.
  struct output_check {
    std::optional<json::object> schema;
    std::shared_ptr<const schema_validator> validator;
  };
  std::optional<std::map<std::string, output_check, std::less<>>> output_schemas;
  /// Checks a successful result of `tool` against its known outputSchema.
  /// @throws tool_call_error when it does not match
  void check_output(const std::string& tool, const call_tool_result& result);
};

}  // namespace mcp
