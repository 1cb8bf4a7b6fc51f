#pragma once
// Where the MCP server writes the response to one request, whoever carries
// it: a connection of the built-in listener (HTTP/1.1 on a socket,
// connection_io.hpp), or the exchange that an application's own HTTP server
// drives through an http_endpoint (server/http/exchange_channel.hpp). The
// server says what a response is (a head, a whole body or the parts of an
// SSE body, the end); how that goes on the wire (HTTP/1.1 text and chunked
// framing, or a value the application's server writes) is the channel's.
//
// Writes are tried at once and say whether everything went: most responses
// fit in a socket's send buffer, and then no coroutine is needed. What a
// channel could not take waits for finish(), which must come before the next
// write.

#include "response_text.hpp"
#include "../../websocket/websocket_connection.hpp"

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mcp::detail {

namespace asio = boost::asio;

class http_request;

class response_channel {
 public:
  /// What has gone through the channel, for its telemetry: bytes both ways
  /// (counted by the reads and writes), and what the writer of the response
  /// last begun noted of it.
  struct traffic {
    std::uint64_t bytes_in = 0;
    std::uint64_t bytes_out = 0;
    unsigned status = 0;     ///< the response's status
    std::string session_id;  ///< the Mcp-Session-Id the response gave (initialize)
  };

  virtual ~response_channel() = default;

  traffic& counted() noexcept { return traffic_; }

  /// Begins a response: its head and its body, whole when
  /// `head.content_length` is set; otherwise the first part of a streamed
  /// (SSE) body, more of which follows with send_part(), `last` ending it.
  /// True when everything went; otherwise finish() writes the rest. Throws
  /// system_error.
  virtual bool send_head(const response_head& head, std::string_view body, bool last) = 0;
  /// More of a streamed body; `last` ends it. As send_head().
  virtual bool send_part(std::string_view data, bool last) = 0;
  /// Writes what send_head() or send_part() left, within the write deadline
  /// (a reader that takes nothing for that long fails it). Throws system_error.
  virtual asio::awaitable<void> finish() = 0;

  /// Watches for the client going away (or the channel failing) while a
  /// response is under way, and then calls `on_close` once, with whether the
  /// client sent bytes meanwhile (they are discarded). A plain callback
  /// rather than a coroutine raced against the response: it runs beside
  /// every answer. One watch at a time; end it with unwatch_close() before
  /// reading the next request.
  virtual void watch_close(std::function<void(bool client_spoke)> on_close) = 0;
  virtual void unwatch_close() = 0;

  /// The client's address and port ("127.0.0.1:5000").
  virtual const std::string& peer() = 0;
  /// Ends the channel (a connection: for TLS, with close_notify), within a deadline.
  virtual asio::awaitable<void> close() = 0;

  /// Whether accept_websocket() can take the channel over.
  virtual bool can_upgrade() const noexcept { return false; }
  /// Hands the channel over to WebSocket: answers the upgrade request `req`
  /// with 101 (transport/websocket). The channel carries nothing else from
  /// then on but must outlive what this returns, and is closed after it.
  /// Throws system_error when the handshake fails (or can_upgrade() is false).
  virtual asio::awaitable<std::unique_ptr<websocket::connection>> accept_websocket(const http_request& req,
                                                                                 websocket::settings settings,
                                                                                 transport_metadata metadata);

 protected:
  traffic traffic_;
};

/// Watches the channel for as long as it lives (see response_channel::watch_close).
class close_watch {
 public:
  close_watch(response_channel& io, std::function<void(bool client_spoke)> on_close) : io_(io) {
    io_.watch_close(std::move(on_close));
  }
  ~close_watch() { io_.unwatch_close(); }
  close_watch(const close_watch&) = delete;
  close_watch& operator=(const close_watch&) = delete;

 private:
  response_channel& io_;
};

}  // namespace mcp::detail
