#pragma once
// Keep-alive connections of one HTTP client transport: a connection whose
// response was read to its end goes back to the pool and carries the next
// request; the pool knows every connection in use, so the transport can end
// them all at once (close()).

#include "url.hpp"

#include <mcp/transport/http_client.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <memory>
#include <set>
#include <vector>

namespace boost::asio::ssl {
class context;
}

namespace mcp::detail::http_client {

class connection;
class connection_pool;

/// A connection taken from the pool; closed when dropped without release().
class lease {
 public:
  lease() noexcept;
  lease(std::shared_ptr<connection_pool> pool, std::unique_ptr<connection> conn) noexcept;
  lease(lease&& other) noexcept;
  lease& operator=(lease&& other) noexcept;
  ~lease();

  connection* operator->() const noexcept { return conn_.get(); }
  connection& operator*() const noexcept { return *conn_; }
  explicit operator bool() const noexcept { return conn_ != nullptr; }

  /// Gives the connection back: kept for the next request when `reusable`
  /// (the response was read to its end and allows keep-alive), else closed.
  void release(bool reusable) noexcept;

 private:
  std::shared_ptr<connection_pool> pool_;
  std::unique_ptr<connection> conn_;
};

class connection_pool : public std::enable_shared_from_this<connection_pool> {
 public:
  /// Builds the TLS context when `tls` (throws when `ca_file` cannot be
  /// loaded). With `public_only` its connections reach public addresses only
  /// (make_connection).
  connection_pool(asio::any_io_executor ex, const http_client_options& options, bool tls, bool public_only = false);
  ~connection_pool();

  /// A connection to `ep`: an idle one the server has not closed, else a new
  /// one (within connect_timeout). Throws http_error when it cannot connect,
  /// operation_aborted once the pool is closed.
  asio::awaitable<lease> acquire(const http_endpoint& ep);
  /// Like acquire(), but never an idle connection.
  asio::awaitable<lease> acquire_new(const http_endpoint& ep);

  /// Ends every connection in use: their pending operations fail.
  void close_active() noexcept;
  /// Ends every connection, idle ones too; later acquires fail.
  void close_all() noexcept;
  bool closed() const noexcept { return closed_; }

 private:
  friend class lease;
  void give_back(std::unique_ptr<connection> conn, bool reusable) noexcept;
  asio::awaitable<lease> connect(const http_endpoint& ep);

  asio::any_io_executor executor_;
  std::chrono::milliseconds connect_timeout_;
  std::size_t max_idle_;
  bool public_only_;
  std::unique_ptr<asio::ssl::context> tls_;
  std::vector<std::unique_ptr<connection>> idle_;  // oldest first
  std::set<connection*> active_;
  bool closed_ = false;
};

}  // namespace mcp::detail::http_client
