#include "fetch.hpp"
#include "connection_pool.hpp"
#include "http_error.hpp"

#include <boost/algorithm/string/predicate.hpp>

namespace mcp::detail::http_client {

std::string fetch_response::header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (boost::algorithm::iequals(key, name)) return value;
  return {};
}

std::string fetch_response::media_type() const { return media_type_of(header("Content-Type")); }

struct http_fetcher::impl {
  asio::any_io_executor executor;
  fetch_options options;
  http_client_options pool_options;
  // One pool per scheme: a pool has one TLS context or none. Made on first use.
  std::shared_ptr<connection_pool> plain, tls;
  bool closed = false;

  const std::shared_ptr<connection_pool>& pool_for(bool secure) {
    auto& pool = secure ? tls : plain;
    if (!pool) pool = std::make_shared<connection_pool>(executor, pool_options, secure, !options.allow_private_addresses);
    return pool;
  }
};

http_fetcher::http_fetcher(asio::any_io_executor ex, fetch_options options) : impl_(std::make_unique<impl>()) {
  auto& d = *impl_;
  d.executor = std::move(ex);
  d.options = std::move(options);
  d.pool_options.connect_timeout = d.options.connect_timeout;
  d.pool_options.ca_file = d.options.ca_file;
  d.pool_options.verify_peer = d.options.verify_peer;
  d.pool_options.max_connections = 4;
}

http_fetcher::~http_fetcher() { close(); }

asio::awaitable<fetch_response> http_fetcher::fetch(fetch_request request) {
  auto& d = *impl_;
  if (d.closed) throw http_error(asio::error::operation_aborted, "HTTP client closed");
  auto endpoint = parse_endpoint(request.url);
  const auto& pool = d.pool_for(endpoint.tls);
  request_spec spec;
  spec.method = request.method;
  spec.headers = std::move(request.headers);
  spec.body = std::move(request.body);
  http_exchange exchange(pool, std::move(endpoint), std::move(spec));
  co_await exchange.send(d.options.timeout);
  co_await exchange.read_head(d.options.timeout);
  fetch_response response;
  try {
    response.body = co_await exchange.read_body(d.options.max_body_size, d.options.timeout);
  } catch (const std::length_error& e) {
    throw http_error(e.what());
  }
  response.status = exchange.status();
  response.headers = exchange.headers();
  exchange.finish();
  co_return response;
}

void http_fetcher::close() noexcept {
  auto& d = *impl_;
  d.closed = true;
  if (d.plain) d.plain->close_all();
  if (d.tls) d.tls->close_all();
}

}  // namespace mcp::detail::http_client
