#pragma once
// The low-level server API: a virtual interface in the spirit of an Erlang
// behaviour. Implement it to take full control of every request; the engine
// under it still provides transports, the handshake and version negotiation,
// concurrency, cancellation, progress routing and error containment.

#include <mcp/export.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/message_bus.hpp>
#include <mcp/server/middleware.hpp>

#include <span>

namespace mcp {

class task_store;

/// A server's part that answers requests: served by mcp::serve() (stdio, a
/// transport) or an http_server. mcp::server implements it.
///
/// @par Thread safety
/// One behaviour serves every session of its server (each connection given
/// to mcp::serve, each session and stateless request of an http_server), so
/// an implementation is called concurrently: from the executors of many
/// sessions, which over HTTP with several threads are several threads at
/// once. What concerns one session (init, handle_request_at_once,
/// handle_request, handle_notification, terminate) is called from that
/// session's executor (over HTTP its strand; serve() asks for a strand when
/// the io_context has several threads), one call at a time, while many of
/// its handle_request coroutines may be suspended at once. The const
/// members (server_info, modern_server_info, capabilities,
/// supported_versions, instructions) are called from any session's
/// executor. join_cluster, leave_cluster and share_task_store come from the
/// HTTP endpoint's executor while sessions are served. So state shared
/// between sessions needs synchronising (mcp::server does it); middleware()
/// is thread safe.
class MCP_API server_behaviour {
 public:
  virtual ~server_behaviour() = default;

  /// The `serverInfo` of the `initialize` result (name, version...).
  virtual implementation server_info() const = 0;
  /// server_info() as the 2026-07-28 era writes it into every result's
  /// `_meta` (`io.modelcontextprotocol/serverInfo`). By default built from
  /// server_info() each time; mcp::server, whose info never changes, builds
  /// it once.
  virtual json::object modern_server_info() const;
  /// The `capabilities` of the `initialize` and `server/discover` results.
  virtual json::object capabilities() const = 0;
  /// The versions this server speaks: `initialize` negotiates among the
  /// legacy ones, a modern request must name one of the modern ones. Leave
  /// out an era to refuse its clients.
  virtual std::span<const protocol_version> supported_versions() const { return all_versions(); }
  /// The optional `instructions` of the `initialize` result.
  virtual std::optional<std::string> instructions() const { return std::nullopt; }

  /// A session has begun; set up its state. In the legacy era (up to
  /// 2025-11-25): once per session, when `initialize` is served, before its
  /// reply is sent; or, for a session the engine starts as already
  /// initialized (session_options::assume_initialized), as it starts: a
  /// session a server of a cluster takes over from the one that began it,
  /// and each legacy POST to a stateless HTTP server (a session of its own,
  /// which ends with the POST). In the 2026-07-28 era: for the session of each
  /// `subscriptions/listen` stream, once the stream's acknowledgement is
  /// under way (nothing the behaviour sends comes before it); an ordinary
  /// request's session lives as long as the request and gets neither init
  /// nor terminate.
  virtual void init(session& s) { (void)s; }

  /// Serves one request; many run at once on one session. Return the result
  /// object. Throw `mcp::protocol_error` to answer with a JSON-RPC error; any
  /// other exception becomes -32603 for this request only (but
  /// mcp::input_required, which on a 2026-07-28 tools/call, prompts/get or
  /// resources/read answers with an InputRequiredResult).
  /// Unknown methods should throw `protocol_error(errc::method_not_found, ...)`.
  /// With any middleware link, every request comes here (through the chain),
  /// those handle_request_at_once() would serve too.
  virtual asio::awaitable<json::object> handle_request(const request& req,
                                                       request_context& ctx) = 0;

  /// Serves a request at once when that needs no waiting, or returns nullopt
  /// to have handle_request() serve it (the default). The engine asks this
  /// first, while the middleware chain is empty: a request served here costs
  /// no coroutine and no trip through the scheduler, which is most of the
  /// engine's own cost for a quick request. With any link it is never
  /// called, so handle_request() must serve these requests as well. It runs
  /// where the request is read, so it must not block. Errors as for
  /// handle_request.
  virtual std::optional<json::object> handle_request_at_once(const request& req, request_context& ctx) {
    (void)req;
    (void)ctx;
    return std::nullopt;
  }

  /// A notification from the client other than the ones the engine consumes
  /// (`initialized`, `cancelled`, `progress`). Runs in order with the reading
  /// of the stream: keep it short. Exceptions are logged and dropped.
  /// Notifications that arrive before `initialize` are dropped unseen.
  virtual asio::awaitable<void> handle_notification(const notification& n, session& s);

  /// The session ended (the peer closed, the client deleted it, it expired,
  /// or the server shuts down; a stateless POST was answered; a
  /// `subscriptions/listen` stream closed): the counterpart of init(), for
  /// the sessions init() was called for.
  virtual void terminate(session& s) { (void)s; }

  /// The server is one of several that share their sessions
  /// (http_server_options::bus, docs/scale-out.md). A change of the whole
  /// server that its sessions hear of (a list changed, a resource updated)
  /// should then go through `bus`, so that every server tells its own
  /// copies of the sessions (with session::post_broadcast where each copy
  /// would say the same). Called once the HTTP server starts, while it
  /// already serves; a failure (store_unavailable) is retried every second
  /// until it succeeds or the server stops.
  virtual asio::awaitable<void> join_cluster(std::shared_ptr<message_bus> bus) {
    (void)bus;
    co_return;
  }
  /// The server that called join_cluster has stopped: let go of its bus.
  /// Called even when join_cluster() never succeeded.
  virtual void leave_cluster() {}

  /// The task store the servers of a cluster share (shared_stores::tasks):
  /// given by the HTTP server as it starts, taken back (null) once it has
  /// stopped. A behaviour that runs tasks keeps their records there.
  virtual void share_task_store(std::shared_ptr<task_store> store) { (void)store; }

  /// The links every request and notification of this server goes through
  /// before its handler (server/middleware.hpp). Empty unless you add some.
  middleware_chain& middleware() noexcept { return middleware_; }
  /// The links, read only.
  const middleware_chain& middleware() const noexcept { return middleware_; }

 private:
  middleware_chain middleware_;
};

}  // namespace mcp
