#pragma once
// A server behaviour served on one end of a memory pair; the test talks raw
// JSON-RPC on the other end.

#include <mcp/server/serve.hpp>
#include <mcp/transport/memory.hpp>

#include "test_support.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>

#include <functional>
#include <boost/asio/cancellation_signal.hpp>

#include <memory>

namespace mcp::test {

// The server half: it stays alive until `serve` returns, which it does once
// the test's client end is gone.
struct server_side {
  std::shared_ptr<server_behaviour> behaviour;
  std::unique_ptr<message_transport> end;
  asio::cancellation_signal stop;
  bool served = false;
};

struct harness {
  harness(asio::any_io_executor ex, std::shared_ptr<server_behaviour> behaviour)
      : harness(ex, std::move(behaviour), memory_options{}) {}

  harness(asio::any_io_executor ex, std::shared_ptr<server_behaviour> behaviour,
          memory_options options)
      : harness(ex, std::move(behaviour), options, [](auto end) { return end; }) {}

  /// The server's end passes through `wrap` (a decorator that watches it, say).
  harness(asio::any_io_executor ex, std::shared_ptr<server_behaviour> behaviour, memory_options options,
          const std::function<std::unique_ptr<message_transport>(std::unique_ptr<message_transport>)>& wrap)
      : server(std::make_shared<server_side>()) {
    auto [a, b] = make_memory_pair(ex, options);
    client = std::move(a);
    server->end = wrap(std::move(b));
    server->behaviour = std::move(behaviour);
    asio::co_spawn(ex, serve(*server->behaviour, *server->end),
                   asio::bind_cancellation_slot(server->stop.slot(),
                                                [s = server](std::exception_ptr) { s->served = true; }));
  }

  asio::awaitable<json::value> call(json::value id, std::string method, json::object params = {}) {
    auto frame = rpc_request(std::move(id), std::move(method), std::move(params));
    co_await write_json(*client, frame);
    co_return co_await read_json(*client);
  }

  /// Reads frames until the reply to `id`, collecting the notifications before it.
  asio::awaitable<json::value> reply_to(json::value id, std::vector<json::value>* notifications = nullptr) {
    for (;;) {
      auto frame = co_await read_json(*client);
      if (frame.as_object().contains("id") && !frame.as_object().contains("method") &&
          frame.at("id") == id)
        co_return frame;
      if (notifications) notifications->push_back(std::move(frame));
    }
  }

  asio::awaitable<json::value> initialize(std::string version = "2025-11-25",
                                          json::object capabilities = {}) {
    auto params = initialize_params(std::move(version));
    params["capabilities"] = std::move(capabilities);
    auto reply = co_await call(0, "initialize", std::move(params));
    auto initialized = rpc_notification("notifications/initialized");
    co_await write_json(*client, initialized);
    co_return reply;
  }

  std::shared_ptr<server_side> server;
  std::unique_ptr<message_transport> client;
};

}  // namespace mcp::test
