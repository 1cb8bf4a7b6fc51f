#pragma once
// Client middleware: links of a chain around every request a client sends
// (its typed calls included), in either era and over any transport. A link
// sees the method and params, may rewrite them, reject the call (throw), time
// it, or look at the result:
//
//   struct timing final : mcp::client_middleware {
//     asio::awaitable<json::object> on_request(mcp::outgoing_request req, mcp::client_next next) override {
//       const auto start = std::chrono::steady_clock::now();
//       auto result = co_await next(std::move(req));
//       report(std::chrono::steady_clock::now() - start);
//       co_return result;
//     }
//   };
//   client.middleware().use(std::make_shared<timing>());
//
// as `server.middleware().use(...)` adds a server's (server/middleware.hpp).
// Links run in the order they were added, the first outermost; a call goes
// through the chain as it was when the call started. Requests the client
// makes to open a session (initialize, server/discover, the listen stream)
// and its answers to the server's requests are not wrapped.

#include <mcp/export.hpp>
#include <mcp/protocol/envelope.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mcp {

namespace asio = boost::asio;
namespace json = boost::json;

/// A request on its way out.
struct MCP_API outgoing_request {
  std::string method;  ///< e.g. "tools/call"; a link may change it
  /// The params as they will be sent (the 2026-07-28 envelope and a
  /// progress token are added after the chain); a link may change them.
  json::object params;
  /// The trace this request continues (call_options::trace): written to
  /// `params._meta` as it goes out, unless a link sets `_meta.traceparent` itself.
  trace_context trace;
};

class client_middleware;

namespace detail {
struct client_chain;
}

/// The rest of a client's chain after a link, ending with the send.
/// Valid while the link's call runs.
class MCP_API client_next {
 public:
  /// Passes `req` to the next link, or sends it after the last; returns the
  /// result object, or throws what the rest of the chain threw.
  asio::awaitable<json::object> operator()(outgoing_request req) const;

 private:
  friend struct detail::client_chain;
  client_next(const detail::client_chain& chain, std::size_t index) noexcept : chain_(&chain), index_(index) {}
  const detail::client_chain* chain_;
  std::size_t index_;
};

/// A link of a client's middleware chain (client::middleware): derive from it and
/// override on_request. One link serves every call of the client, several
/// at once, on the client's executor.
class MCP_API client_middleware {
 public:
  virtual ~client_middleware() = default;
  /// Passes the request on by default.
  virtual asio::awaitable<json::object> on_request(outgoing_request req, client_next next);
};

namespace detail {
using client_links = std::vector<std::shared_ptr<client_middleware>>;
// One call's way through the links and, at the end, the client's own send.
struct MCP_API client_chain {
  std::shared_ptr<const client_links> links;
  std::function<asio::awaitable<json::object>(outgoing_request)> send;

  client_next first() const noexcept { return client_next(*this, 0); }
};
}  // namespace detail

/// The request function of a link made from a lambda.
using client_request_function = std::function<asio::awaitable<json::object>(outgoing_request, client_next)>;

/// The links a client's requests go through (client::middleware()), named
/// as a server's are (middleware_chain). Thread safe: links may be added and
/// removed while calls run.
class MCP_API client_middleware_chain {
 public:
  /// An empty chain.
  client_middleware_chain();
  client_middleware_chain(const client_middleware_chain&) = delete;
  client_middleware_chain& operator=(const client_middleware_chain&) = delete;

  /// Adds a link inside the ones added before (a null one is ignored).
  void use(std::shared_ptr<client_middleware> link);
  /// Adds a link made of `on_request`; returns it, for remove().
  std::shared_ptr<client_middleware> use(client_request_function on_request);
  /// Removes a link; false when it was not there.
  bool remove(const std::shared_ptr<client_middleware>& link);
  /// Whether it has no link (a call then skips the chain).
  bool empty() const noexcept { return empty_.load(std::memory_order_acquire); }
  /// The links now: what a call that starts now goes through.
  std::shared_ptr<const detail::client_links> snapshot() const;

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const detail::client_links> links_;
  std::atomic<bool> empty_{true};  // read without the mutex by every call
};

}  // namespace mcp
