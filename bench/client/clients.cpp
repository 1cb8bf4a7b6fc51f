#include "clients.hpp"

#include <mcp/transport/http_client.hpp>
#include <mcp/transport/process.hpp>

#include <boost/asio/this_coro.hpp>

namespace bench_client {

namespace {

mcp::process_options server_process(const std::vector<std::string>& command) {
  mcp::process_options process;
  process.command = command.front();
  process.args.assign(command.begin() + 1, command.end());
  return process;
}

mcp::client_options client_options(const options& o) {
  mcp::client_options chosen;
  if (o.legacy) chosen.versions.assign(mcp::legacy_versions().begin(), mcp::legacy_versions().end());
  return chosen;
}

}  // namespace

asio::awaitable<std::unique_ptr<clients>> clients::connect(asio::any_io_executor ex, const options& o) {
  auto made = std::make_unique<clients>();
  if (o.pool > 0) {
    mcp::pool_options pooled;
    pooled.size = o.pool;
    pooled.client = client_options(o);
    mcp::transport_factory factory = [ex, url = o.url]() { return mcp::connect_http(ex, url); };
    made->pool_ = std::make_unique<mcp::client_pool>(ex, std::move(factory), std::move(pooled));
    co_await made->pool_->connect();
    co_return made;
  }
  made->single_ = std::make_unique<mcp::client>(ex, client_options(o));
  std::unique_ptr<mcp::message_transport> transport;  // (no co_await inside ?: with g++ 12)
  if (o.transport == "stdio") transport = mcp::spawn_process(ex, server_process(o.command));
  else transport = co_await mcp::connect_http(ex, o.url);
  co_await made->single_->connect(std::move(transport));
  co_return made;
}

std::string_view clients::protocol() const {
  const mcp::client& first = pool_ ? pool_->next() : *single_;
  return mcp::to_string(first.server().version);
}

asio::awaitable<void> clients::close() {
  if (pool_) co_await pool_->close();
  else co_await single_->close();
}

}  // namespace bench_client
