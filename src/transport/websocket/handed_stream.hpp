#pragma once
// The connection an application's HTTP server hands over to carry MCP over
// WebSocket (mcp::upgraded_stream; http_endpoint_response::upgrade), as the
// stream under Beast's websocket::stream: an AsyncReadStream and
// AsyncWriteStream on the endpoint's strand, with Beast's two customization
// points (teardown and close_socket) found by argument-dependent lookup.
//
// Transport layer: nothing of JSON-RPC or MCP here (test/layers).

#include <mcp/transport/upgraded_stream.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/role.hpp>

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <utility>

namespace mcp::detail::websocket {

namespace asio = boost::asio;

class handed_stream {
 public:
  using executor_type = asio::any_io_executor;

  /// `stream` must outlive this; `strand` is where the connection runs.
  handed_stream(upgraded_stream& stream, executor_type strand) : stream_(stream), strand_(std::move(strand)) {}

  executor_type get_executor() const noexcept { return strand_; }
  upgraded_stream& stream() noexcept { return stream_; }

  template <class MutableBufferSequence, class ReadToken>
  auto async_read_some(const MutableBufferSequence& buffers, ReadToken&& token) {
    return asio::async_initiate<ReadToken, void(boost::system::error_code, std::size_t)>(
        [this](auto handler, asio::mutable_buffer first) {
          stream_.async_read_some(first, back_on_strand<boost::system::error_code, std::size_t>(std::move(handler)));
        },
        token, first_of(buffers));
  }

  template <class ConstBufferSequence, class WriteToken>
  auto async_write_some(const ConstBufferSequence& buffers, WriteToken&& token) {
    // A frame is a few buffers (Beast's header, the payload): up to
    // `gathered` go in one write; a write may take less than it is given.
    std::array<asio::const_buffer, gathered> gather;
    std::size_t count = 0;
    const auto end = asio::buffer_sequence_end(buffers);
    for (auto it = asio::buffer_sequence_begin(buffers); it != end && count < gathered; ++it)
      if (asio::const_buffer piece(*it); piece.size() > 0) gather[count++] = piece;
    return asio::async_initiate<WriteToken, void(boost::system::error_code, std::size_t)>(
        [this](auto handler, std::array<asio::const_buffer, gathered> pieces, std::size_t n) {
          // (The pieces' array is the operation's own until it completes.)
          auto held = std::make_shared<std::array<asio::const_buffer, gathered>>(pieces);
          auto done = back_on_strand<boost::system::error_code, std::size_t>(std::move(handler));
          stream_.async_write_some(std::span<const asio::const_buffer>(held->data(), n),
                                   [held, done = std::move(done)](boost::system::error_code ec, std::size_t written) {
                                     done(ec, written);
                                   });
        },
        token, gather, count);
  }

  /// A callback for the application's stream (any thread) that completes
  /// `handler` on its own executor (the strand), as an Asio operation does.
  /// (Handlers are move-only, callbacks copyable: the handler is shared.)
  template <class... Args, class Handler>
  std::function<void(Args...)> back_on_strand(Handler handler) const {
    auto held = std::make_shared<Handler>(std::move(handler));
    return [held, strand = strand_](Args... args) {
      const auto ex = asio::get_associated_executor(*held, strand);
      asio::post(ex, [held, args...]() mutable { std::move(*held)(args...); });
    };
  }

 private:
  static constexpr std::size_t gathered = 8;

  template <class MutableBufferSequence>
  static asio::mutable_buffer first_of(const MutableBufferSequence& buffers) {
    for (auto it = asio::buffer_sequence_begin(buffers); it != asio::buffer_sequence_end(buffers); ++it)
      if (asio::mutable_buffer piece(*it); piece.size() > 0) return piece;
    return {};
  }

  upgraded_stream& stream_;
  executor_type strand_;
};

/// Beast's teardown (the end of the closing handshake), by the application's stream.
template <class TeardownHandler>
void async_teardown(boost::beast::role_type, handed_stream& stream, TeardownHandler&& handler) {
  stream.stream().async_teardown(
      stream.back_on_strand<boost::system::error_code>(std::forward<TeardownHandler>(handler)));
}

/// Beast's close_socket (a timeout, a failed connection).
inline void beast_close_socket(handed_stream& stream) noexcept { stream.stream().close(); }

}  // namespace mcp::detail::websocket
