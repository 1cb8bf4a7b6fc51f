#pragma once
// The byte stream under one HTTP connection, for both sides of HTTP (the
// server's connections in server/, the client's in client/): plain TCP or
// TLS over it, the type chosen once, as the template argument, so that the
// code above it has no branch on which it is. What differs between the two
// (the TLS handshake, its close) is decided here, at compile time. Every
// operation runs under a deadline, kept by one timer per connection.
//
// Only the .cpp files that read and write include this header (it brings
// Asio's sockets and timers); the TLS type is complete in those that include
// <boost/asio/ssl/stream.hpp>, as they must to read from it.

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace boost::asio::ssl {
template <typename Stream>
class stream;
}

namespace mcp::detail {

namespace asio = boost::asio;

using tcp_socket = asio::ip::tcp::socket;
using tls_socket = asio::ssl::stream<tcp_socket>;

/// The deadline of the operation under way on a socket: one timer for as
/// long as the connection lives, not one per operation. An operation sets
/// its deadline (arm) and ends it (disarm); the timer wakes at the deadline
/// or `longest_sleep` after it last looked, whichever comes first, and looks
/// again. So it is re-armed about once per `longest_sleep` rather than on
/// every read and write, and a deadline is still met on time. A deadline that
/// passes cancels what runs on the socket.
class deadline_watchdog {
 public:
  /// `longest_sleep`: the usual timeout of the connection's operations, so
  /// that most arm() calls find the timer waking early enough already.
  deadline_watchdog(tcp_socket& socket, std::chrono::milliseconds longest_sleep);
  ~deadline_watchdog();
  deadline_watchdog(const deadline_watchdog&) = delete;
  deadline_watchdog& operator=(const deadline_watchdog&) = delete;

  /// The operation about to start must end within `timeout`.
  void arm(std::chrono::milliseconds timeout) {
    timed_out_ = false;
    deadline_ = clock::now() + timeout;
    if (!running_) return watch();
    // Only a timeout shorter than `longest_sleep` (a TLS close, a short
    // read) comes before the timer wakes: wake it now to look again.
    if (deadline_ < timer_.expiry()) rearm();
  }

  /// Ends the deadline of an operation that ended with `ec`; a cancellation
  /// by the watchdog is reported as asio::error::timed_out.
  boost::system::error_code disarm(boost::system::error_code ec) noexcept {
    deadline_ = clock::time_point::max();
    if (ec && timed_out_) return make_error_code(asio::error::timed_out);
    return ec;
  }

  /// The deadline of the operation armed last passed (and cancelled it).
  bool timed_out() const noexcept { return timed_out_; }

  /// The connection ends: the timer stops.
  void stop() noexcept;

 private:
  using clock = std::chrono::steady_clock;

  void watch();
  void rearm();

  tcp_socket& socket_;
  std::chrono::milliseconds longest_sleep_;
  asio::steady_timer timer_;
  clock::time_point deadline_ = clock::time_point::max();
  bool running_ = false;
  bool rearm_ = false;  // the timer was woken early to look again
  bool timed_out_ = false;
  // The timer's handler may run after this object is gone: it checks first.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

enum class tls_role { client, server };

/// A plain (tcp_socket) or TLS (tls_socket) stream and the deadline of its
/// operations. Reads and writes go to raw(), between arm() and disarm().
template <class Stream>
class timed_stream {
 public:
  static constexpr bool tls = std::is_same_v<Stream, tls_socket>;

  /// `args` construct the stream (a socket or an executor; and for TLS, the
  /// ssl::context).
  template <class... Args>
  explicit timed_stream(std::chrono::milliseconds longest_sleep, Args&&... args)
      : stream_(std::forward<Args>(args)...), watchdog_(socket(), longest_sleep) {}
  timed_stream(const timed_stream&) = delete;
  timed_stream& operator=(const timed_stream&) = delete;

  Stream& raw() noexcept { return stream_; }
  tcp_socket& socket() noexcept {
    if constexpr (tls) return stream_.next_layer();
    else return stream_;
  }

  void arm(std::chrono::milliseconds timeout) { watchdog_.arm(timeout); }
  boost::system::error_code disarm(boost::system::error_code ec) noexcept { return watchdog_.disarm(ec); }
  bool timed_out() const noexcept { return watchdog_.timed_out(); }

  /// TLS client: names the server for SNI (host names only, never
  /// addresses: RFC 6066) and has its certificate checked against `host`.
  /// False when the name cannot be set. Plain TCP: nothing to do.
  bool expect_server(const std::string& host);
  /// The TLS handshake in `role`, within `timeout`; plain TCP has none.
  asio::awaitable<boost::system::error_code> handshake(tls_role role, std::chrono::milliseconds timeout);
  /// Ends the connection in order: for TLS a close_notify first (within a
  /// short deadline of its own), then the socket closes.
  asio::awaitable<void> close();
  /// Ends the connection now: what is pending completes with an error.
  void close_now() noexcept;

 private:
  Stream stream_;
  deadline_watchdog watchdog_;  // after the stream, which it watches
};

/// Shuts both directions of the socket down and closes it. Never throws.
void close_socket(tcp_socket& socket) noexcept;

}  // namespace mcp::detail
