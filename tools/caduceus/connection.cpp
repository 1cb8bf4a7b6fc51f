#include "connection.hpp"

#include "failure.hpp"
#include "sign_in.hpp"

#include <mcp/error.hpp>
#include <mcp/transport/http_client.hpp>
#include <mcp/transport/process.hpp>
#include <mcp/transport/websocket.hpp>

#include <stdexcept>

namespace caduceus {

mcp::client_options client_options_for(const invocation& inv) {
  mcp::client_options options;
  if (inv.timeout) options.request_timeout = *inv.timeout;
  return options;
}

std::unique_ptr<mcp::message_transport> start_process(boost::asio::any_io_executor ex, const invocation& inv,
                                                      std::function<void(std::string_view line)> on_child_stderr) {
  mcp::process_options process;
  process.command = inv.stdio.front();
  process.args.assign(inv.stdio.begin() + 1, inv.stdio.end());
  process.on_stderr = std::move(on_child_stderr);
  return mcp::spawn_process(std::move(ex), std::move(process));
}

boost::asio::awaitable<std::unique_ptr<mcp::message_transport>> open_transport(
    boost::asio::any_io_executor ex, const invocation& inv,
    std::function<void(std::string_view line)> on_child_stderr) {
  if (!inv.stdio.empty()) co_return start_process(ex, inv, std::move(on_child_stderr));
  std::string url = inv.url;
  // ws:// and wss:// ask for MCP over WebSocket (docs/transports.md); no
  // other URL falls back to it, nor it to HTTP.
  if (url.starts_with("ws://") || url.starts_with("wss://")) {
    mcp::websocket_client_options websocket;
    for (const auto& [name, value] : inv.headers) websocket.headers[name] = value;
    // OAuth knows the endpoint by its http(s) URL: the one the upgrade request goes to.
    invocation as_http = inv;
    as_http.url = (url.starts_with("wss://") ? "https://" : "http://") + url.substr(url.find("://") + 3);
    websocket.authorizer = command_authorizer(ex, as_http);
    try {
      co_return co_await mcp::connect_websocket(ex, std::move(url), std::move(websocket));
    } catch (const mcp::invalid_argument& e) {  // no host, credentials in it, a bad header
      throw usage_error("--url: " + std::string(e.what()));
    }
  }
  mcp::http_client_options http;
  for (const auto& [name, value] : inv.headers) http.headers[name] = value;
  http.authorizer = command_authorizer(ex, inv);
  try {
    co_return co_await mcp::connect_http(ex, std::move(url), std::move(http));
  } catch (const mcp::invalid_argument& e) {  // not http(s), no host, credentials in it
    throw usage_error("--url: " + std::string(e.what()));
  }
}

}  // namespace caduceus
