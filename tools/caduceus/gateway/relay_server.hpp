#pragma once
// The gateway's server: it says of itself what the upstream said at start-up,
// and relays every request and notification of a session to that session's
// upstream link: a connection of its own (by default a child process started
// with the session and ended with it), or the one link that all share.

#include "upstream_link.hpp"
#include "warm_children.hpp"

#include <mcp/server/behaviour.hpp>

#include <map>
#include <mutex>

namespace caduceus::gateway {

/// How the relay reaches the upstream, and what it serves.
struct relay_options {
  upstream_opener open;  ///< a new connection to it (a child process, a URL)
  /// A strand for a new link, on the gateway's upstream threads: a link
  /// outlives its session's executor while its connection closes.
  std::function<asio::any_io_executor()> new_strand;
  link_settings settings;  ///< how the sessions' own links speak upstream
  /// A child started ahead for a new session, when there is one (null: none).
  std::function<std::optional<warm_child>()> take_warm;
  /// A new shared link, started (for when the one before it is gone).
  std::function<std::shared_ptr<upstream_link>()> make_shared_link;
  bool shared = false;  ///< every session through the shared link (--shared)
  /// The scopes a caller's token needs to call a tool, by tool (--auth-tool-scope).
  std::map<std::string, std::vector<std::string>, std::less<>> tool_scopes;
  /// The revisions served to clients (--versions): every one by default.
  std::vector<mcp::protocol_version> served_versions{mcp::all_versions().begin(), mcp::all_versions().end()};
};

class relay_server final : public mcp::server_behaviour {
 public:
  /// `shared`: a connected link (the one that learnt `upstream`); it serves
  /// the 2026-07-28 requests, which have no session, and every session when
  /// `access.shared`.
  relay_server(mcp::initialize_result upstream, relay_options options, std::shared_ptr<upstream_link> shared);

  mcp::implementation server_info() const override { return upstream_.server_info; }
  json::object capabilities() const override { return upstream_.capabilities; }
  std::optional<std::string> instructions() const override { return upstream_.instructions; }
  std::span<const mcp::protocol_version> supported_versions() const override { return options_.served_versions; }
  void init(mcp::session& s) override;
  void terminate(mcp::session& s) override;
  asio::awaitable<json::object> handle_request(const mcp::request& req, mcp::request_context& ctx) override;
  asio::awaitable<void> handle_notification(const mcp::notification& n, mcp::session& s) override;

  /// Ends the shared link (as the gateway stops). Any thread.
  void close_shared_link();

 private:
  asio::awaitable<json::object> serve_held(const mcp::request& req, mcp::request_context& ctx);
  link_settings settings_for(mcp::protocol_version downstream) const;
  std::shared_ptr<upstream_link> link_of(mcp::session& s);
  // The link that sessionless requests go through now, made anew when the
  // one before it is gone.
  std::shared_ptr<upstream_link> shared_link();

  const mcp::initialize_result upstream_;
  const relay_options options_;
  std::mutex shared_mutex_;  // sessions of many threads reach the shared link
  std::shared_ptr<upstream_link> shared_;
  // The 2026-07-28 calls held for their clients' next rounds, by id: a
  // random prefix of this process, so that a requestState signed before a
  // restart (with the same key) names no call of this one.
  std::mutex held_mutex_;
  std::map<std::string, std::shared_ptr<held_call>, std::less<>> held_;
  const std::string held_prefix_;
  std::uint64_t held_count_ = 0;
};

}  // namespace caduceus::gateway
