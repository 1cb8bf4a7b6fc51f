#pragma once
// The gateway's server for one upstream: it says of itself what the upstream
// said at start-up, and relays every request and notification of a session
// to that upstream through its links (upstream_links.hpp).

#include "upstream_links.hpp"

#include <mcp/server/behaviour.hpp>

#include <map>

namespace caduceus::gateway {

/// How the relay reaches the upstream, and what it serves.
struct relay_options {
  upstream_options upstream;
  /// The scopes a caller's token needs to call a tool, by tool (--auth-tool-scope).
  std::map<std::string, std::vector<std::string>, std::less<>> tool_scopes;
  /// The revisions served to clients (--versions): every one by default.
  std::vector<mcp::protocol_version> served_versions{mcp::all_versions().begin(), mcp::all_versions().end()};
};

/// The scopes `tool_scopes` asks for a tools/call's tool, when it names some.
std::span<const std::string> tool_scopes_of(const std::map<std::string, std::vector<std::string>, std::less<>>& tool_scopes,
                                            const mcp::request& req);

class relay_server final : public mcp::server_behaviour {
 public:
  /// Starts the shared link to the upstream: it serves the 2026-07-28
  /// requests, which have no session, and every session when
  /// `options.upstream.shared`.
  explicit relay_server(relay_options options);

  /// Waits up to `limit` for the upstream's handshake, and learns what it
  /// says of itself. Throws when it fails or does not come. Blocks.
  void start(std::chrono::steady_clock::duration limit);

  mcp::implementation server_info() const override { return upstream_.server_info; }
  json::object capabilities() const override { return upstream_.capabilities; }
  std::optional<std::string> instructions() const override { return upstream_.instructions; }
  std::span<const mcp::protocol_version> supported_versions() const override { return served_versions_; }
  void init(mcp::session& s) override { links_.open_session(s); }
  void terminate(mcp::session& s) override { links_.close_session(s); }
  asio::awaitable<json::object> handle_request(const mcp::request& req, mcp::request_context& ctx) override;
  asio::awaitable<void> handle_notification(const mcp::notification& n, mcp::session& s) override;

  /// Ends the shared link (as the gateway stops). Any thread.
  void close_shared_link() { links_.close_shared_link(); }

 private:
  mcp::initialize_result upstream_;  // (set by start(), before serving)
  const std::map<std::string, std::vector<std::string>, std::less<>> tool_scopes_;
  const std::vector<mcp::protocol_version> served_versions_;
  upstream_links links_;
};

}  // namespace caduceus::gateway
