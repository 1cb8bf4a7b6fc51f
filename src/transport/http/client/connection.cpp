// The client's connection on transport/http/stream.hpp: one implementation,
// a template over the stream type, made once per connection.

#include "connection.hpp"
#include "../../../detail/as_tuple_awaitable.hpp"
#include "http_error.hpp"
#include "peer_address.hpp"

#include "../buffered_read.hpp"
#include "../stream.hpp"

#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>

#include <algorithm>
#include <array>
#include <vector>


namespace mcp::detail::http_client {

namespace {

using tcp = asio::ip::tcp;

// The request line and the header fields, as Beast's serializer writes them.
std::string head_text(const request_message& req) {
  std::string head;
  head.reserve(256);
  head += req.method_string();
  head += ' ';
  head += req.target();
  head += " HTTP/1.1\r\n";
  for (const auto& field : req) {
    head += field.name_string();
    head += ": ";
    head += field.value();
    head += "\r\n";
  }
  head += "\r\n";
  return head;
}

[[noreturn]] void fail(boost::system::error_code ec, const std::string& what) { throw http_error(ec, what); }

// Names resolution cannot be cancelled per operation: a timer cancels the
// resolver instead, through a weak pointer (the resolver may be gone).
asio::awaitable<tcp::resolver::results_type> resolve(asio::any_io_executor ex, const http_endpoint& ep,
                                                      std::chrono::milliseconds timeout) {
  auto resolver = std::make_shared<tcp::resolver>(ex);
  asio::steady_timer timer(ex);
  timer.expires_after(timeout);
  timer.async_wait([weak = std::weak_ptr<tcp::resolver>(resolver)](boost::system::error_code ec) {
    if (ec) return;
    if (auto r = weak.lock()) r->cancel();
  });
  auto [ec, results] = co_await resolver->async_resolve(ep.host, ep.port, as_tuple_awaitable);
  const bool timed_out = ec == asio::error::operation_aborted && timer.expiry() <= asio::steady_timer::clock_type::now();
  timer.cancel();
  if (timed_out) fail(asio::error::timed_out, "resolve " + ep.host);
  if (ec) fail(ec, "resolve " + ep.host);
  co_return results;
}

// The resolved addresses a connection may go to: all of them, or with
// `public_only` the public ones (peer_address.hpp); none is an error that
// names the address refused.
std::vector<tcp::endpoint> reachable(const tcp::resolver::results_type& results, bool public_only,
                                     const http_endpoint& ep) {
  std::vector<tcp::endpoint> endpoints;
  std::string refused;
  for (const auto& entry : results) {
    const auto kind = public_only ? non_public_kind(entry.endpoint().address()) : std::string_view();
    if (kind.empty())
      endpoints.push_back(entry.endpoint());
    else if (refused.empty())
      refused = entry.endpoint().address().to_string() + ", a " + std::string(kind) + " address";
  }
  if (endpoints.empty() && !refused.empty())
    throw http_error("connect to " + ep.host_header + ": refused: it resolves to " + refused +
                     ", and only public addresses may be reached here (allow_private_addresses)");
  return endpoints;
}

template <class Stream>
class stream_connection final : public connection {
 public:
  template <class... Args>
  explicit stream_connection(bool public_only, std::chrono::milliseconds usual_timeout, Args&&... args)
      : stream_(usual_timeout, std::forward<Args>(args)...), public_only_(public_only) {}
  ~stream_connection() override { close(); }

  asio::awaitable<void> open(const http_endpoint& ep, std::chrono::milliseconds timeout) override {
    origin_ = ep.origin();
    const auto authority = ep.host_header;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    auto remaining = [&] {
      return std::max(std::chrono::milliseconds(1), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                        deadline - std::chrono::steady_clock::now()));
    };
    const auto results = co_await resolve(stream_.socket().get_executor(), ep, timeout);
    if (closed_) fail(asio::error::operation_aborted, "connect to " + authority);
    auto endpoints = reachable(results, public_only_, ep);
    const auto ec = co_await connect(std::move(endpoints), remaining());
    // close() came during the attempts.
    if (closed_) fail(asio::error::operation_aborted, "connect to " + authority);
    if (ec) fail(ec, "connect to " + authority);
    boost::system::error_code ignored;
    stream_.socket().set_option(tcp::no_delay(true), ignored);
    // Writes that cannot complete at once say so instead of blocking (write).
    if constexpr (!timed_stream<Stream>::tls) stream_.socket().non_blocking(true, ignored);
    if (!stream_.expect_server(ep.host))
      fail(asio::error::invalid_argument, "TLS: cannot set the server name " + ep.host);
    if (const auto hs = co_await stream_.handshake(tls_role::client, remaining()))
      fail(hs, "TLS handshake with " + authority);
  }

  // Beast's serializer and composed write, replaced by the head's text and
  // one gathered write: over TCP the socket mostly takes it at once, and
  // only what it does not take waits.
  asio::awaitable<boost::system::error_code> write(request_message& req, std::chrono::milliseconds timeout) override {
    const auto head = head_text(req);
    const std::string_view body = req.body();
    std::size_t taken = 0;
    if constexpr (!timed_stream<Stream>::tls) {
      boost::system::error_code ec;
      const std::array<asio::const_buffer, 2> whole{asio::buffer(head), asio::buffer(body.data(), body.size())};
      taken = stream_.raw().write_some(whole, ec);
      if (ec && ec != asio::error::would_block && ec != asio::error::try_again) co_return ec;
      if (taken == head.size() + body.size()) co_return boost::system::error_code{};
    }
    const std::array<asio::const_buffer, 2> rest =
        taken < head.size()
            ? std::array<asio::const_buffer, 2>{asio::buffer(head) + taken, asio::buffer(body.data(), body.size())}
            : std::array<asio::const_buffer, 2>{asio::buffer(body.data(), body.size()) + (taken - head.size()),
                                                asio::const_buffer()};
    stream_.arm(timeout);
    auto [ec, n] = co_await asio::async_write(stream_.raw(), rest, as_tuple_awaitable);
    co_return stream_.disarm(ec);
  }

  asio::awaitable<boost::system::error_code> read_head(response_parser& parser,
                                                       std::chrono::milliseconds timeout) override {
    stream_.arm(timeout);
    const auto ec = co_await parse(parser, [&] { return parser.is_header_done(); });
    co_return stream_.disarm(ec);
  }

  asio::awaitable<boost::system::error_code> read_some(response_parser& parser,
                                                       std::chrono::milliseconds timeout) override {
    stream_.arm(timeout);
    auto ec = co_await parse(parser, [] { return true; });
    if (ec == http::error::need_buffer) ec = {};
    co_return stream_.disarm(ec);
  }

  void close() noexcept override {
    if (closed_) return;
    closed_ = true;
    stream_.close_now();
  }

  bool is_open() const noexcept override { return !closed_; }

  bool still_usable() noexcept override {
    if (closed_ || buffer_.size() != 0) return false;
    auto& socket = stream_.socket();
    if (!socket.is_open()) return false;
    // A peek that may not wait (Asio's portable form of recv with MSG_PEEK |
    // MSG_DONTWAIT; its own asynchronous operations ignore the flag).
    boost::system::error_code ec;
    const bool was_non_blocking = socket.non_blocking();
    socket.non_blocking(true, ec);
    char byte;
    if (!ec) socket.receive(asio::buffer(&byte, 1), tcp::socket::message_peek, ec);
    boost::system::error_code ignored;
    socket.non_blocking(was_non_blocking, ignored);
    // Nothing to read is what an idle connection looks like; EOF or stray
    // bytes (a TLS close_notify, say) mean the server is done with it.
    return ec == asio::error::would_block;
  }

  const std::string& origin() const noexcept override { return origin_; }

 private:
  // Tries the resolved endpoints in turn, within `timeout` for them all, as
  // asio::async_connect does; but once the deadline has passed or close()
  // came, no later endpoint reopens the socket.
  asio::awaitable<boost::system::error_code> connect(std::vector<tcp::endpoint> endpoints,
                                                     std::chrono::milliseconds timeout) {
    auto& socket = stream_.socket();
    boost::system::error_code ec = asio::error::not_found;
    stream_.arm(timeout);
    for (const auto& endpoint : endpoints) {
      boost::system::error_code ignored;
      socket.close(ignored);  // after a failed attempt; connecting opens it again
      auto [attempt] = co_await socket.async_connect(endpoint, as_tuple_awaitable);
      ec = attempt;
      if (!ec || closed_ || stream_.timed_out()) break;
    }
    co_return stream_.disarm(ec);
  }

  // Until `enough` after a part parsed (transport/http/buffered_read.hpp).
  template <class Enough>
  asio::awaitable<boost::system::error_code> parse(response_parser& parser, Enough enough) {
    boost::system::error_code ec;
    while (!parse_buffered(buffer_, parser, ec, enough)) {
      auto [read_ec, n] = co_await stream_.raw().async_read_some(read_room(buffer_), as_tuple_awaitable);
      if (read_ended(buffer_, parser, n, read_ec, ec)) break;
    }
    co_return ec;
  }

  timed_stream<Stream> stream_;
  beast::flat_buffer buffer_;
  std::string origin_;
  bool public_only_;
  bool closed_ = false;
};

}  // namespace

std::unique_ptr<connection> make_connection(asio::any_io_executor ex, asio::ssl::context* tls,
                                            std::chrono::milliseconds usual_timeout, bool public_only) {
  if (tls) return std::make_unique<stream_connection<tls_socket>>(public_only, usual_timeout, ex, *tls);
  return std::make_unique<stream_connection<tcp_socket>>(public_only, usual_timeout, ex);
}

}  // namespace mcp::detail::http_client
