#include "stream.hpp"
#include "../../detail/as_tuple_awaitable.hpp"

#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <openssl/ssl.h>

namespace mcp::detail {

namespace {
// A peer that does not answer our close_notify does not hold the connection longer.
constexpr std::chrono::milliseconds tls_close_timeout{2000};
}  // namespace

deadline_watchdog::deadline_watchdog(tcp_socket& socket, std::chrono::milliseconds longest_sleep)
    : socket_(socket), longest_sleep_(longest_sleep), timer_(socket.get_executor()) {}

deadline_watchdog::~deadline_watchdog() { *alive_ = false; }

void deadline_watchdog::stop() noexcept { timer_.cancel(); }

void deadline_watchdog::rearm() {
  rearm_ = true;
  timer_.cancel();
}

void deadline_watchdog::watch() {
  running_ = true;
  timer_.expires_at(std::min(deadline_, clock::now() + longest_sleep_));
  timer_.async_wait([this, alive = alive_](boost::system::error_code ec) {
    if (!*alive) return;
    running_ = false;
    if (ec && !std::exchange(rearm_, false)) return;  // stopped: the connection ends
    if (deadline_ == clock::time_point::max()) return;  // nothing runs: the next arm() restarts it
    if (clock::now() < deadline_) return watch();
    timed_out_ = true;
    boost::system::error_code ignored;
    socket_.cancel(ignored);
  });
}

template <class Stream>
bool timed_stream<Stream>::expect_server(const std::string& host) {
  if constexpr (tls) {
    boost::system::error_code not_address;
    asio::ip::make_address(host, not_address);
    if (not_address && !SSL_set_tlsext_host_name(stream_.native_handle(), host.c_str())) return false;
    stream_.set_verify_callback(asio::ssl::host_name_verification(host));
  }
  return true;
}

template <class Stream>
asio::awaitable<boost::system::error_code> timed_stream<Stream>::handshake(tls_role role,
                                                                         std::chrono::milliseconds timeout) {
  boost::system::error_code ec;
  if constexpr (tls) {
    arm(timeout);
    const auto side = role == tls_role::server ? asio::ssl::stream_base::server : asio::ssl::stream_base::client;
    auto [result] = co_await stream_.async_handshake(side, as_tuple_awaitable);
    ec = disarm(result);
  }
  co_return ec;
}

template <class Stream>
asio::awaitable<void> timed_stream<Stream>::close() {
  if constexpr (tls) {
    arm(tls_close_timeout);
    co_await stream_.async_shutdown(as_tuple_awaitable);
    disarm({});
  }
  close_now();
}

template <class Stream>
void timed_stream<Stream>::close_now() noexcept {
  watchdog_.stop();
  close_socket(socket());
}

template class timed_stream<tcp_socket>;
template class timed_stream<tls_socket>;

void close_socket(tcp_socket& socket) noexcept {
  boost::system::error_code ignored;
  socket.shutdown(tcp_socket::shutdown_both, ignored);
  socket.close(ignored);
}

}  // namespace mcp::detail
