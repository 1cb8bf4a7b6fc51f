#pragma once
// Server middleware: links of a chain around every request and notification
// a server serves, in either era and over any transport. Each link sees the
// method, the params and the request's context, calls the rest of the chain
// (`next`) or not, and sees what it answered: it may reject a request (throw
// mcp::protocol_error), rewrite it (call `next` with another request),
// rewrite its result, or time it.
//
//   struct audit final : mcp::server_middleware {
//     asio::awaitable<json::object> on_request(const mcp::request& req, mcp::request_context& ctx,
//                                              mcp::request_next next) override {
//       if (req.method == "tools/call" && !allowed(ctx)) throw mcp::protocol_error(mcp::errc::invalid_request, "no");
//       co_return co_await next(req, ctx);
//     }
//   };
//   server.middleware().use(std::make_shared<audit>());
//
// Links run in the order they were added, the first outermost. They can be
// added and removed at run time, from any thread: a request runs through the
// chain as it was when the request started. With no link the engine does not
// go through the chain at all (and keeps serving quick requests without a
// coroutine, which a chain needs).
//
// Requests the core answers by itself never reach the chain: `ping`,
// `initialize`, and what it refuses (bad JSON, an unknown session, a request
// before initialize); telemetry events report those (telemetry/events.hpp).

#include <mcp/export.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace mcp {

namespace asio = boost::asio;
namespace json = boost::json;

class request_context;
class server_behaviour;
class server_middleware;
class session;

namespace detail {
using middleware_links = std::vector<std::shared_ptr<server_middleware>>;
}

/// The rest of the chain after a link: the next link, and at the end the
/// behaviour's handler. Cheap to copy; valid while the link's call runs.
class MCP_API request_next {
 public:
  /// Runs the rest of the chain on `req` (the link's own, or another it
  /// made) and returns its result; its exceptions pass through.
  asio::awaitable<json::object> operator()(const request& req, request_context& ctx) const;

 private:
  friend class middleware_chain;
  request_next(const detail::middleware_links& links, std::size_t index, server_behaviour& behaviour) noexcept
      : links_(&links), index_(index), behaviour_(&behaviour) {}
  const detail::middleware_links* links_;
  std::size_t index_;
  server_behaviour* behaviour_;
};

/// As request_next, for a notification.
class MCP_API notification_next {
 public:
  /// Runs the rest of the chain on `n` (the link's own, or another it made).
  asio::awaitable<void> operator()(const notification& n, session& s) const;

 private:
  friend class middleware_chain;
  notification_next(const detail::middleware_links& links, std::size_t index, server_behaviour& behaviour) noexcept
      : links_(&links), index_(index), behaviour_(&behaviour) {}
  const detail::middleware_links* links_;
  std::size_t index_;
  server_behaviour* behaviour_;
};

/// One link. Both calls pass through by default: override what you need.
/// Links are shared by every session and run on many threads at once.
class MCP_API server_middleware {
 public:
  virtual ~server_middleware() = default;
  /// A request: return its result, or throw as a handler does. The
  /// exceptions of the rest of the chain pass through the link (an
  /// mcp::input_required of a 2026-07-28 request among them: let it go).
  virtual asio::awaitable<json::object> on_request(const request& req, request_context& ctx, request_next next);
  /// A notification from the client (not `initialized`, `cancelled` or
  /// `progress`, which the engine consumes).
  virtual asio::awaitable<void> on_notification(const notification& n, session& s, notification_next next);
};

/// The request function of a link made from a lambda.
using request_middleware_function =
    std::function<asio::awaitable<json::object>(const request&, request_context&, request_next)>;

/// The links a server's requests go through (server_behaviour::middleware).
/// Thread safe.
class MCP_API middleware_chain {
 public:
  /// An empty chain.
  middleware_chain();
  middleware_chain(const middleware_chain&) = delete;
  middleware_chain& operator=(const middleware_chain&) = delete;

  /// Adds a link inside the ones added before (a null one is ignored).
  void use(std::shared_ptr<server_middleware> link);
  /// Adds a link that only wraps requests; returns it, for remove().
  std::shared_ptr<server_middleware> use(request_middleware_function on_request);
  /// Removes a link; false when it was not there.
  bool remove(const std::shared_ptr<server_middleware>& link);
  /// Whether it has no link (the engine then skips the chain).
  bool empty() const noexcept { return empty_.load(std::memory_order_acquire); }

  /// Serves a request through the links, then `behaviour.handle_request`.
  asio::awaitable<json::object> handle_request(server_behaviour& behaviour, const request& req,
                                               request_context& ctx) const;
  /// Serves a notification through the links, then `behaviour.handle_notification`.
  asio::awaitable<void> handle_notification(server_behaviour& behaviour, const notification& n, session& s) const;

 private:
  std::shared_ptr<const detail::middleware_links> snapshot() const;
  // Copied on write under the mutex; a request holds its own snapshot. (Not
  // std::atomic<std::shared_ptr>: libc++, macOS's standard library, lacks it.)
  mutable std::mutex mutex_;
  std::shared_ptr<const detail::middleware_links> links_;
  std::atomic<bool> empty_{true};  // read without the mutex by every request
};

}  // namespace mcp
