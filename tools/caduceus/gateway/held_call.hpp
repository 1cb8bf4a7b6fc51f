#pragma once
// A 2026-07-28 request's upstream call, held across its input rounds. Such a
// request has no session to carry what the upstream asks while the call runs
// (sampling, elicitation, roots): the gateway answers the request with an
// InputRequiredResult and keeps the upstream call waiting here until the
// client's retry, which names the call in its requestState, brings the answer.
// Each retry that would otherwise start the call anew (a new child, its state
// lost) finds it instead.

#include "request_relay.hpp"

#include <mcp/server/context.hpp>

#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace caduceus::gateway {

namespace asio = boost::asio;
namespace json = boost::json;

class held_call : public std::enable_shared_from_this<held_call> {
 public:
  /// `executor`: the upstream link's, where the call runs. A client that
  /// does not come back within `hold_limit` of a round has its call
  /// cancelled upstream. `on_end` runs once the call is over.
  held_call(std::string id, asio::any_io_executor executor, std::chrono::milliseconds hold_limit,
            std::function<void()> on_end);

  const std::string& id() const noexcept { return id_; }

  /// Runs the upstream call; its outcome waits for the rounds. Link's executor.
  void start(asio::awaitable<json::object> call);
  /// What the upstream asks while the call runs: waits for the client's
  /// answer from a later round. Link's executor.
  asio::awaitable<json::object> ask(std::string method, json::object params);
  /// An update of the call's progress, for the round that runs. Link's executor.
  void progress(const mcp::progress_update& update);
  /// The relay of the round that runs, if one does. Link's executor.
  std::shared_ptr<request_relay> running_relay() const { return relay_; }

  /// One round of the downstream request, on its executor: returns the
  /// call's result, or throws input_required with what the upstream asks.
  asio::awaitable<json::object> serve_round(mcp::request_context& ctx);

  /// A round that another gateway replica took (replica_relay.hpp): its
  /// client's capabilities, and how an ask is put to it (its answer, or
  /// nullopt when it answers in a later round).
  struct remote_round {
    json::object client_capabilities;
    std::function<asio::awaitable<std::optional<json::object>>(std::string key, mcp::input_request ask)> ask;
  };
  /// Serves such a round as serve_round() does: the call's result, nullopt
  /// when the round ended on an ask, or what the call failed with (thrown).
  asio::awaitable<std::optional<json::object>> serve_remote_round(remote_round round);

 private:
  // Where the call stands, as a round sees it.
  struct standing {
    std::optional<json::object> result;
    std::exception_ptr failure;
    std::string ask_key;  // an ask that waits for the client, when not empty
    mcp::input_request ask;
  };
  struct pending_ask {
    std::string key;
    mcp::input_request request;
    std::optional<json::object> answer;
    std::exception_ptr refusal;
  };

  asio::awaitable<standing> next(std::shared_ptr<request_relay> relay);
  // The client's answer to the ask `key`, or the refusal to give the upstream.
  asio::awaitable<void> give(std::string key, json::object answer, std::exception_ptr refusal);
  void end(std::exception_ptr failure, json::object result);
  void abandon(std::exception_ptr why);
  void hold();

  const std::string id_;
  asio::any_io_executor executor_;
  const std::chrono::milliseconds hold_limit_;
  std::function<void()> on_end_;
  asio::cancellation_signal cancel_;  // the upstream call's
  bool over_ = false;
  std::optional<json::object> result_;
  std::exception_ptr failure_;
  std::optional<pending_ask> ask_;
  unsigned asks_ = 0;
  std::shared_ptr<request_relay> relay_;  // the running round's
  asio::steady_timer changed_;  // cancelled at each change: an ask, an answer, the end
  asio::steady_timer expiry_;   // the client's next round must come before it
};

/// The key of a held call's id in the request's carried value.
inline constexpr std::string_view held_call_key = "caduceusGatewayCall";

}  // namespace caduceus::gateway
