#pragma once
// A connection to Redis that any number of coroutines share: commands are
// pipelined on one socket and answered in order. hiredis only formats and
// parses; Asio owns the socket, a strand, the deadlines and reconnection
// (the whole behaviour is described in link.hpp).
//
//   auto redis = redis::connection::create(ex, redis::config::from_url("redis://127.0.0.1:6380/2"));
//   co_await redis->command({"SET", "k", "v"});
//   auto v = (co_await redis->command({"GET", "k"})).as_optional_string();
//
// @par Errors
// An error reply of Redis is a reply (reply::is_error()), not an exception;
// using it as a value throws error_reply. When Redis is down, slow past
// config::command_timeout, or the connection is overloaded or closed, an
// operation throws `unavailable`: the command may or may not have run.
//
// @par Thread safety
// Every function may be called from any thread. Awaited operations resume on
// the awaiting coroutine's executor. An operation is not cancellable on its
// own (Asio per-operation cancellation is not wired): its deadline bounds it.

#include "config.hpp"
#include "errors.hpp"
#include "reply.hpp"
#include "script.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <concepts>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mcp::detail::redis {

namespace asio = boost::asio;

class link;

/// What connection::command takes as an argument: text, or an integer.
template <class T>
concept command_argument = std::convertible_to<const T&, std::string_view> || std::integral<T>;

class connection {
 public:
  /// A connection to the server `cfg` names; it starts connecting at once,
  /// on a strand of `ex`. Commands made before the first attempt ends wait
  /// for it (within their deadline).
  static std::shared_ptr<connection> create(asio::any_io_executor ex, config cfg);
  /// close()s it.
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  /// Runs one command ({"SET", key, value}) and returns its reply. Throws
  /// unavailable, or std::invalid_argument when `args` is empty.
  asio::awaitable<reply> command(std::vector<std::string> args);

  /// The same, spelled as arguments: `co_await c.command("INCRBY", key, 5)`.
  /// (g++ 12 does not compile a braced list inside a co_await expression,
  /// docs/compilers.md: `co_await c.command({"GET", key})` needs its vector
  /// named first, this form does not.)
  template <command_argument... Args>
    requires(sizeof...(Args) > 0)
  asio::awaitable<reply> command(const Args&... args) {
    return command(std::vector<std::string>{as_argument(args)...});
  }

  /// Runs many commands in one write and returns their replies in order. It
  /// fails (unavailable) as a whole: some commands may have run.
  asio::awaitable<std::vector<reply>> pipeline(std::vector<std::vector<std::string>> commands);

  /// Queues a command and does not wait for it: ordered with every other
  /// command of this connection. A failure (an error reply, Redis away) is
  /// logged, not thrown.
  void send(std::vector<std::string> args);

  /// Runs a Lua script by its SHA1 (EVALSHA), loading it with EVAL when Redis
  /// does not know it (NOSCRIPT: first use, SCRIPT FLUSH, a restart).
  asio::awaitable<reply> eval(const script& lua, std::vector<std::string> keys, std::vector<std::string> args);

  /// Queues EVALSHA of `lua`, as send() does. It cannot fall back on EVAL
  /// (that would run after commands queued meanwhile): `lua` must be one of
  /// config::scripts, which every link loads before its first command.
  void send_eval(const script& lua, std::vector<std::string> keys, std::vector<std::string> args);

  /// Whether it is connected now (a hint: it may fail the next moment).
  bool connected() const noexcept;
  const config& settings() const noexcept;

  /// Ends the connection: it stops reconnecting, and every command waiting
  /// fails as unavailable (closed), as does every later one. Never throws.
  void close() noexcept;

 private:
  template <class T>
  static std::string as_argument(const T& value) {
    if constexpr (std::integral<T>)
      return std::to_string(value);
    else
      return std::string(std::string_view(value));
  }

  explicit connection(std::shared_ptr<link> l);
  std::shared_ptr<link> link_;
};

}  // namespace mcp::detail::redis
