#pragma once
// The gateway's server for several upstreams behind one endpoint: their
// tools, prompts, resources and tasks under each one's name
// (aggregate_names.hpp), in one list; a call routed by that name to its
// upstream. An upstream that fails, at start-up or later, is left out of the
// lists and retried in the background (1 s, doubling to 30 s) while the
// others serve; its coming and going is told to the clients as list changes,
// as its own list changes are.

#include "aggregate_names.hpp"
#include "upstream_links.hpp"

#include <mcp/server/behaviour.hpp>

#include <map>
#include <memory>
#include <mutex>

namespace caduceus::gateway {

/// One of the upstreams.
struct aggregate_upstream {
  std::string name;          ///< its prefix
  upstream_options upstream;  ///< how its links reach it
  tool_filter tools;         ///< which of its tools are served
};

struct aggregate_options {
  std::vector<aggregate_upstream> upstreams;
  std::string separator = ".";  ///< between an upstream's name and its tools' and prompts'
  /// The scopes a caller's token needs to call a tool, by its name as served (--auth-tool-scope).
  std::map<std::string, std::vector<std::string>, std::less<>> tool_scopes;
  /// The revisions served to clients (--versions): every one by default.
  std::vector<mcp::protocol_version> served_versions{mcp::all_versions().begin(), mcp::all_versions().end()};
  /// A strand on the gateway's upstream threads, where each upstream is watched.
  std::function<asio::any_io_executor()> new_strand;
};

class aggregate_server final : public mcp::server_behaviour {
 public:
  explicit aggregate_server(aggregate_options options);
  ~aggregate_server() override;

  /// Waits up to `limit` for the upstreams' handshakes (one that fails is
  /// logged, and left to the watch), then starts watching them. Blocks.
  void start(std::chrono::steady_clock::duration limit);
  /// Stops the watch and ends the shared links (as the gateway stops). Any thread.
  void stop();

  mcp::implementation server_info() const override;
  json::object capabilities() const override;
  std::optional<std::string> instructions() const override;
  std::span<const mcp::protocol_version> supported_versions() const override { return served_versions_; }
  void init(mcp::session& s) override;
  void terminate(mcp::session& s) override;
  asio::awaitable<json::object> handle_request(const mcp::request& req, mcp::request_context& ctx) override;
  asio::awaitable<void> handle_notification(const mcp::notification& n, mcp::session& s) override;

 private:
  struct member;

  asio::awaitable<json::object> list(const mcp::request& req, mcp::request_context& ctx);
  asio::awaitable<json::array> list_of(member& m, const mcp::request& req, mcp::request_context& ctx);
  // Runs `per_member` for every upstream at once; their results in the upstreams' order.
  asio::awaitable<std::vector<json::array>> each_member(std::function<asio::awaitable<json::array>(member&)> per_member);
  asio::awaitable<json::object> call_named(const mcp::request& req, mcp::request_context& ctx);
  asio::awaitable<json::object> call_by_uri(const mcp::request& req, mcp::request_context& ctx);
  asio::awaitable<json::object> call_task(const mcp::request& req, mcp::request_context& ctx);
  // Serves `req` at its upstream, `key` of its params given back the name it
  // has there, and renames what the result names.
  asio::awaitable<json::object> serve_routed(const aggregate_names::routed& routed, std::string_view key,
                                             const mcp::request& req, mcp::request_context& ctx);
  asio::awaitable<json::object> complete(const mcp::request& req, mcp::request_context& ctx);
  asio::awaitable<json::object> set_level(const mcp::request& req, mcp::request_context& ctx);
  asio::awaitable<void> watch(member& m);
  // Tells every session that the lists an upstream of these capabilities has changed.
  void announce(const json::object& capabilities);
  member& available(std::size_t index);

  const std::string separator_;
  const std::map<std::string, std::vector<std::string>, std::less<>> tool_scopes_;
  const std::vector<mcp::protocol_version> served_versions_;
  const aggregate_names names_;
  std::vector<std::unique_ptr<member>> members_;  // (unique_ptr: member is defined where it is used)
  std::mutex sessions_mutex_;  // sessions begin and end on many threads
  std::vector<std::weak_ptr<mcp::session>> sessions_;
};

}  // namespace caduceus::gateway
