#pragma once
// A second connection to Redis, in subscribe mode (RESP2): it receives the
// messages PUBLISHed on its channels and patterns. It keeps the set of them
// and subscribes again by itself after every reconnection; on_reconnect then
// tells its owner that messages published meanwhile were lost.
//
// @par Thread safety
// Every function may be called from any thread. The handlers run on the
// subscriber's strand, one at a time, never after close() has returned
// (close() waits for one that is running; a handler may call close()).
// A slow handler holds up the reading of later messages.

#include "config.hpp"
#include "errors.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mcp::detail::redis {

namespace asio = boost::asio;

class subscriber {
 public:
  /// `channel` is the channel a message was published on (for a pattern too).
  using message_handler = std::function<void(std::string_view channel, std::string_view payload)>;

  /// Connects at once, on a strand of `ex`. `on_reconnect` runs after each
  /// connection but the first attempt's, once every channel and pattern of
  /// the set is subscribed again.
  static std::shared_ptr<subscriber> create(asio::any_io_executor ex, config cfg, message_handler on_message,
                                            std::function<void()> on_reconnect = {});
  /// close()s it.
  ~subscriber();
  subscriber(const subscriber&) = delete;
  subscriber& operator=(const subscriber&) = delete;

  /// Adds `channel` to the set and returns once Redis has confirmed it:
  /// from then on its messages reach the handler. Throws unavailable when
  /// Redis is away (the channel stays in the set: it is subscribed on
  /// reconnection), error_reply when Redis refuses.
  asio::awaitable<void> subscribe(std::string channel);
  /// Takes `channel` out of the set: its messages stop reaching the handler
  /// at once. Returns once Redis has confirmed, or at once when disconnected.
  asio::awaitable<void> unsubscribe(std::string channel);
  /// unsubscribe() for a caller that needs no confirmation: the UNSUBSCRIBE
  /// goes out in order with the other changes, unwaited, and not at all on
  /// a closed link (the message bus, as sessions end).
  void drop(std::string channel);
  /// The same for a glob-style pattern (PSUBSCRIBE news.*).
  asio::awaitable<void> psubscribe(std::string pattern);
  asio::awaitable<void> punsubscribe(std::string pattern);

  bool connected() const noexcept;

  /// Ends it: no handler runs once it returns. Never throws.
  void close() noexcept;

 private:
  struct impl;
  explicit subscriber(std::shared_ptr<impl> i);
  std::shared_ptr<impl> impl_;
};

}  // namespace mcp::detail::redis
