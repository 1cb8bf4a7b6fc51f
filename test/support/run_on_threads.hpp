#pragma once
// Runs a test body as a server would: on an io_context of several threads;
// and polls for what another thread makes true. For the Redis tests.

#include "test_support.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace mcp::test {

/// Runs `body` on an io_context of `threads` threads. Fails the test when
/// the body throws or does not finish within `limit`, and when the
/// io_context still has work 3 s after it (a timer or socket left behind by
/// a closed connection).
inline void run_on_threads(const std::function<asio::awaitable<void>(asio::io_context&)>& body,
                           std::chrono::milliseconds limit = 15s, int threads = 4) {
  asio::io_context io(threads);
  std::promise<std::exception_ptr> outcome;
  auto finished = outcome.get_future();
  asio::co_spawn(io, body(io), [&](std::exception_ptr e) { outcome.set_value(e); });

  std::mutex mutex;
  std::condition_variable idle;
  int running = threads;
  std::vector<std::thread> runners;
  for (int i = 0; i < threads; ++i)
    runners.emplace_back([&] {
      io.run();
      std::lock_guard lock(mutex);
      --running;
      idle.notify_all();
    });
  auto stop = [&] {
    io.stop();
    for (auto& t : runners) t.join();
  };

  if (finished.wait_for(limit) != std::future_status::ready) {
    stop();
    FAIL() << "the test did not finish within " << limit.count() << " ms";
  }
  {
    std::unique_lock lock(mutex);
    EXPECT_TRUE(idle.wait_for(lock, 3s, [&] { return running == 0; }))
        << "the io_context still had work 3 s after the test: something was not closed";
  }
  stop();
  if (auto failure = finished.get()) {
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      FAIL() << "the test threw: " << e.what();
    }
  }
}

/// Polls `condition` until it holds or `limit` passes.
inline asio::awaitable<bool> eventually(std::function<bool()> condition, std::chrono::milliseconds limit = 5s) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= until) co_return false;
    co_await sleep_for(10ms);
  }
  co_return true;
}

}  // namespace mcp::test
