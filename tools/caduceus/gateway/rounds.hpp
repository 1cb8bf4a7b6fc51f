#pragma once
// A 2026-07-28 request to a 2026-07-28 upstream: its input rounds pass
// through, and nothing is held in the gateway. What the upstream asks is
// asked of the client under the upstream's own keys (several at once, as it
// asked them), and the upstream's requestState rides inside the gateway's own
// (the request's carried value), so that the client's retry takes it back
// upstream with the answers.

#include "upstream_link.hpp"

namespace caduceus::gateway {

/// Serves `req` through `link`, whose upstream speaks 2026-07-28. Returns the
/// upstream's result, or throws input_required with what it asks.
asio::awaitable<json::object> serve_rounds(upstream_link& link, const mcp::request& req, mcp::request_context& ctx);

}  // namespace caduceus::gateway
