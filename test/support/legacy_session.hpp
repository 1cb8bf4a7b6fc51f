#pragma once
// A client of the legacy HTTP+SSE transport of 2024-11-05, on real sockets:
// the GET /sse stream with its `endpoint` event, and the POSTs to that
// endpoint, whose replies arrive on the stream.

#include "http_client.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp::test {

inline constexpr const char* legacy_version = "2024-11-05";

/// The GET that opens a legacy session (what an EventSource sends).
inline http_request sse_get(std::string target) {
  http_request req(http::verb::get, std::move(target));
  req.header("Accept", "text/event-stream");
  return req;
}

inline http_request sse_get() { return sse_get("/sse"); }

/// A legacy POST of `message` to `target` (the endpoint event's URI): no
/// Accept header and no session header, as 2024-11-05 clients send it.
inline http_request legacy_post(const json::value& message, std::string target) {
  http_request req(http::verb::post, std::move(target));
  req.header("Content-Type", "application/json");
  req.body = json::serialize(message);
  return req;
}

/// One legacy session as a client holds it: the GET stream, and a keep-alive
/// connection for its POSTs.
class legacy_session {
 public:
  legacy_session(asio::any_io_executor ex, std::uint16_t port) : stream(ex, port), poster(ex, port) {}

  /// Sends the GET and reads the head; the endpoint event comes next.
  asio::awaitable<http_reply> connect(std::string target) {
    const auto get = sse_get(std::move(target));
    co_await stream.write(get);
    head = co_await stream.read_head();
    co_return head;
  }

  /// Opens the stream at `target` and reads its endpoint event; throws when
  /// either is not what the transport promises.
  asio::awaitable<void> open(std::string target) {
    co_await connect(std::move(target));
    if (head.status != 200) throw std::runtime_error("GET of the legacy stream answered " + std::to_string(head.status));
    auto first = co_await stream.next_event();
    if (!first) throw std::runtime_error("the legacy stream ended before its endpoint event");
    endpoint_event = std::move(*first);
    if (endpoint_event.event != "endpoint")
      throw std::runtime_error("the first event is `" + endpoint_event.event + "`, not `endpoint`");
    endpoint = endpoint_event.data;
    const auto at = endpoint.find("sessionId=");
    if (at == std::string::npos) throw std::runtime_error("the endpoint names no sessionId: " + endpoint);
    id = endpoint.substr(at + std::string_view("sessionId=").size());
  }

  asio::awaitable<void> open() {
    std::string target = "/sse";
    co_await open(std::move(target));
  }

  /// POSTs `message` to the session's endpoint on the keep-alive connection.
  asio::awaitable<http_reply> post(const json::value& message) {
    const auto req = legacy_post(message, endpoint);
    co_return co_await poster.send(req);
  }

  /// POSTs `message`; the status of the answer (202 when accepted).
  asio::awaitable<unsigned> post_status(const json::value& message) {
    const auto reply = co_await post(message);
    co_return reply.status;
  }

  /// The next message on the stream; it must come as a `message` event
  /// without an event id. Throws when the stream ends or nothing comes.
  asio::awaitable<json::value> next(std::chrono::milliseconds limit) {
    auto e = co_await stream.next_event(limit);
    if (!e) throw std::runtime_error("the legacy stream ended while a message was expected");
    EXPECT_EQ(e->event, "message") << e->data;
    EXPECT_TRUE(e->id.empty()) << "event id " << e->id << " on " << e->data;
    co_return json::parse(e->data);
  }

  asio::awaitable<json::value> next() { co_return co_await next(5s); }

  /// initialize (offering `version`, with `capabilities`), its result from
  /// the stream, then notifications/initialized. Returns initialize's result.
  asio::awaitable<json::value> initialize(std::string version, json::object capabilities) {
    auto params = initialize_params(std::move(version));
    params["capabilities"] = std::move(capabilities);
    const auto init = rpc_request(0, "initialize", std::move(params));
    const auto status = co_await post_status(init);
    if (status != 202) throw std::runtime_error("initialize POST answered " + std::to_string(status));
    auto reply = co_await next();
    const auto initialized = rpc_notification("notifications/initialized");
    const auto ack = co_await post_status(initialized);
    if (ack != 202) throw std::runtime_error("notifications/initialized POST answered " + std::to_string(ack));
    co_return reply;
  }

  asio::awaitable<json::value> initialize() {
    std::string version(legacy_version);
    json::object none;
    co_return co_await initialize(std::move(version), std::move(none));
  }

  void close() {
    stream.close();
    poster.close();
  }

  http_connection stream;
  http_connection poster;
  http_reply head;
  sse_event endpoint_event;
  std::string endpoint;  // as the endpoint event gave it
  std::string id;
};

}  // namespace mcp::test
