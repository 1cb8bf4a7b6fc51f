// sampling-tool: tools that ask the client for things. `haiku` asks the
// client's model (sampling); `order` asks the user through a form whose
// schema comes from a struct (elicitation). Both fail cleanly, as a tool
// error, when the client did not declare the capability.
//
//   build/bin/sampling-tool     (MCP over stdio)

#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>

#include <boost/describe.hpp>

namespace asio = boost::asio;
namespace json = boost::json;

struct topic_args {
  std::string topic;
};
BOOST_DESCRIBE_STRUCT(topic_args, (), (topic))

enum class size { small, medium, large };
BOOST_DESCRIBE_ENUM(size, small, medium, large)

struct order_form {
  size cup = size::medium;
  bool oat_milk = false;
};
BOOST_DESCRIBE_STRUCT(order_form, (), (cup, oat_milk))

int main() {
  mcp::server srv({"asker", "1.0.0"});
  srv.add_tool("haiku", "Writes a haiku with the client's model",
               [](topic_args a, mcp::request_context& ctx) -> asio::awaitable<std::string> {
                 json::object message{{"role", "user"},
                                      {"content", mcp::content::text("A haiku about " + a.topic)}};
                 json::object request{{"messages", json::array{std::move(message)}}, {"maxTokens", 60}};
                 auto reply = co_await ctx.sample(std::move(request));
                 co_return std::string(reply.at("content").at("text").as_string());
               });
  srv.add_tool("order", "Takes a coffee order from the user",
               [](mcp::request_context& ctx) -> asio::awaitable<std::string> {
                 auto answer = co_await mcp::elicit<order_form>(ctx, "How do you take your coffee?");
                 if (!answer.accepted()) co_return "no coffee (" + answer.action + ")";
                 const auto cup = mcp::to_json_value(answer.content->cup);  // "small", "medium"...
                 co_return "one " + std::string(cup.as_string()) + (answer.content->oat_milk ? " oat" : "") +
                     " coffee";
               });
  return mcp::run_stdio_server(srv);
}
