#pragma once
// What the two HTTP client engines (Streamable HTTP, legacy HTTP+SSE) of one
// transport share: the executor, the options, the URL, the binding that
// reads their frames, the connection pool and the queue of received frames. The transport owns it; engines and their
// background coroutines hold it by shared_ptr.

#include "connection_pool.hpp"
#include "exchange.hpp"
#include "inbound_queue.hpp"
#include "message_binding.hpp"
#include "url.hpp"

#include <mcp/transport/http_client.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcp::detail::http_client {

struct client_core {
  client_core() {}
  asio::any_io_executor executor;
  http_client_options options;
  http_endpoint endpoint;
  std::shared_ptr<const message_binding> messages;
  std::shared_ptr<connection_pool> pool;
  std::shared_ptr<inbound_queue> inbound;

  /// A request with the user's extra headers (to which it adds its own,
  /// which win) and authorizer.
  request_spec base_request(http_method method) const {
    request_spec spec;
    spec.method = method;
    spec.headers.assign(options.headers.begin(), options.headers.end());
    spec.authorizer = options.authorizer;
    return spec;
  }

  /// A POST of one JSON-RPC frame, which may be answered as JSON or SSE.
  request_spec json_post(std::string frame) const {
    auto spec = base_request(http_method::post);
    spec.headers.emplace_back("Content-Type", "application/json");
    spec.headers.emplace_back("Accept", "application/json, text/event-stream");
    spec.body = std::move(frame);
    return spec;
  }

  /// The wait before reconnection attempt `attempt` (0 first): the server's
  /// `retry` when it sent one (at least 10 ms, so a `retry: 0` cannot make a
  /// busy loop), else the growing backoff.
  std::chrono::milliseconds reconnect_delay(std::optional<std::chrono::milliseconds> retry, int attempt) const {
    if (retry) return std::max(*retry, std::chrono::milliseconds(10));
    const double grown = static_cast<double>(options.reconnect_delay.count()) *
                         std::pow(std::max(1.0, options.reconnect_growth), std::min(attempt, 64));
    const double capped = std::min(grown, static_cast<double>(options.max_reconnect_delay.count()));
    return std::chrono::milliseconds(static_cast<std::int64_t>(std::max(0.0, capped)));
  }
};

}  // namespace mcp::detail::http_client
