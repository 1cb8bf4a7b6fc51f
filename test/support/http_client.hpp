#pragma once
// A small HTTP/1.1 client for the Streamable HTTP tests: Beast on real
// sockets to 127.0.0.1, every operation under a deadline. It sends exactly
// the headers it is given (plus Host), so tests can break every rule.
//
//   http_connection c(ex, port);
//   auto req = mcp_post(rpc_request(1, "ping"), session_id);
//   auto reply = co_await c.send(req);                 // the whole response
//
//   co_await c.write(req);                              // or incrementally:
//   auto head = co_await c.read_head();                 // status and headers
//   while (auto m = co_await c.next_message()) ...      // SSE messages as JSON
//
// Coroutine rule of docs/compilers.md: name requests on their own line, never
// build them inside a co_await expression.

#include "test_support.hpp"

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::test {

namespace beast = boost::beast;
namespace http = beast::http;

/// One HTTP request as a test wants it sent.
class http_request {
 public:
  http_request(http::verb method, std::string target) : method(method), target(std::move(target)) {}

  http_request& header(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
    return *this;
  }
  /// Removes every header called `name` (case-insensitive).
  http_request& without(std::string_view name) {
    std::erase_if(headers, [&](const auto& h) { return beast::iequals(h.first, name); });
    return *this;
  }
  /// Replaces the headers called `name` with one of `value`.
  http_request& set(std::string name, std::string value) {
    without(name);
    return header(std::move(name), std::move(value));
  }

  http::verb method;
  std::string target;
  std::vector<std::pair<std::string, std::string>> headers;  // sent in this order
  std::string body;
};

/// The Accept value the transport spec asks POSTs to send.
inline constexpr std::string_view mcp_accept = "application/json, text/event-stream";

/// A well-formed MCP POST of `message`, with the session header when given.
inline http_request mcp_post(const json::value& message, std::string session_id = {},
                             std::string target = "/mcp") {
  http_request req(http::verb::post, std::move(target));
  req.header("Accept", std::string(mcp_accept));
  req.header("Content-Type", "application/json");
  if (!session_id.empty()) req.header("Mcp-Session-Id", std::move(session_id));
  req.body = json::serialize(message);
  return req;
}

/// A GET that opens the session's standalone SSE stream.
inline http_request mcp_get(std::string session_id = {}, std::string target = "/mcp") {
  http_request req(http::verb::get, std::move(target));
  req.header("Accept", "text/event-stream");
  if (!session_id.empty()) req.header("Mcp-Session-Id", std::move(session_id));
  return req;
}

/// A DELETE that ends the session.
inline http_request mcp_delete(std::string session_id = {}, std::string target = "/mcp") {
  http_request req(http::verb::delete_, std::move(target));
  if (!session_id.empty()) req.header("Mcp-Session-Id", std::move(session_id));
  return req;
}

/// One dispatched server-sent event.
struct sse_event {
  sse_event() {}  // not an aggregate: see docs/compilers.md
  std::string event = "message";
  std::string id;
  std::string data;
};

/// Splits an event stream into events (WHATWG "event stream interpretation":
/// any line ending, comments, `field: value`, data lines joined by '\n').
class sse_parser {
 public:
  /// Feeds received text; complete events become available in `events`.
  void feed(std::string_view text) {
    pending_ += text;
    for (;;) {
      const auto end = pending_.find_first_of("\r\n");
      if (end == std::string::npos) break;
      // A '\r' at the very end may be the first half of "\r\n": wait for more.
      if (pending_[end] == '\r' && end + 1 == pending_.size()) break;
      std::string line = pending_.substr(0, end);
      const auto skip = pending_[end] == '\r' && pending_[end + 1] == '\n' ? 2 : 1;
      pending_.erase(0, end + skip);
      take_line(line);
    }
  }

  std::deque<sse_event> events;
  std::size_t comments = 0;  ///< comment lines seen (keep-alives)
  std::optional<long> retry;  ///< the last `retry:` field, in milliseconds

 private:
  void take_line(std::string_view line) {
    if (line.empty()) {  // dispatch
      if (has_data_) {
        if (!data_.empty() && data_.back() == '\n') data_.pop_back();
        sse_event e;
        e.event = event_.empty() ? "message" : event_;
        e.id = id_;
        e.data = std::move(data_);
        events.push_back(std::move(e));
      }
      data_.clear();
      event_.clear();
      has_data_ = false;
      return;
    }
    if (line.front() == ':') {
      ++comments;
      return;
    }
    const auto colon = line.find(':');
    std::string_view field = line.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view{} : line.substr(colon + 1);
    if (value.starts_with(' ')) value.remove_prefix(1);
    if (field == "data") {
      data_ += value;
      data_ += '\n';
      has_data_ = true;
    } else if (field == "event") {
      event_ = value;
    } else if (field == "id") {
      id_ = value;  // the last event id persists across events
    } else if (field == "retry") {
      retry = std::stol(std::string(value));
    }
  }

  std::string pending_;
  std::string data_;
  std::string event_;
  std::string id_;
  bool has_data_ = false;
};

/// What a client sees of a response.
struct http_reply {
  http_reply() {}  // not an aggregate: see docs/compilers.md
  unsigned status = 0;
  http::fields headers;
  std::string body;

  bool has(std::string_view name) const { return headers.find(name) != headers.end(); }
  std::string header(std::string_view name) const { return std::string(headers[name]); }
  bool has(http::field name) const { return headers.find(name) != headers.end(); }
  std::string header(http::field name) const { return std::string(headers[name]); }
  /// The media type without parameters, lower case ("" when absent).
  std::string content_type() const {
    std::string type(headers[http::field::content_type]);
    type = type.substr(0, type.find(';'));
    while (!type.empty() && type.back() == ' ') type.pop_back();
    for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return type;
  }
  json::value json() const { return json::parse(body); }
  /// The body read as an event stream: the JSON messages of its events.
  std::vector<json::value> sse_messages() const {
    sse_parser parser;
    parser.feed(body);
    parser.feed("\n");  // a last event without its blank line is not dispatched anyway
    std::vector<json::value> out;
    for (const auto& e : parser.events)
      if (!e.data.empty()) out.push_back(json::parse(e.data));
    return out;
  }
};

/// Reads `socket` until the server closes it, keeping up to `keep` bytes of
/// what it sent in `*received` (when given). False when the socket is still
/// open after `limit`. The deadline races the reads as an awaitable (not a
/// timer callback): a callback that fires as the last read ends could run
/// after this frame is gone.
inline asio::awaitable<bool> read_until_closed_by_server(asio::ip::tcp::socket& socket,
                                                         std::chrono::milliseconds limit,
                                                         std::string* received = nullptr,
                                                         std::size_t keep = 0) {
  using namespace asio::experimental::awaitable_operators;
  auto read_to_end = [&]() -> asio::awaitable<void> {
    char chunk[16 * 1024];
    for (;;) {
      auto [ec, n] = co_await socket.async_read_some(asio::buffer(chunk), asio::as_tuple(asio::use_awaitable));
      if (received && received->size() < keep) received->append(chunk, std::min(n, keep - received->size()));
      if (ec) co_return;
    }
  };
  asio::steady_timer deadline(socket.get_executor(), limit);
  const auto first = co_await (read_to_end() || deadline.async_wait(asio::use_awaitable));
  co_return first.index() == 0;
}

/// Waits for the server to close `socket` (dropping what it sends). False
/// when the socket is still open after `limit`.
inline asio::awaitable<bool> closed_by_server(asio::ip::tcp::socket& socket, std::chrono::milliseconds limit) {
  co_return co_await read_until_closed_by_server(socket, limit);
}

/// One keep-alive connection to the server under test.
class http_connection {
 public:
  http_connection(asio::any_io_executor ex, std::uint16_t port) : stream_(ex), port_(port) {}

  std::uint16_t port() const noexcept { return port_; }
  bool is_open() const { return stream_.socket().is_open(); }
  beast::tcp_stream& stream() noexcept { return stream_; }

  asio::awaitable<void> connect(std::chrono::milliseconds limit = 5s) {
    const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), port_);
    stream_.expires_after(limit);
    auto [ec] = co_await stream_.async_connect(endpoint, asio::as_tuple(asio::use_awaitable));
    check(ec, "connect");
  }

  /// Writes `req` (connecting first if needed). Host is 127.0.0.1:PORT unless
  /// the request names one.
  asio::awaitable<void> write(const http_request& req, std::chrono::milliseconds limit = 5s) {
    if (!is_open()) co_await connect(limit);
    http::request<http::string_body> out{req.method, req.target, 11};
    bool has_host = false;
    for (const auto& [name, value] : req.headers) {
      out.insert(name, value);
      has_host = has_host || beast::iequals(name, "host");
    }
    if (!has_host) out.set(http::field::host, "127.0.0.1:" + std::to_string(port_));
    out.body() = req.body;
    if (!req.body.empty() || req.method == http::verb::post) out.prepare_payload();
    parser_.reset();
    stream_.expires_after(limit);
    auto [ec, n] = co_await http::async_write(stream_, out, asio::as_tuple(asio::use_awaitable));
    check(ec, "write");
  }

  /// Reads a whole response (an SSE body too: until the stream ends).
  asio::awaitable<http_reply> read_response(std::chrono::milliseconds limit = 5s) {
    http::response_parser<http::string_body> parser;
    parser.body_limit(boost::none);
    stream_.expires_after(limit);
    auto [ec, n] = co_await http::async_read(stream_, buffer_, parser, asio::as_tuple(asio::use_awaitable));
    check(ec, "read a response");
    stream_.expires_never();
    auto res = parser.release();
    http_reply reply;
    reply.status = res.result_int();
    reply.body = std::move(res.body());
    reply.headers = std::move(res.base());
    co_return reply;
  }

  /// Writes `req` and reads its whole response.
  asio::awaitable<http_reply> send(const http_request& req, std::chrono::milliseconds limit = 5s) {
    co_await write(req, limit);
    co_return co_await read_response(limit);
  }

  /// Reads the status line and headers; the body then comes through
  /// next_event / next_message / rest_of_body.
  asio::awaitable<http_reply> read_head(std::chrono::milliseconds limit = 5s) {
    parser_ = std::make_unique<http::response_parser<http::buffer_body>>();
    parser_->body_limit(boost::none);
    events_ = sse_parser();
    stream_.expires_after(limit);
    auto [ec, n] = co_await http::async_read_header(stream_, buffer_, *parser_,
                                                    asio::as_tuple(asio::use_awaitable));
    check(ec, "read a response head");
    stream_.expires_never();
    http_reply reply;
    reply.status = parser_->get().result_int();
    reply.headers = parser_->get().base();
    co_return reply;
  }

  /// The next server-sent event of the body; std::nullopt once the body has
  /// ended. Throws when nothing arrives within `limit`.
  asio::awaitable<std::optional<sse_event>> next_event(std::chrono::milliseconds limit = 5s) {
    for (;;) {
      if (!events_.events.empty()) {
        auto e = std::move(events_.events.front());
        events_.events.pop_front();
        co_return e;
      }
      auto text = co_await read_some_body(limit);
      if (!text) co_return std::nullopt;
      events_.feed(*text);
    }
  }

  /// The next event that carries a JSON message (events with empty data, as
  /// a priming event, are skipped); std::nullopt once the body has ended.
  asio::awaitable<std::optional<json::value>> next_message(std::chrono::milliseconds limit = 5s) {
    for (;;) {
      auto e = co_await next_event(limit);
      if (!e) co_return std::nullopt;
      if (e->data.empty()) continue;
      co_return json::parse(e->data);
    }
  }

  /// Reads what is left of the body after read_head.
  asio::awaitable<std::string> rest_of_body(std::chrono::milliseconds limit = 5s) {
    std::string out;
    while (auto text = co_await read_some_body(limit)) out += *text;
    co_return out;
  }

  /// Keep-alive comment lines seen on the current event stream.
  std::size_t comments() const noexcept { return events_.comments; }
  /// The last `retry:` the current event stream gave, in milliseconds.
  std::optional<long> retry() const noexcept { return events_.retry; }

  void close() {
    boost::system::error_code ignored;
    stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

 private:
  static void check(const boost::system::error_code& ec, const char* what) {
    if (ec == beast::error::timeout)
      throw std::runtime_error(std::string("HTTP client: ") + what + ": no answer within the deadline");
    if (ec) throw boost::system::system_error(ec, std::string("HTTP client: ") + what);
  }

  // Body bytes as they arrive (chunked framing removed); std::nullopt at its end.
  asio::awaitable<std::optional<std::string>> read_some_body(std::chrono::milliseconds limit) {
    if (!parser_) throw std::logic_error("HTTP client: read_head first");
    char chunk[4096];
    while (!parser_->is_done()) {
      parser_->get().body().data = chunk;
      parser_->get().body().size = sizeof chunk;
      stream_.expires_after(limit);
      auto [ec, n] = co_await http::async_read_some(stream_, buffer_, *parser_,
                                                    asio::as_tuple(asio::use_awaitable));
      if (ec == http::error::need_buffer) ec = {};
      check(ec, "read the body");
      stream_.expires_never();
      const auto got = sizeof chunk - parser_->get().body().size;
      if (got > 0) co_return std::string(chunk, got);
    }
    co_return std::nullopt;
  }

  beast::tcp_stream stream_;
  std::uint16_t port_;
  beast::flat_buffer buffer_;
  std::unique_ptr<http::response_parser<http::buffer_body>> parser_;
  sse_parser events_;
};

/// One request on a connection of its own; the whole response.
inline asio::awaitable<http_reply> http_call(std::uint16_t port, const http_request& req,
                                             std::chrono::milliseconds limit = 5s) {
  http_connection c(co_await asio::this_coro::executor, port);
  auto reply = co_await c.send(req, limit);
  c.close();
  co_return reply;
}

/// What read_sse saw of a response.
struct sse_reply {
  sse_reply() {}  // not an aggregate: see docs/compilers.md
  http_reply head;                   ///< status and headers (body empty)
  std::vector<json::value> messages;  ///< the JSON messages of its events, in order
  bool ended = false;                ///< the body ended (rather than `max_messages` reached)
};

/// Sends `req` on a connection of its own and reads the response as an event
/// stream, until it ends or `max_messages` messages arrived; a response that
/// is not an event stream is returned with its body as the only message when
/// it is JSON.
inline asio::awaitable<sse_reply> read_sse(std::uint16_t port, const http_request& req,
                                           std::size_t max_messages = SIZE_MAX,
                                           std::chrono::milliseconds limit = 5s) {
  http_connection c(co_await asio::this_coro::executor, port);
  co_await c.write(req, limit);
  sse_reply out;
  out.head = co_await c.read_head(limit);
  if (out.head.content_type() != "text/event-stream") {
    auto body = co_await c.rest_of_body(limit);
    if (!body.empty() && out.head.content_type() == "application/json") out.messages.push_back(json::parse(body));
    out.ended = true;
    c.close();
    co_return out;
  }
  while (out.messages.size() < max_messages) {
    auto message = co_await c.next_message(limit);
    if (!message) {
      out.ended = true;
      break;
    }
    out.messages.push_back(std::move(*message));
  }
  c.close();
  co_return out;
}

}  // namespace mcp::test
