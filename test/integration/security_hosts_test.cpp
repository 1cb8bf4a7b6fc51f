// DNS rebinding (docs/security.md): with http_server_options::allowed_hosts
// set, a request naming any other Host is refused with 403, the way a
// server bound to 0.0.0.0 or an intranet address refuses it (the rule
// itself, per bind address, is test/unit/security/host_rules_test.cpp).

#include <mcp/server/http_server.hpp>

#include "http_client.hpp"
#include "http_test_server.hpp"
#include "test_support.hpp"

#include <string>

namespace mcp::test {
namespace {

TEST(SecurityHosts, OnlyTheListedNamesReachTheServer) {
  http_server_options options;
  options.allowed_hosts = {"mcp.example.com"};  // any port
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto port = std::to_string(s.port());
    auto init = mcp_post(rpc_request(0, "initialize", initialize_params()));

    // The attacker's page: its own name, rebound to the server's address.
    init.set("Host", "rebound.evil.example:" + port);
    const auto refused = co_await c.send(init);
    EXPECT_EQ(refused.status, 403u);
    EXPECT_EQ(s.http.session_count(), 0u);

    init.set("Host", "MCP.Example.com:" + port);
    const auto served = co_await c.send(init);
    EXPECT_EQ(served.status, 200u);
    EXPECT_EQ(s.http.session_count(), 1u);
  });
}

}  // namespace
}  // namespace mcp::test
