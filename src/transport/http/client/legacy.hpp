#pragma once
// The HTTP+SSE transport of 2024-11-05, client side: a GET opens the stream
// that carries every message to the client; its first event, `endpoint`,
// names where the client POSTs its messages (same origin only). The end of
// the stream is the end of the connection: this transport has no resumption.

#include "core.hpp"
#include "message_binding.hpp"

#include <boost/asio/steady_timer.hpp>

#include <memory>
#include <optional>
#include <string>

namespace mcp::detail::http_client {

class http_exchange;
class sse_parser;

class legacy_engine : public std::enable_shared_from_this<legacy_engine> {
 public:
  explicit legacy_engine(std::shared_ptr<client_core> core);
  ~legacy_engine();

  /// Opens the stream and waits (within response_timeout) for its endpoint
  /// event; then reads the stream in the background. Throws http_error
  /// saying what failed.
  asio::awaitable<void> start();
  /// POSTs one frame to the endpoint (opening the stream first when needed).
  /// Failures become error answers to the frame's requests. Throws only once closed.
  /// `request`: what the frame is, when its sender said so (else it is parsed).
  asio::awaitable<void> write(std::string frame, std::optional<sent_request> request);
  /// Ends the stream and every connection; waits (bounded) for the reader.
  asio::awaitable<void> close();
  void abort() noexcept;

 private:
  asio::awaitable<void> pump(std::shared_ptr<legacy_engine> self);
  asio::awaitable<bool> take_events();  // true once the endpoint is known
  asio::awaitable<void> answer_all(const outgoing_facts& facts, const std::string& message);

  std::shared_ptr<client_core> core_;
  std::unique_ptr<http_exchange> stream_;
  std::unique_ptr<sse_parser> parser_;
  std::optional<http_endpoint> post_to_;
  std::size_t dropped_ = 0;
  bool started_ = false;
  bool closed_ = false;
  bool pumping_ = false;
  asio::steady_timer pump_done_;  // cancelled when the reader stops
};

}  // namespace mcp::detail::http_client
