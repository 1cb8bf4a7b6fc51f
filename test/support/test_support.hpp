#pragma once
// Helpers shared by the tests: run a coroutine with a deadline, and talk raw
// JSON-RPC frames over a transport.

#include <mcp/protocol/types.hpp>
#include <mcp/transport/process.hpp>
#include <mcp/transport/transport.hpp>

#ifdef CADUCEUS_BIN_DIR
#include "test_program.hpp"
#endif

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

/// ASSERT_TRUE for coroutines (gtest's ASSERT_* use `return`).
#define CO_ASSERT_TRUE(condition)                      \
  if (!(condition)) {                                  \
    ADD_FAILURE() << "Expected true: " #condition;     \
    co_return;                                         \
  }

namespace mcp::test {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;

/// Runs `body` on a fresh io_context and fails the test if it throws or
/// does not finish within `limit`.
inline void run_test(std::function<asio::awaitable<void>()> body,
                     std::chrono::milliseconds limit = 20s) {
  asio::io_context io;
  bool finished = false;
  std::exception_ptr failure;
  asio::co_spawn(io, body(), [&](std::exception_ptr e) {
    finished = true;
    failure = e;
  });
  io.run_for(limit);
  ASSERT_TRUE(finished) << "test coroutine did not finish within " << limit.count() << " ms";
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      FAIL() << "test coroutine threw: " << e.what();
    }
  }
}

/// Waits `d` on the current executor.
inline asio::awaitable<void> sleep_for(std::chrono::milliseconds d) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  timer.expires_after(d);
  co_await timer.async_wait(asio::use_awaitable);
}

/// Waits up to `limit` for `done()`, looking every 5 ms; false when it did not happen.
inline asio::awaitable<bool> wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) co_return false;
    co_await sleep_for(std::chrono::milliseconds(5));
  }
  co_return true;
}

/// Reads the next frame within `limit`; std::nullopt at end of stream.
/// Throws std::runtime_error on timeout.
inline asio::awaitable<std::optional<std::string>> read_text(message_transport& t,
                                                              std::chrono::milliseconds limit = 5s) {
  using namespace asio::experimental::awaitable_operators;
  asio::steady_timer timer(t.get_executor());
  timer.expires_after(limit);
  // `||` completes on the first branch to succeed: a failed read must not
  // look like a timeout, so it reports its failure as a value.
  struct read_outcome {
    std::optional<inbound_frame> frame;
    std::string error;
  };
  auto read = [&]() -> asio::awaitable<read_outcome> {
    try {
      auto frame = co_await t.read_frame();  // not inside the braces: docs/compilers.md
      co_return read_outcome{std::move(frame), {}};
    } catch (const std::exception& e) {
      co_return read_outcome{std::nullopt, e.what()};
    }
  };
  auto outcome = co_await (read() || timer.async_wait(asio::use_awaitable));
  if (outcome.index() == 1) throw std::runtime_error("no frame within the deadline");
  auto result = std::get<0>(std::move(outcome));
  if (!result.error.empty()) throw std::runtime_error("read failed: " + result.error);
  auto frame = std::move(result.frame);
  if (!frame) co_return std::nullopt;
  co_return std::move(frame->text);
}

/// Reads the next frame as JSON; throws at end of stream or timeout.
inline asio::awaitable<json::value> read_json(message_transport& t,
                                              std::chrono::milliseconds limit = 5s) {
  auto text = co_await read_text(t, limit);
  if (!text) throw std::runtime_error("end of stream while waiting for a frame");
  co_return json::parse(*text);
}

/// True when nothing arrives within `limit`.
inline asio::awaitable<bool> stays_silent(message_transport& t, std::chrono::milliseconds limit) {
  try {
    co_await read_text(t, limit);
  } catch (const std::runtime_error&) {
    co_return true;
  }
  co_return false;
}

/// The error code `call` fails with (a system_error); success when it does not fail.
template <class T>
asio::awaitable<boost::system::error_code> failure_of(asio::awaitable<T> call) {
  try {
    co_await std::move(call);
  } catch (const boost::system::system_error& e) {
    co_return e.code();
  }
  co_return boost::system::error_code();
}

inline asio::awaitable<void> write_json(message_transport& t, const json::value& v) {
  std::string text = json::serialize(v);
  co_await t.write_frame(std::move(text));
}

/// A request object for raw tests.
inline json::object rpc_request(json::value id, std::string method, json::object params = {}) {
  json::object r{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", std::move(method)}};
  if (!params.empty()) r["params"] = std::move(params);
  return r;
}

inline json::object rpc_notification(std::string method, json::object params = {}) {
  json::object r{{"jsonrpc", "2.0"}, {"method", std::move(method)}};
  if (!params.empty()) r["params"] = std::move(params);
  return r;
}

inline json::object initialize_params(std::string version = "2025-11-25") {
  return {{"protocolVersion", std::move(version)},
          {"capabilities", json::object{}},
          {"clientInfo", {{"name", "test-client"}, {"version", "1.0"}}}};
}

#ifdef CADUCEUS_BIN_DIR
/// How to start one of our binaries from build/bin.
inline process_options bin_command(const std::string& name) {
  process_options options;
  options.command = test_program(name);
  return options;
}
#endif

/// The text of the first content block of a tool result.
inline std::string first_text(const json::object& result) {
  return std::string(result.at("content").at(0).at("text").as_string());
}

/// The text of the first content block of a tool result the client parsed.
inline std::string first_text(const call_tool_result& result) {
  return std::string(result.content.at(0).at("text").as_string());
}

/// True when every character is visible ASCII (what a session id must be).
inline bool visible_ascii(std::string_view s) {
  return std::ranges::all_of(s, [](char c) { return c >= 0x21 && c <= 0x7e; });
}

/// The error code of a reply, or 0 when it is not an error.
inline std::int64_t error_code(const json::value& reply) {
  const auto* error = reply.as_object().if_contains("error");
  return error ? error->at("code").as_int64() : 0;
}

}  // namespace mcp::test
