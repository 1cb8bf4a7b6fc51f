#pragma once
// The clients under test behind one face: one mcp::client over stdio or
// HTTP, or an mcp::client_pool over HTTP.

#include "options.hpp"

#include <mcp/client/client.hpp>
#include <mcp/client/pool.hpp>

#include <memory>
#include <string_view>

namespace bench_client {

namespace asio = boost::asio;

class clients {
 public:
  /// Spawns or reaches the server and connects (every pooled connection).
  static asio::awaitable<std::unique_ptr<clients>> connect(asio::any_io_executor ex, const options& o);

  /// The client of the next call: the one client, or the pool's next.
  mcp::client& next() { return pool_ ? pool_->next() : *single_; }
  /// The protocol version the (first) connection negotiated.
  std::string_view protocol() const;
  asio::awaitable<void> close();

 private:
  std::unique_ptr<mcp::client> single_;
  std::unique_ptr<mcp::client_pool> pool_;
};

}  // namespace bench_client
