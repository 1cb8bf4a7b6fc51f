#pragma once
// Opens a link to Redis, for a connection and a subscriber alike: resolves
// the host (asynchronously), connects, then greets: AUTH and SELECT when the
// config asks for them, SCRIPT LOAD of its scripts, and PING, so that a link
// counts as open only once Redis has answered on it. All of it within
// config::connect_timeout.

#include "config.hpp"
#include "wire.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace mcp::detail::redis {

namespace asio = boost::asio;

/// Opens `socket` to the server `cfg` names, through `resolver`; `replies`
/// is the new link's (fresh) decoder. close()ing the socket or cancelling
/// the resolver from the same executor ends it early. Throws unavailable
/// (not_connected) saying which step failed ("cannot connect: Connection
/// refused", "AUTH failed: WRONGPASS ..."), with the socket closed.
asio::awaitable<void> dial(asio::ip::tcp::socket& socket, asio::ip::tcp::resolver& resolver, const config& cfg,
                           decoder& replies);

}  // namespace mcp::detail::redis
