#pragma once
// The gateway's links to one upstream server: a link of its own for each
// session (by default a child process started with the session and ended
// with it), or the one link that all share; and the 2026-07-28 calls held
// across their clients' input rounds. The gateway's servers (relay_server
// for one upstream, aggregate_server for several) serve each request through
// these.

#include "replica_relay.hpp"
#include "upstream_link.hpp"
#include "warm_children.hpp"

#include <mcp/server/context.hpp>

#include <map>
#include <mutex>

namespace caduceus::gateway {

/// How the links reach the upstream.
struct upstream_options {
  upstream_opener open;  ///< a new connection to it (a child process, a URL)
  /// A strand for a new link, on the gateway's upstream threads: a link
  /// outlives its session's executor while its connection closes.
  std::function<asio::any_io_executor()> new_strand;
  link_settings settings;  ///< how the sessions' own links speak upstream
  /// A child started ahead for a new session, when there is one (null: none).
  std::function<std::optional<warm_child>()> take_warm;
  /// Who the shared link speaks for upstream: the gateway itself.
  link_identity shared_identity;
  bool shared = false;  ///< every session through the shared link (--shared)
  /// A session's link that ended (its child died) is replaced by a new one
  /// for the session's next request, rather than failing all of them
  /// (aggregated upstreams: one of several comes back).
  bool replace_gone_links = false;
  /// Replicas sharing the sessions (--redis): a session another replica
  /// opened is served through its links there (null: this gateway alone).
  std::shared_ptr<replica_relay> replicas;
};

class upstream_links {
 public:
  /// `index`: the place of this upstream among the gateway's (a session
  /// keeps its links by it). Starts the shared link.
  upstream_links(std::size_t index, upstream_options options);

  /// A session begins: it gets a link of its own (started now, or when
  /// `start_own_link` is false at its first request), or (shared, or a
  /// 2026-07-28 `subscriptions/listen` stream) hears what the shared link hears.
  void open_session(mcp::session& s, bool start_own_link = true);
  /// A session ended: its own link ends with it.
  void close_session(mcp::session& s);
  /// Serves `req` upstream in the session's era: through the session's link,
  /// or (a 2026-07-28 request) with its input rounds passed through or held.
  asio::awaitable<json::object> serve(const mcp::request& req, mcp::request_context& ctx);
  /// Sends a session's notification upstream.
  void forward(const mcp::notification& n, mcp::session& s);

  /// The link that sessionless requests go through now, made anew when the
  /// one before it is gone. Any thread.
  std::shared_ptr<upstream_link> shared_link();
  /// Ends the shared link (as the gateway stops). Any thread.
  void close_shared_link();

 private:
  asio::awaitable<json::object> serve_held(const mcp::request& req, mcp::request_context& ctx);
  link_settings settings_for(mcp::protocol_version downstream) const;
  std::shared_ptr<upstream_link> open_link(mcp::session& s);
  std::shared_ptr<upstream_link> link_of(mcp::session& s);
  bool relayed(const mcp::session& s) const;
  // A link, started; through a child started ahead when `warm` (and there is one).
  std::shared_ptr<upstream_link> start_link(link_settings settings, link_identity identity, bool warm) const;
  // One that speaks for the gateway: the shared one, or one a held call has to itself.
  std::shared_ptr<upstream_link> start_gateway_link(bool warm) const;

  const std::size_t index_;
  const upstream_options options_;
  std::mutex shared_mutex_;  // sessions of many threads reach the shared link
  std::shared_ptr<upstream_link> shared_;
  // The sessions that hear the shared link, kept to hear the next one too.
  std::vector<std::weak_ptr<mcp::session>> listeners_;
  // The 2026-07-28 calls held for their clients' next rounds, by id: a
  // random prefix of this process, so that a requestState signed before a
  // restart (with the same key) names no call of this one.
  std::mutex held_mutex_;
  std::map<std::string, std::shared_ptr<held_call>, std::less<>> held_;
  const std::string held_prefix_;
  std::uint64_t held_count_ = 0;
};

}  // namespace caduceus::gateway
