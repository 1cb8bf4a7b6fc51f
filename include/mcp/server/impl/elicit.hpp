#pragma once
// Template body of mcp::elicit<T>, declared in mcp/server/server.hpp.

#include <mcp/json/convert.hpp>
#include <mcp/json/schema.hpp>

namespace mcp {

template <class T>
asio::awaitable<elicited<T>> elicit(request_context& ctx, std::string message,
                                    std::chrono::milliseconds timeout) {
  auto answer = co_await ctx.elicit(std::move(message), schema_of<T>(), timeout);
  elicited<T> out;
  if (const auto* action = answer.if_contains("action"); action && action->is_string())
    out.action = std::string(action->get_string());
  if (const auto* content = answer.if_contains("content"); content && out.action == "accept")
    out.content = from_json<T>(*content);
  co_return out;
}

}  // namespace mcp
