#include "connection.hpp"
#include "http_error.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include <openssl/ssl.h>

#include <cerrno>

#include <sys/socket.h>

namespace mcp::detail::http_client {

namespace {

constexpr auto as_tuple_awaitable = asio::as_tuple(asio::use_awaitable);
using tcp = asio::ip::tcp;

[[noreturn]] void fail(boost::system::error_code ec, const std::string& what) {
  if (ec == beast::error::timeout) ec = asio::error::timed_out;
  throw http_error(ec, what);
}

// Names resolution cannot be cancelled per operation: a timer cancels the
// resolver instead, through a weak pointer (the resolver may be gone).
asio::awaitable<tcp::resolver::results_type> resolve(asio::any_io_executor ex, const http_endpoint& ep,
                                                      std::chrono::milliseconds timeout) {
  auto resolver = std::make_shared<tcp::resolver>(ex);
  asio::steady_timer timer(ex);
  timer.expires_after(timeout);
  timer.async_wait([weak = std::weak_ptr<tcp::resolver>(resolver)](boost::system::error_code ec) {
    if (ec) return;
    if (auto r = weak.lock()) r->cancel();
  });
  auto [ec, results] = co_await resolver->async_resolve(ep.host, ep.port, as_tuple_awaitable);
  const bool timed_out = ec == asio::error::operation_aborted && timer.expiry() <= asio::steady_timer::clock_type::now();
  timer.cancel();
  if (timed_out) fail(asio::error::timed_out, "resolve " + ep.host);
  if (ec) fail(ec, "resolve " + ep.host);
  co_return results;
}

}  // namespace

connection::connection(asio::any_io_executor ex, asio::ssl::context* tls) {
  if (tls)
    tls_ = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(ex, *tls);
  else
    plain_ = std::make_unique<beast::tcp_stream>(ex);
}

connection::~connection() { close(); }

beast::tcp_stream& connection::tcp() noexcept { return tls_ ? tls_->next_layer() : *plain_; }

asio::awaitable<void> connection::open(const http_endpoint& ep, std::chrono::milliseconds timeout) {
  origin_ = ep.origin();
  const auto authority = ep.host_header;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto remaining = [&] {
    return std::max(std::chrono::milliseconds(1), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                      deadline - std::chrono::steady_clock::now()));
  };
  const auto results = co_await resolve(tcp().get_executor(), ep, timeout);
  if (closed_) fail(asio::error::operation_aborted, "connect to " + authority);
  tcp().expires_after(remaining());
  auto [ec, endpoint] = co_await tcp().async_connect(results, as_tuple_awaitable);
  if (closed_) {
    // close() came during the attempts; a later endpoint may have reopened the socket.
    boost::system::error_code ignored;
    tcp().socket().close(ignored);
    fail(asio::error::operation_aborted, "connect to " + authority);
  }
  if (ec == beast::error::timeout) fail(asio::error::timed_out, "connect to " + authority);
  if (ec) fail(ec, "connect to " + authority);
  boost::system::error_code ignored;
  tcp().socket().set_option(tcp::no_delay(true), ignored);
  if (tls_) {
    // SNI carries host names only, never addresses (RFC 6066).
    boost::system::error_code not_address;
    asio::ip::make_address(ep.host, not_address);
    if (not_address && !SSL_set_tlsext_host_name(tls_->native_handle(), ep.host.c_str()))
      fail(asio::error::invalid_argument, "TLS: cannot set the server name " + ep.host);
    tls_->set_verify_callback(asio::ssl::host_name_verification(ep.host));
    tcp().expires_after(remaining());
    auto [hs] = co_await tls_->async_handshake(asio::ssl::stream_base::client, as_tuple_awaitable);
    if (hs == beast::error::timeout) fail(asio::error::timed_out, "TLS handshake with " + authority);
    if (hs) fail(hs, "TLS handshake with " + authority);
  }
  tcp().expires_never();
}

asio::awaitable<boost::system::error_code> connection::write(request_message& req, std::chrono::milliseconds timeout) {
  tcp().expires_after(timeout);
  boost::system::error_code ec;
  if (tls_) {
    auto [e, n] = co_await http::async_write(*tls_, req, as_tuple_awaitable);
    ec = e;
  } else {
    auto [e, n] = co_await http::async_write(*plain_, req, as_tuple_awaitable);
    ec = e;
  }
  if (!closed_) tcp().expires_never();
  co_return ec;
}

asio::awaitable<boost::system::error_code> connection::read_head(response_parser& parser,
                                                                std::chrono::milliseconds timeout) {
  tcp().expires_after(timeout);
  boost::system::error_code ec;
  if (tls_) {
    auto [e, n] = co_await http::async_read_header(*tls_, buffer_, parser, as_tuple_awaitable);
    ec = e;
  } else {
    auto [e, n] = co_await http::async_read_header(*plain_, buffer_, parser, as_tuple_awaitable);
    ec = e;
  }
  if (!closed_) tcp().expires_never();
  co_return ec;
}

asio::awaitable<boost::system::error_code> connection::read_some(response_parser& parser,
                                                                std::chrono::milliseconds timeout) {
  tcp().expires_after(timeout);
  boost::system::error_code ec;
  if (tls_) {
    auto [e, n] = co_await http::async_read_some(*tls_, buffer_, parser, as_tuple_awaitable);
    ec = e;
  } else {
    auto [e, n] = co_await http::async_read_some(*plain_, buffer_, parser, as_tuple_awaitable);
    ec = e;
  }
  if (ec == http::error::need_buffer) ec = {};
  if (!closed_) tcp().expires_never();
  co_return ec;
}

void connection::close() noexcept {
  if (closed_) return;
  closed_ = true;
  boost::system::error_code ignored;
  auto& socket = tcp().socket();
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}

bool connection::still_usable() noexcept {
  if (closed_ || buffer_.size() != 0) return false;
  auto& socket = tcp().socket();
  if (!socket.is_open()) return false;
  char byte;
  const auto n = ::recv(socket.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  // Nothing to read is what an idle connection looks like; EOF or stray
  // bytes (a TLS close_notify, say) mean the server is done with it.
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

}  // namespace mcp::detail::http_client
