#pragma once
// A connection to the upstream server that the gateway fronts, relaying both
// ways: the downstream requests and notifications up; the upstream's
// notifications, and what it asks of the client (sampling, elicitation,
// roots), down to the client whose request is in flight or, for a link of
// one session, to that session's client.

#include "held_call.hpp"

#include <mcp/client/client.hpp>
#include <mcp/server/context.hpp>
#include <mcp/transport/transport.hpp>

#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace caduceus::gateway {

namespace asio = boost::asio;
namespace json = boost::json;

/// Opens a new connection to the upstream server: a child process of its
/// own (--stdio), or a connection to its URL.
using upstream_opener =
    std::function<asio::awaitable<std::unique_ptr<mcp::message_transport>>(asio::any_io_executor)>;

/// How a link speaks to the upstream.
struct link_settings {
  /// The versions the link accepts upstream (client_options::versions).
  std::vector<mcp::protocol_version> versions;
  /// An upstream call's deadline (each progress update extends it).
  std::chrono::milliseconds request_timeout{300'000};
  /// How long the downstream client has to answer what the upstream asks.
  std::chrono::milliseconds ask_timeout{600'000};
  /// Renames what an upstream notification names before it is relayed down
  /// (aggregated upstreams: a resource's URI); null: nothing.
  std::function<void(mcp::notification&)> rename;
  /// Where a notification for the link's session goes once the session's
  /// copy here has ended (replicas: to the gateways that serve it now);
  /// null: it is dropped with the session.
  std::function<void(const mcp::notification&)> orphaned;
};

/// Who the link speaks for upstream: one session's client (its info and
/// capabilities), or the gateway itself for a link that many share.
struct link_identity {
  mcp::implementation client_info;
  /// The capabilities declared upstream; the upstream's requests that they
  /// allow are relayed down.
  json::object capabilities;
  /// A link of one session: what the upstream asks outside any request goes
  /// to this session's client, and so do its notifications.
  std::weak_ptr<mcp::session> session;
};

/// Where a call relayed from another gateway replica (replica_relay.hpp) sends
/// what the upstream asks while it runs, and its progress: back to the
/// replica whose request it is.
struct remote_asker {
  std::function<asio::awaitable<json::object>(std::string method, json::object params)> ask;
  std::function<void(const mcp::progress_update&)> progress;
};

class upstream_link : public std::enable_shared_from_this<upstream_link> {
 public:
  upstream_link(asio::any_io_executor executor, upstream_opener open, link_settings settings,
                link_identity identity);
  ~upstream_link();

  /// Connects in the background, through `started` when given (a child
  /// started ahead, on this link's strand), else through a connection of its
  /// own; forward() waits for it.
  void start(std::unique_ptr<mcp::message_transport> started = nullptr);
  /// Waits until connected; throws protocol_error saying why it could not
  /// connect, or that the link has ended. Call from the link's executor.
  asio::awaitable<void> until_connected();
  /// Waits until connected (as until_connected()), then gives what the
  /// upstream said of itself. Call from the link's executor.
  asio::awaitable<mcp::initialize_result> handshake();
  /// The strand the link runs on.
  const asio::any_io_executor& get_executor() const noexcept { return executor_; }
  /// Whether the link failed or ended (then a shared link is made anew). Any thread.
  bool gone() const noexcept { return gone_.load(std::memory_order_relaxed); }
  /// Sends `req`, a request of a session, upstream and returns its result;
  /// an upstream error comes back as the same JSON-RPC error, a dead or
  /// unreachable upstream as -32603 saying so. Cancelled with `ctx` (the
  /// upstream call is then cancelled too). Call from `ctx`'s executor. (A
  /// 2026-07-28 request, which has no session, goes through hold().)
  asio::awaitable<json::object> forward(const mcp::request& req, mcp::request_context& ctx);
  /// One round of a 2026-07-28 request to a 2026-07-28 upstream: as
  /// forward(), but an InputRequiredResult comes back as the upstream gave
  /// it (rounds.hpp passes the rounds on).
  asio::awaitable<json::object> forward_round(std::string method, json::object params, mcp::request_context& ctx);
  /// Whether the upstream speaks 2026-07-28 here (false until connected). Any thread.
  bool modern() const noexcept { return modern_.load(std::memory_order_relaxed); }
  /// Starts `req` upstream for a 2026-07-28 request, held across its input
  /// rounds as `id` (held_call.hpp); `on_end` runs once it is over. Call
  /// from `ctx`'s executor.
  std::shared_ptr<held_call> hold(const mcp::request& req, mcp::request_context& ctx, std::string id,
                                  std::function<void()> on_end);
  /// As forward(), for a request that another gateway replica took: what the
  /// upstream asks meanwhile, and its progress (when `params` asks for it),
  /// go to `remote`. Call from the link's executor.
  asio::awaitable<json::object> serve_remote(std::string method, json::object params,
                                             std::shared_ptr<remote_asker> remote);
  /// Takes the link for one held call alone (false: another has it). What
  /// a session-based upstream asks names no call: only a held call that has
  /// the link to itself can be sure the asks are its own. Any thread.
  bool try_claim() noexcept {
    bool free = false;
    return claimed_.compare_exchange_strong(free, true);
  }
  /// Lets the next held call take it. Any thread.
  void release_claim() noexcept { claimed_ = false; }
  /// Sends a client notification upstream (dropped while not connected).
  void forward(mcp::notification n);
  /// A session whose client hears the upstream's notifications (besides the
  /// link's own session): the sessions of a shared link.
  void add_listener(const std::shared_ptr<mcp::session>& listener);
  /// Ends the connection (a child: its stdin closed, then signals), in the background.
  void close();

 private:
  enum class state { idle, connecting, ready, failed, closed };
  // A downstream request in flight upstream: what the upstream asks while it
  // runs goes to its client, through the request (a legacy one), the call
  // held across its rounds (a 2026-07-28 one), or the replica that took it.
  struct asker {
    mcp::request_context* ctx = nullptr;
    asio::any_io_executor executor;
    std::shared_ptr<held_call> held;
    std::shared_ptr<request_relay> relay;  // the request's, when it is not held
    std::shared_ptr<remote_asker> remote;  // a request of another replica's
    // Where the call's log messages go: to its request, before its answer.
    std::shared_ptr<request_relay> relay_now() const { return held ? held->running_relay() : relay; }
  };

  asio::awaitable<void> connect(std::unique_ptr<mcp::message_transport> started);
  asio::awaitable<json::object> relay_call(std::string method, const json::object& downstream,
                                           mcp::request_context& ctx, bool pass_rounds);
  asio::awaitable<json::object> call(std::string method, json::object params, mcp::call_options options,
                                     asker from, bool pass_rounds);
  // What the upstream asks, relayed while the link lives.
  static asio::awaitable<json::object> relay_ask(std::weak_ptr<upstream_link> weak, std::string method,
                                                 json::object params);
  asio::awaitable<json::object> ask_downstream(std::string method, json::object params);
  // How many clients have requests in flight here (a held call, or a
  // replica's request, counts as one of its own).
  std::size_t clients_in_flight() const;
  void relay_notification(const mcp::notification& n);
  void relay_renamed(const mcp::notification& n);
  [[noreturn]] void fail_call(const std::exception& e) const;

  asio::any_io_executor executor_;
  upstream_opener open_;
  link_settings settings_;
  link_identity identity_;
  mcp::client client_;
  const bool serves_one_session_;  // a session's own link (else the gateway's, shared)
  state state_ = state::idle;
  bool closing_ = false;
  std::string failure_;           // why the link failed, for the requests' errors
  asio::steady_timer settled_;    // cancelled when connecting ends
  std::vector<asker> in_flight_;  // oldest first
  std::vector<std::weak_ptr<mcp::session>> listeners_;
  std::atomic<bool> gone_{false};
  std::atomic<bool> claimed_{false};
  std::atomic<bool> modern_{false};
};

}  // namespace caduceus::gateway
