#pragma once
// A server the test plays frame by frame on the other end of a memory pair:
// the client's handshake and answers, written by hand.

#include "test_support.hpp"

#include <mcp/client/client.hpp>
#include <mcp/transport/transport.hpp>

#include <memory>
#include <string>

namespace mcp::test {

// Answers the client's initialize with `version`; returns the request seen.
inline asio::awaitable<json::value> accept_initialize(message_transport& server,
                                                      std::string version = "2025-11-25") {
  auto hello = co_await read_json(server);
  json::object result{{"protocolVersion", version},
                      {"capabilities", {{"tools", json::object{}}}},
                      {"serverInfo", {{"name", "scripted"}, {"version", "0.1"}}}};
  json::object reply{{"jsonrpc", "2.0"}, {"id", hello.at("id")}, {"result", std::move(result)}};
  co_await write_json(server, reply);
  auto initialized = co_await read_json(server);
  EXPECT_EQ(initialized.at("method"), "notifications/initialized");
  co_return hello;
}

/// A client and the scripted server on the other end of its connection.
struct connected_pair {
  std::unique_ptr<message_transport> server;
  std::unique_ptr<mcp::client> client;
};

inline asio::awaitable<void> reply_result(message_transport& server, const json::value& id, json::object result) {
  json::object reply{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
  co_await write_json(server, reply);
}

}  // namespace mcp::test
