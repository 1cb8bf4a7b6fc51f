#pragma once
// Which addresses a fetch made on a peer's word may reach (SSRF: a server's
// WWW-Authenticate or metadata must not make us request the machine we run
// on, its network, or a cloud's metadata service at 169.254.169.254). The
// connection applies the rule to each address the host name resolved to,
// right before connecting to that very address: a name that resolves to a
// public address once and to a private one the next time (DNS rebinding)
// gains nothing.

#include <boost/asio/ip/address.hpp>

#include <string_view>

namespace mcp::detail::http_client {

/// What kind of non-public address `address` is: "loopback", "private",
/// "link-local", "unique-local", "shared", "unspecified", "multicast" or
/// "reserved"; empty for a public one. An IPv6 address carrying an IPv4 one
/// (mapped, NAT64, 6to4) is judged by the IPv4 address.
std::string_view non_public_kind(const boost::asio::ip::address& address);

}  // namespace mcp::detail::http_client
