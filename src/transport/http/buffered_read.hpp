#pragma once
// Beast's read operations without their layers of composed operations, for
// both sides of HTTP (the server's requests in server/connection_io.cpp, the
// client's responses in client/connection.cpp): what is buffered is parsed
// first (a whole message mostly came with its head), and the socket is read
// only for what is missing. Each side's reading coroutine runs the loop
//
//   while (!parse_buffered(buffer, parser, ec, enough)) {
//     auto [read_ec, n] = co_await socket.async_read_some(read_room(buffer), ...);
//     if (read_ended(buffer, parser, n, read_ec, ec)) break;
//   }
//
// itself: a coroutine of its own here would cost a frame per read. Only the
// .cpp files that read include it.

#include <boost/asio/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/read_size.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>

#include <cstddef>

namespace mcp::detail {

/// Asked of the socket at most per read, as Beast does.
inline constexpr std::size_t max_read_size = 64 * 1024;

/// Feeds `parser` what `buffer` holds. True when reading is over: `enough()`
/// after a part parsed, or an error in `ec` (the buffer full among them).
template <bool isRequest, class Enough>
bool parse_buffered(boost::beast::flat_buffer& buffer, boost::beast::http::basic_parser<isRequest>& parser,
                    boost::system::error_code& ec, Enough&& enough) {
  namespace http = boost::beast::http;
  while (buffer.size() > 0) {
    buffer.consume(parser.put(buffer.data(), ec));
    if (ec == http::error::need_more) {
      ec = {};
      break;
    }
    if (ec || enough()) return true;
    // A part parsed: the rest may be buffered.
  }
  if (boost::beast::read_size(buffer, max_read_size) == 0) {
    ec = http::error::buffer_overflow;
    return true;
  }
  return false;
}

/// Where the next read goes.
inline auto read_room(boost::beast::flat_buffer& buffer) {
  return buffer.prepare(boost::beast::read_size(buffer, max_read_size));
}

/// Takes a read of `n` bytes that ended with `read_ec`. True when reading
/// is over: the peer ended the connection or the read failed (`ec` says how).
template <bool isRequest>
bool read_ended(boost::beast::flat_buffer& buffer, boost::beast::http::basic_parser<isRequest>& parser,
                std::size_t n, boost::system::error_code read_ec, boost::system::error_code& ec) {
  buffer.commit(n);
  if (read_ec == boost::asio::error::eof) {
    // A message without a length ends with the connection; before any byte
    // of one, the peer ended the connection (a client between requests, a
    // server closing a keep-alive connection).
    if (parser.got_some()) parser.put_eof(ec);
    else ec = boost::beast::http::error::end_of_stream;
    return true;
  }
  if (read_ec) {
    ec = read_ec;
    return true;
  }
  return false;
}

}  // namespace mcp::detail
