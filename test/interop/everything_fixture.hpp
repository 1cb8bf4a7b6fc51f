#pragma once
// The fixture of the feature tests against server-everything: each test runs
// once per transport (TEST_P). Over stdio every connection starts a server
// of its own (a child of the client). Over HTTP the tests of a suite share
// one server per transport, started by the first test that needs it and
// stopped when the suite ends: a node server takes longer to start than most
// tests take to run, and each test has a session of its own anyway.
//
//   class EverythingTools : public everything_test {};
//   TEST_P(EverythingTools, Echo) { ... co_await connect(c); ... }
//   INSTANTIATE_TEST_SUITE_P(Transports, EverythingTools, every_transport(), transport_name);

#include "everything_server.hpp"
#include "test_support.hpp"

#include <mcp/client/client.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mcp::test {

class everything_test : public ::testing::TestWithParam<everything_transport> {
 public:
  /// Stops the suite's HTTP servers.
  static void TearDownTestSuite();

 protected:
  void SetUp() override;

  everything_transport transport() const { return GetParam(); }
  /// A new connection to this test's server (over stdio: a new server).
  asio::awaitable<std::unique_ptr<message_transport>> open_transport();
  /// Connects `c` (set its handlers first); the server's `initialize` answer.
  asio::awaitable<initialize_result> connect(client& c);
  /// This test's server, for the HTTP transports.
  const everything_http_server& http_server() const { return *server_; }

 private:
  static std::map<everything_transport, std::unique_ptr<everything_http_server>>& shared_servers();

  everything_http_server* server_ = nullptr;
};

inline auto every_transport() {
  return ::testing::Values(everything_transport::stdio, everything_transport::streamable_http,
                           everything_transport::legacy_sse, everything_transport::gateway);
}

inline std::string transport_name(const ::testing::TestParamInfo<everything_transport>& info) {
  return to_string(info.param);
}

/// Waits until `condition()` holds, checking every 10 ms; false when `limit`
/// passes first. For what the server sends in its own time (notifications).
/// Pass a named callable: it is held by reference.
template <class Condition>
asio::awaitable<bool> eventually(const Condition& condition, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= until) co_return false;
    co_await sleep_for(10ms);
  }
  co_return true;
}

/// The text of every text block of a tool result, in order.
std::vector<std::string> texts(const call_tool_result& result);

/// A content block's "type".
std::string block_type(const json::value& block);

}  // namespace mcp::test
