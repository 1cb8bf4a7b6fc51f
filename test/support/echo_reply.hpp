#pragma once
// The echo tool (make_tools(), the example servers) called through our
// client: its answer's text.

#include "test_support.hpp"

#include <mcp/client/client.hpp>

#include <string>
#include <utility>

namespace mcp::test {

inline asio::awaitable<std::string> echo_reply(mcp::client& c, std::string text) {
  json::object args{{"text", std::move(text)}};
  auto result = co_await c.call_tool("echo", std::move(args));
  co_return first_text(result);
}

}  // namespace mcp::test
