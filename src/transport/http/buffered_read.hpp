#pragma once
// Beast's read operations without their layers of composed operations, for
// both sides of HTTP (the server's requests in server/connection_io.cpp, the
// client's responses in client/connection.cpp): what is buffered is parsed
// first (a whole message mostly came with its head), and the socket is read
// only for what is missing. Only the .cpp files that read include it.

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/read_size.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>

#include <cstddef>

namespace mcp::detail {

/// Asked of the socket at most per read, as Beast does.
inline constexpr std::size_t max_read_size = 64 * 1024;

/// Feeds `parser` from `buffer`, reading `stream` for more, until `enough()`
/// holds after a part parsed, or an error (the caller's deadline cancels a
/// read that takes too long). `on_read(n)`: `n` bytes came from the socket.
template <class Stream, bool isRequest, class Enough, class OnRead>
boost::asio::awaitable<boost::system::error_code> read_buffered(Stream& stream, boost::beast::flat_buffer& buffer,
                                                                boost::beast::http::basic_parser<isRequest>& parser,
                                                                Enough enough, OnRead on_read) {
  namespace http = boost::beast::http;
  boost::system::error_code ec;
  for (;;) {
    if (buffer.size() > 0) {
      buffer.consume(parser.put(buffer.data(), ec));
      if (ec == http::error::need_more) ec = {};
      else if (ec || enough()) break;
      else continue;  // a part parsed; the rest may be buffered
    }
    const auto room = boost::beast::read_size(buffer, max_read_size);
    if (room == 0) {
      ec = http::error::buffer_overflow;
      break;
    }
    auto [read_ec, n] =
        co_await stream.async_read_some(buffer.prepare(room), boost::asio::as_tuple(boost::asio::use_awaitable));
    buffer.commit(n);
    on_read(n);
    if (read_ec == boost::asio::error::eof) {
      // A message without a length ends with the connection; before any
      // byte of one, the peer ended the connection (a client between
      // requests, a server closing a keep-alive connection).
      if (parser.got_some()) parser.put_eof(ec);
      else ec = http::error::end_of_stream;
      break;
    }
    if (read_ec) {
      ec = read_ec;
      break;
    }
  }
  co_return ec;
}

}  // namespace mcp::detail
