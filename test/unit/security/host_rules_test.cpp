// The Host and Origin rules of the HTTP server (DNS rebinding,
// docs/security.md), as the server applies them on a loopback address and
// on any other one (0.0.0.0, an intranet address), which a test cannot bind.

#include "server/http/request_rules.hpp"

#include <boost/asio/buffer.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mcp::detail {
namespace {

served_request request_with(const std::string& host, const std::string& origin = {}) {
  std::string text = "GET /mcp HTTP/1.1\r\nHost: " + host + "\r\n";
  if (!origin.empty()) text += "Origin: " + origin + "\r\n";
  text += "\r\n";
  served_request req;
  request_reader reader(req, known_header_slot);
  boost::system::error_code ec;
  reader.put(boost::asio::buffer(text), ec);
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_TRUE(reader.is_done());
  return req;
}

bool host_refused(const std::string& host, bool loopback, const std::vector<std::string>& allowed) {
  return origin_refusal(request_with(host), loopback, allowed, {}).has_value();
}

constexpr bool on_loopback = true;
constexpr bool elsewhere = false;

TEST(HostRules, OnLoopbackOnlyLocalhostNamesAndTheListedOnes) {
  for (const std::string host : {"localhost", "localhost:8080", "LocalHost:1", "127.0.0.1:3000", "[::1]:80"})
    EXPECT_FALSE(host_refused(host, on_loopback, {})) << host;
  // A page of the attacker's, its name rebound to 127.0.0.1, sends its own name.
  for (const std::string host : {"evil.example", "evil.example:8080", "127.0.0.1.evil.example", ""})
    EXPECT_TRUE(host_refused(host, on_loopback, {})) << host;
  EXPECT_FALSE(host_refused("mcp.internal:8080", on_loopback, {"mcp.internal"}));
}

TEST(HostRules, ElsewhereTheListIsTheRuleOnceItIsSet) {
  const std::vector<std::string> allowed{"mcp.example.com", "Gateway.Example:8443"};
  EXPECT_FALSE(host_refused("mcp.example.com", elsewhere, allowed));
  EXPECT_FALSE(host_refused("MCP.example.com:443", elsewhere, allowed));  // no port listed: any port, any case
  EXPECT_FALSE(host_refused("gateway.example:8443", elsewhere, allowed));
  EXPECT_TRUE(host_refused("gateway.example:8080", elsewhere, allowed));  // a port listed: that port only
  EXPECT_TRUE(host_refused("evil.example", elsewhere, allowed));
  EXPECT_TRUE(host_refused("mcp.example.com.evil.example", elsewhere, allowed));
  // localhost is no name of a server bound elsewhere (a rebinding page could not send it,
  // but the list says what the server is called).
  EXPECT_TRUE(host_refused("localhost:8080", elsewhere, allowed));
  // Without a list a server bound elsewhere takes any Host, as before (documented).
  EXPECT_FALSE(host_refused("anything.example", elsewhere, {}));
}

TEST(HostRules, OriginsMustBeLocalOrListedWhereverTheServerListens) {
  for (const bool loopback : {on_loopback, elsewhere}) {
    const std::vector<std::string> hosts{"localhost", "mcp.example.com"};
    const std::vector<std::string> origins{"https://app.example.com"};
    EXPECT_FALSE(origin_refusal(request_with("localhost", "http://localhost:5173"), loopback, hosts, origins));
    EXPECT_FALSE(origin_refusal(request_with("mcp.example.com", "https://app.example.com"), loopback, hosts, origins));
    EXPECT_TRUE(origin_refusal(request_with("mcp.example.com", "https://evil.example"), loopback, hosts, origins));
    EXPECT_TRUE(origin_refusal(request_with("mcp.example.com", "https://app.example.com.evil.example"), loopback,
                               hosts, origins));
  }
}

}  // namespace
}  // namespace mcp::detail
