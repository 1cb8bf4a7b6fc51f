// connect_http: the HTTP client transport bound to MCP. The transport
// (transport/http_client) moves frames and knows neither JSON-RPC nor MCP
// (test/layers); what it must know of the frames it carries it asks a
// message_binding. The binding here answers with protocol/'s rules of MCP
// over HTTP, so it and the connect_http that wires it in live above both
// layers, not beside the transport.

#include <mcp/transport/http_client.hpp>

#include "../protocol/http_client_rules.hpp"
#include "../transport/http/client/http_client_transport.hpp"

#include <memory>
#include <string>

namespace mcp {

namespace {

using detail::http_client::outgoing_facts;
using detail::http_client::received_facts;

class mcp_message_binding final : public detail::http_client::message_binding {
 public:
  outgoing_facts inspect_outgoing(std::string_view frame) const override {
    return detail::inspect_outgoing(frame);
  }

  received_facts inspect_inbound(std::string_view text) const override { return detail::inspect_inbound(text); }

  std::string failure_answer(std::string_view request, std::string message) const override {
    return detail::error_answer(request, std::move(message));
  }

  std::string http_status_answer(std::string_view request, std::string_view exchange, unsigned status,
                                 std::string_view reason, std::string_view body,
                                 std::string_view session_id) const override {
    return detail::http_status_answer(request, exchange, status, reason, body, session_id);
  }

  std::string with_id(std::string_view answer, std::string_view request) const override {
    return detail::with_id(answer, request);
  }
};

}  // namespace

asio::awaitable<std::unique_ptr<message_transport>> connect_http(asio::any_io_executor ex, std::string url) {
  http_client_options defaults;
  co_return co_await connect_http(std::move(ex), std::move(url), std::move(defaults));
}

asio::awaitable<std::unique_ptr<message_transport>> connect_http(asio::any_io_executor ex, std::string url,
                                                                 http_client_options options) {
  auto messages = std::make_shared<const mcp_message_binding>();
  co_return detail::http_client::make_transport(std::move(ex), std::move(url), std::move(options),
                                                std::move(messages));
}

}  // namespace mcp
