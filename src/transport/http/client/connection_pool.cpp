#include "connection_pool.hpp"
#include "connection.hpp"
#include "http_error.hpp"

#include "../tls_context.hpp"

#include <boost/asio/ssl/context.hpp>

namespace mcp::detail::http_client {

namespace {
// An idle connection older than this is closed rather than reused: servers
// close idle keep-alive connections after a while (ours after 60 s).
constexpr std::chrono::seconds max_idle_age{30};
}  // namespace

// --- lease ---------------------------------------------------------------------

lease::lease() noexcept = default;

lease::lease(std::shared_ptr<connection_pool> pool, std::unique_ptr<connection> conn) noexcept
    : pool_(std::move(pool)), conn_(std::move(conn)) {
  if (conn_) pool_->active_.insert(conn_.get());
}

lease::lease(lease&& other) noexcept : pool_(std::move(other.pool_)), conn_(std::move(other.conn_)) {}

lease& lease::operator=(lease&& other) noexcept {
  if (this != &other) {
    release(false);
    pool_ = std::move(other.pool_);
    conn_ = std::move(other.conn_);
  }
  return *this;
}

lease::~lease() { release(false); }

void lease::release(bool reusable) noexcept {
  if (!conn_) return;
  pool_->give_back(std::move(conn_), reusable);
  pool_.reset();
}

// --- connection_pool -------------------------------------------------------------

connection_pool::connection_pool(asio::any_io_executor ex, const http_client_options& options, bool tls,
                                 bool public_only)
    : executor_(ex),
      connect_timeout_(options.connect_timeout),
      max_idle_(options.max_connections + 2),
      public_only_(public_only) {
  if (tls) tls_ = make_client_tls_context(options.ca_file, options.verify_peer);
}

connection_pool::~connection_pool() { close_all(); }

asio::awaitable<lease> connection_pool::acquire(const http_endpoint& ep) {
  const auto origin = ep.origin();
  const auto now = std::chrono::steady_clock::now();
  // The newest idle connection first: the least likely to have been closed.
  while (!closed_ && !idle_.empty()) {
    auto conn = std::move(idle_.back());
    idle_.pop_back();
    if (conn->origin() == origin && now - conn->idle_since < max_idle_age && conn->still_usable()) {
      conn->reused = true;
      co_return lease(shared_from_this(), std::move(conn));
    }
  }
  co_return co_await connect(ep);
}

asio::awaitable<lease> connection_pool::acquire_new(const http_endpoint& ep) {
  co_return co_await connect(ep);
}

asio::awaitable<lease> connection_pool::connect(const http_endpoint& ep) {
  if (closed_) throw http_error(asio::error::operation_aborted, "HTTP transport closed");
  if (ep.tls && !tls_) throw http_error(asio::error::invalid_argument, "no TLS context for " + ep.url);
  // Known to the pool while it connects, so close_active() ends the attempt too.
  lease taken(shared_from_this(), make_connection(executor_, ep.tls ? tls_.get() : nullptr, connect_timeout_, public_only_));
  co_await taken->open(ep, connect_timeout_);
  co_return taken;
}

void connection_pool::give_back(std::unique_ptr<connection> conn, bool reusable) noexcept {
  active_.erase(conn.get());
  if (!reusable || closed_ || !conn->is_open()) return;  // destroyed: closed
  conn->idle_since = std::chrono::steady_clock::now();
  idle_.push_back(std::move(conn));
  if (idle_.size() > max_idle_) idle_.erase(idle_.begin());
}

void connection_pool::close_active() noexcept {
  for (auto* conn : active_) conn->close();
}

void connection_pool::close_all() noexcept {
  closed_ = true;
  close_active();
  idle_.clear();
}

}  // namespace mcp::detail::http_client
