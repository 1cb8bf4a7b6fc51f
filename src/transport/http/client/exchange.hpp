#pragma once
// One HTTP request and its response on a pooled connection, without Beast
// in sight: send, read the head, read the body whole (bounded) or piece by
// piece (for event streams), then hand the connection back.

#include "connection_pool.hpp"
#include "url.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail::http_client {

/// A 2xx status.
inline bool is_success(unsigned status) noexcept { return status >= 200 && status < 300; }

enum class http_method { get, post, delete_ };

struct request_spec {
  request_spec() {}  // not an aggregate (docs/compilers.md)
  http_method method = http_method::post;
  std::vector<std::pair<std::string, std::string>> headers;  ///< added after the Host header
  std::string body;
  /// Sets the Authorization header and answers 401/403 challenges, the
  /// request going again (on a new connection) when it says so.
  std::shared_ptr<http_authorizer> authorizer;
};

/// How an exchange run to its end came out: the status and the whole body,
/// or why it failed (then `status` is 0).
struct complete_reply {
  complete_reply() {}  // not an aggregate: it crosses co_await (docs/compilers.md)
  unsigned status = 0;
  std::string body;
  std::string failure;
};

/// The media type a Content-Type value names: lower case, without
/// parameters or spaces.
std::string media_type_of(std::string_view content_type);

class http_exchange {
 public:
  http_exchange(std::shared_ptr<connection_pool> pool, http_endpoint ep, request_spec spec);
  ~http_exchange();
  http_exchange(const http_exchange&) = delete;
  http_exchange& operator=(const http_exchange&) = delete;

  /// Takes a connection (connecting within connect_timeout) and writes the
  /// request within `timeout`. Throws http_error; its what() names the request.
  asio::awaitable<void> send(std::chrono::milliseconds timeout);
  /// Reads the response head within `timeout`. When a reused keep-alive
  /// connection turns out to be closed before any byte of it, the request
  /// goes again on a new connection; so it does when the authorizer answers
  /// a challenge with new credentials. Throws http_error, or what the
  /// authorizer throws.
  asio::awaitable<void> read_head(std::chrono::milliseconds timeout);

  unsigned status() const;
  std::string reason() const;
  /// A header this request carries (empty when absent).
  std::string request_header(std::string_view name) const;
  /// A response header (empty when absent).
  std::string header(std::string_view name) const;
  /// Every response header in arrival order, repeats kept.
  std::vector<std::pair<std::string, std::string>> headers() const;
  /// The Content-Type's media type, lower case, without parameters.
  std::string media_type() const;

  /// The whole body within `timeout`. Throws std::length_error past `limit`
  /// bytes, http_error on a read failure.
  asio::awaitable<std::string> read_body(std::size_t limit, std::chrono::milliseconds timeout);
  /// Appends the next bytes of the body to `out`, waiting at most `timeout`
  /// for them (nothing may come: call again); false at the end of the body.
  /// Throws http_error.
  asio::awaitable<bool> read_some(std::string& out, std::chrono::milliseconds timeout);

  /// send, read_head and read_body (at most `limit` bytes), each within
  /// `timeout`, then finish. Never throws: a failure is in the reply.
  asio::awaitable<complete_reply> run_to_end(std::size_t limit, std::chrono::milliseconds timeout);

  /// Done: the connection goes back to the pool when the body was read to its
  /// end and both sides keep it alive, else it is closed.
  void finish() noexcept;
  /// Done early: the connection is closed.
  void abort() noexcept;
  /// Closes the connection under a pending operation, which then fails
  /// (abort() would free it from under the operation).
  void cancel() noexcept;

  /// "POST https://host/mcp", for messages.
  const std::string& description() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace mcp::detail::http_client
