#pragma once
// Gateway replicas behind a load balancer, sharing their sessions through
// Redis (--redis). A session's connections to its upstreams (its children)
// belong to the replica that opened the session; a request of the session
// that another replica takes is relayed to that one over the message bus,
// and what the upstream asks while it runs, and its progress, come back the
// same way to the request's own stream. A replica that died holding a
// session's connection is a clean error (-32603 saying so), found within
// seconds through the bus's liveness of its nodes.
//
// The holder keeps a session's links after its own copy of the session ends
// (idle there: the client's requests went to the other replicas) for as long
// as the session lives in the store.

#include "upstream_link.hpp"

#include <mcp/server/http_endpoint.hpp>
#include <mcp/server/message_bus.hpp>

#include <boost/asio/cancellation_signal.hpp>

#include <map>
#include <mutex>

namespace caduceus::gateway {

class replica_relay : public std::enable_shared_from_this<replica_relay> {
 public:
  /// `strand`: where the relay keeps its tables, on the gateway's upstream
  /// threads. `call_timeout`: the longest a relayed call waits for its answer.
  replica_relay(asio::any_io_executor strand, std::chrono::milliseconds call_timeout);

  /// Joins the replicas through the HTTP server's stores, as they are made.
  void attach(const mcp::shared_stores& stores);
  /// Leaves them, as the HTTP server closes its stores (nothing here may
  /// use them after: they live on its threads). Any thread.
  void detach();
  /// Ends the links it holds (as the gateway stops). Any thread.
  void stop();

  /// Whether another replica opened `s` (this one took it over from the store).
  static bool adopted(const mcp::session& s);
  /// This replica's name among them (once attached).
  const std::string& node() const noexcept { return node_; }

  /// How the 2026-07-28 calls this replica holds for upstream `index` are
  /// found by id, for rounds that other replicas take. Before serving.
  void find_held_calls(std::size_t index, std::function<std::shared_ptr<held_call>(const std::string& id)> find);
  /// A round of the 2026-07-28 request of `ctx`, whose call `held` the
  /// replica `holder` holds: served there, what it asks put to the client
  /// here. Call from `ctx`'s executor.
  asio::awaitable<json::object> relay_round(const std::string& holder, std::size_t index, const std::string& held,
                                            mcp::request_context& ctx);

  /// This replica holds `link`, session `session`'s connection to upstream `index`. Any thread.
  void hold(const std::string& session, std::size_t index, std::shared_ptr<upstream_link> link);
  /// The session's copy here ended: its links end once the session has
  /// ended everywhere. Any thread.
  void release(const std::string& session, std::size_t index);

  /// Relays `req`, a request of the session of `ctx` (adopted here), to the
  /// replica that holds its connection to upstream `index`, and returns its
  /// answer. Call from `ctx`'s executor.
  asio::awaitable<json::object> call(std::size_t index, const mcp::request& req, mcp::request_context& ctx);
  /// Relays a notification of the client of session `session` the same way.
  void notify(const std::string& session, std::size_t index, const mcp::notification& n);
  /// `s`, a session another replica opened, is served here too. Any thread.
  void adopt(const std::string& session, std::weak_ptr<mcp::session> s);
  /// Sends the upstream's notification `n` to session `session` through the
  /// replicas that serve it (its copy in the holder has ended): the one whose
  /// copy reaches the client sends it. Any thread.
  void broadcast(const std::string& session, const mcp::notification& n);

 private:
  struct waiter;
  struct running_call {
    std::shared_ptr<asio::cancellation_signal> signal;
    asio::any_io_executor executor;  // the link's, where the signal is emitted
  };
  struct held_link {
    std::shared_ptr<upstream_link> link;
    bool released = false;  // the session's copy here has ended
  };

  asio::awaitable<void> join(std::shared_ptr<mcp::message_bus> bus);
  std::shared_ptr<mcp::message_bus> bus() const;
  void on_call(json::object message);    // (on the strand)
  void on_direct(json::object message);  // a message to this replica
  asio::awaitable<void> run_call(std::shared_ptr<upstream_link> link, std::string from, std::uint64_t id,
                                 std::string method, json::object params);
  // Puts `ask` (a method and params, and a round's key) to the replica
  // whose call or round `to` is: its answer, or nullopt when the client
  // answers it in a later round.
  asio::awaitable<std::optional<json::object>> ask_remote(std::string caller, std::uint64_t to, json::object ask);
  void on_round(json::object message);  // (on the strand)
  asio::awaitable<void> run_round(std::shared_ptr<held_call> call, std::string from, std::uint64_t id,
                                  json::object capabilities);
  asio::awaitable<json::object> next_message(waiter& w, const std::string& peer, std::chrono::milliseconds first);
  asio::awaitable<void> sweep();
  // A wait for messages to this replica under an id, forgotten when it goes.
  struct registered_wait {
    replica_relay& relay;
    std::uint64_t id;
    std::shared_ptr<waiter> wait;
    ~registered_wait();
  };
  registered_wait wait_here(asio::any_io_executor executor);
  void publish_to(const std::string& node, json::object message);

  asio::any_io_executor strand_;
  const std::chrono::milliseconds call_timeout_;
  std::string node_;  // (set by attach, before the server serves)
  mutable std::mutex stores_mutex_;  // the stores come and go on the server's threads
  std::shared_ptr<mcp::message_bus> bus_;
  std::shared_ptr<mcp::session_store> sessions_;
  std::unique_ptr<mcp::message_bus::subscription> calls_, direct_;
  bool stopped_ = false;
  asio::steady_timer sweep_pause_;  // between looks at the released links
  // (on the strand) The links this replica holds, by session and upstream.
  std::map<std::pair<std::string, std::size_t>, held_link> held_;
  // (on the strand) The calls of other replicas running here, by caller and id, to cancel.
  std::map<std::pair<std::string, std::uint64_t>, running_call> running_;
  // How the held calls of each upstream are found (set before serving).
  std::map<std::size_t, std::function<std::shared_ptr<held_call>(const std::string&)>> held_calls_;
  // The sessions other replicas opened that this one serves, by id.
  std::mutex adopted_mutex_;
  std::map<std::string, std::weak_ptr<mcp::session>, std::less<>> adopted_;
  // The waits of this replica for messages of another (its relayed calls,
  // the answers to what it asked another's request), by id.
  std::mutex waiters_mutex_;
  std::map<std::uint64_t, std::weak_ptr<waiter>> waiters_;
  std::uint64_t next_id_ = 0;
};

}  // namespace caduceus::gateway
