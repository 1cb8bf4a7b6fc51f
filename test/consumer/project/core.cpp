// Serves a one-method behaviour over an in-memory pair and calls it with the
// client: proof that the installed headers (through the umbrella header),
// core library and CMake package work, and belong to the same version.

#include <mcp/mcp.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <iostream>
#include <string_view>

namespace asio = boost::asio;
namespace json = boost::json;

class hello final : public mcp::server_behaviour {
 public:
  mcp::implementation server_info() const override { return {"hello", "1.0"}; }
  json::object capabilities() const override { return {}; }
  asio::awaitable<json::object> handle_request(const mcp::request& req,
                                               mcp::request_context&) override {
    if (req.method != "hello") throw mcp::protocol_error(mcp::errc::method_not_found, req.method);
    co_return json::object{{"greeting", "hello, consumer"}};
  }
};

int main() {
  if (std::string_view(mcp::library_version()) != mcp::version_string) {
    std::cerr << "headers " << mcp::version_string << ", library " << mcp::library_version() << "\n";
    return 1;
  }
  asio::io_context io;
  hello server;
  auto [client_end, server_end] = mcp::make_memory_pair(io.get_executor());
  asio::co_spawn(io, mcp::serve(server, *server_end), asio::detached);
  int status = 1;
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    mcp::client client(co_await asio::this_coro::executor);
    co_await client.connect(std::move(client_end));
    auto result = co_await client.request("hello");
    std::cout << result.at("greeting").as_string().c_str() << "\n";
    status = result.at("greeting") == "hello, consumer" ? 0 : 1;
    co_await client.close();
  }, asio::detached);
  io.run();
  return status;
}
