// plain-main: both sides of MCP from a program without an event loop. A
// server on threads of its own (mcp::background_http_server), and a client
// whose calls block (mcp::blocking_client), from an ordinary main(): what a
// GUI application or a game loop does. Its sampling is answered from the
// main thread, later, as a dialog would.
//
//   build/bin/plain-main

#include <mcp/client/blocking_client.hpp>
#include <mcp/server/background_http_server.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/http_client.hpp>

#include <boost/asio/awaitable.hpp>

#include <future>
#include <iostream>
#include <string>
#include <thread>

namespace asio = boost::asio;
namespace json = boost::json;

int main() {
  // The server: one tool that asks the client's model.
  mcp::server srv({"plain-main", "1.0.0"});
  srv.add_tool("haiku", "Asks the client's model for a haiku",
               [](mcp::request_context& ctx) -> asio::awaitable<std::string> {
                 json::object message{{"role", "user"}, {"content", mcp::content::text("a haiku, please")}};
                 json::object params{{"messages", json::array{std::move(message)}}, {"maxTokens", 60}};
                 auto reply = co_await ctx.sample(std::move(params));
                 co_return std::string(reply.at("content").as_object().at("text").as_string());
               });
  mcp::background_http_server http(srv, {});  // 127.0.0.1, a free port

  // The client: sampling requests are handed to the main thread.
  mcp::blocking_client client;
  std::promise<mcp::server_request_reply> asked;
  client.on_sampling([&](json::object, mcp::server_request_reply reply) { asked.set_value(std::move(reply)); });
  client.connect([ex = client.get_executor(), url = http.url()] { return mcp::connect_http(ex, url); });
  std::cout << "connected to " << client.server().server_info.name << " at " << http.url() << "\n";

  // The call blocks, so it runs on a thread of its own while main answers.
  auto call = std::async(std::launch::async, [&] { return client.call_tool("haiku"); });
  auto reply = asked.get_future().get();
  reply.result({{"role", "assistant"},
                {"content", {{"type", "text"}, {"text", "old pond / a frog jumps in / the sound of water"}}},
                {"model", "main-thread"}});
  std::cout << call.get().text_content() << "\n";

  client.close();
  http.stop();
  return http.wait().exit_code;
}
