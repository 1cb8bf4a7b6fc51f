#pragma once
// One-shot HTTP requests to any http or https URL, for what surrounds MCP
// rather than MCP itself: OAuth metadata, token and registration endpoints,
// a JWKS, token introspection. Each request reads its whole (bounded) body;
// connections are kept alive per origin for the next request.

#include "exchange.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail::http_client {

struct fetch_options {
  fetch_options() {}  // not an aggregate (docs/compilers.md)
  /// PEM file of the CA certificates to trust for https; empty: the system's.
  std::string ca_file;
  bool verify_peer = true;
  std::chrono::milliseconds connect_timeout{10'000};
  /// Writing the request, then the head, then the whole body: each within this.
  std::chrono::milliseconds timeout{10'000};
  std::size_t max_body_size = 1024 * 1024;
  /// Connect to loopback, private, link-local... addresses too
  /// (peer_address.hpp). Off, only public addresses are reached: what a
  /// fetcher asks for is mostly on a peer's word (SSRF). On for URLs the user
  /// gave (an OTLP collector) or chose to trust (tests on 127.0.0.1).
  bool allow_private_addresses = false;
};

struct fetch_request {
  fetch_request() {}
  http_method method = http_method::get;
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct fetch_response {
  fetch_response() {}
  unsigned status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  ///< in arrival order, repeats kept
  std::string body;

  /// The first value of a header (any case), empty when absent.
  std::string header(std::string_view name) const;
  /// The Content-Type's media type in lower case, without parameters.
  std::string media_type() const;
};

class http_fetcher {
 public:
  http_fetcher(asio::any_io_executor ex, fetch_options options);
  ~http_fetcher();
  http_fetcher(const http_fetcher&) = delete;
  http_fetcher& operator=(const http_fetcher&) = delete;

  /// Sends `request` and reads the whole response, redirects not followed.
  /// Throws std::invalid_argument for a URL that is not absolute http(s),
  /// http_error when the server cannot be reached, resolves to no address
  /// it may reach, times out or answers with a body over max_body_size (its
  /// what() names the request).
  asio::awaitable<fetch_response> fetch(fetch_request request);

  /// Ends every connection; later fetches fail.
  void close() noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace mcp::detail::http_client
