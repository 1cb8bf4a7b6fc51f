// connect_websocket (mcp/transport/websocket.hpp): the URL and options made
// into a target for websocket_connection.cpp, the TLS context, the
// authorizer's credentials, and one more attempt after a challenge it answers.

#include <mcp/error.hpp>
#include <mcp/transport/websocket.hpp>

#include "../http/client/url.hpp"
#include "../http/tls_context.hpp"
#include "websocket_connection.hpp"

#include <boost/asio/ssl/context.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace mcp {

namespace {

namespace ws = detail::websocket;

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), text.begin(),
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

void check_header(std::string_view name, std::string_view value) {
  const auto bad = [](char c) { return c == '\r' || c == '\n' || c == '\0'; };
  if (name.empty() || std::any_of(name.begin(), name.end(), bad) || std::any_of(value.begin(), value.end(), bad))
    throw mcp::invalid_argument("a header with a line break in it: " + std::string(name));
}

// Sets `name` (any case) to `value`, replacing what is there.
void set_header(std::vector<std::pair<std::string, std::string>>& headers, std::string name, std::string value) {
  std::erase_if(headers, [&](const auto& h) {
    return h.first.size() == name.size() &&
           std::equal(name.begin(), name.end(), h.first.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
           });
  });
  headers.emplace_back(std::move(name), std::move(value));
}

// The ws(s) URL as the http(s) one with the same authority and target: the
// opening handshake is an HTTP request to it (RFC 6455 section 3), and that
// is the URL OAuth knows the resource by (a DPoP proof's `htu`).
std::string http_form(const std::string& url) {
  if (starts_with_nocase(url, "ws://")) return "http://" + url.substr(5);
  if (starts_with_nocase(url, "wss://")) return "https://" + url.substr(6);
  throw mcp::invalid_argument("not a ws or wss URL: " + url);
}

ws::client_target target_of(const std::string& url, const websocket_client_options& options) {
  const std::string http_url = http_form(url);
  detail::http_client::http_endpoint ep;
  try {
    ep = detail::http_client::parse_endpoint(http_url);
  } catch (const mcp::invalid_argument& e) {
    throw mcp::invalid_argument(std::string(e.what()) + " (from " + url + ")");
  }
  ws::client_target t;
  t.url = url;
  t.tls = ep.tls;
  t.host = ep.host;
  t.port = ep.port;
  t.host_header = ep.host_header;
  t.target = ep.target;
  t.connect_timeout = options.connect_timeout;
  for (const auto& [name, value] : options.headers) {
    check_header(name, value);
    set_header(t.headers, name, value);
  }
  return t;
}

std::shared_ptr<asio::ssl::context> tls_context(const websocket_client_options& options) {
  return detail::make_client_tls_context(options.ca_file, options.verify_peer);
}

std::string refusal_text(const std::string& url, const ws::refusal& refused) {
  std::string text = "the server at " + url + " refused the WebSocket upgrade: ";
  if (refused.status == 101) return text + "it did not accept the mcp subprotocol";
  text += "HTTP " + std::to_string(refused.status);
  if (!refused.body.empty()) text += ": " + refused.body.substr(0, 300);
  return text;
}

}  // namespace

asio::awaitable<std::unique_ptr<message_transport>> connect_websocket(asio::any_io_executor ex, std::string url) {
  websocket_client_options defaults;
  co_return co_await connect_websocket(std::move(ex), std::move(url), std::move(defaults));
}

asio::awaitable<std::unique_ptr<message_transport>> connect_websocket(asio::any_io_executor ex, std::string url,
                                                                      websocket_client_options options) {
  const auto base = target_of(url, options);
  const auto http_url = http_form(url);
  const auto tls = base.tls ? tls_context(options) : nullptr;
  ws::settings settings;
  settings.subprotocol = std::string(websocket_subprotocol);
  settings.max_message_size = options.max_message_size;
  settings.read_ahead_bytes = options.max_message_size;
  settings.ping_interval = options.ping_interval;
  settings.handshake_timeout = options.close_timeout;
  // At most one more attempt, after a challenge the authorizer answered.
  for (int attempt = 0;; ++attempt) {
    auto target = base;
    std::string sent_authorization;
    if (options.authorizer) {
      for (auto& [name, value] : options.authorizer->credentials("GET", http_url)) {
        check_header(name, value);
        set_header(target.headers, name, value);
      }
    }
    for (const auto& [name, value] : target.headers)
      if (name.size() == 13 && starts_with_nocase(name, "authorization")) sent_authorization = value;
    ws::refusal refused;
    auto attempt_settings = settings;
    auto context = tls;
    auto connection = co_await ws::connect(ex, target, std::move(context), std::move(attempt_settings), refused);
    if (connection) co_return connection;
    const bool challenged = refused.status == 401 || refused.status == 403;
    if (challenged && options.authorizer && attempt == 0) {
      authorization_challenge challenge;
      challenge.url = http_url;
      challenge.status = refused.status;
      challenge.sent_authorization = sent_authorization;
      challenge.www_authenticate = refused.www_authenticate;
      challenge.dpop_nonce = refused.dpop_nonce;
      const bool again = co_await options.authorizer->on_challenge(std::move(challenge));
      if (again) continue;
    }
    throw websocket_upgrade_error(refusal_text(url, refused), refused.status, std::move(refused.www_authenticate));
  }
}

}  // namespace mcp
