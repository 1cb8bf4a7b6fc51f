#pragma once
// Opens an MCP session on a Streamable HTTP connection: POST initialize
// (checked, with its Mcp-Session-Id), then POST notifications/initialized
// (checked: 202).

#include "http_connection.hpp"
#include "http_mode.hpp"
#include "reply_check.hpp"

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <string>

namespace loadgen {

struct opened_session {
  std::string id;       ///< the Mcp-Session-Id; empty when the handshake failed
  std::string problem;  ///< why it failed
};

/// Throws boost::system::system_error when the connection fails.
asio::awaitable<opened_session> open_session(http_connection& connection, const http_mode& mode,
                                             std::int64_t request_id);

}  // namespace loadgen
