// The server's HTTP request reader (transport/http/server/http_request.cpp
// over Beast's parser) with the server's limits and header slots, then the
// header rules every request meets (server/http/request_rules.cpp): the
// bytes a client sends on a connection, pipelined requests included, in
// chunks of any size.

#include "server/http/request_rules.hpp"
#include "server/http/served_request.hpp"

#include "fuzz_input.hpp"

#include <boost/beast/http/error.hpp>

#include <cstdlib>

namespace {

namespace http = boost::beast::http;
using mcp::detail::known_header;

constexpr std::size_t max_body = 64 * 1024;

// What the server reads of a whole request before it routes it.
void serve(const mcp::detail::served_request& req) {
  for (auto slot = std::size_t{0}; slot < static_cast<std::size_t>(known_header::count_); ++slot)
    (void)req.header(slot);
  (void)mcp::detail::accepts(req, "text/event-stream");
  (void)mcp::detail::prefers_event_stream(req);
  (void)req.headers_without("authorization");
  if (req.body().size() > max_body) std::abort();
  std::optional<mcp::detail::body_refusal> refused;
  (void)mcp::detail::read_json_body(req, refused);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view stream = mcp::fuzz::as_text(data, size);
  mcp::detail::served_request req;
  // One reader per request, as the server does, until the bytes run out or
  // a request is refused (the server then closes the connection).
  while (!stream.empty()) {
    mcp::detail::request_reader reader(req, mcp::detail::known_header_slot);
    reader.body_limit(max_body);
    reader.header_limit(8 * 1024);
    boost::system::error_code ec;
    while (!stream.empty() && !reader.is_done()) {
      const auto used = reader.put(boost::asio::buffer(stream.data(), stream.size()), ec);
      stream.remove_prefix(used);
      if (ec == http::error::need_more) {
        if (used == 0) return 0;  // the rest is a partial request: the server waits for more
        ec = {};
        continue;
      }
      if (ec) return 0;
    }
    if (!reader.is_done()) return 0;
    serve(req);
  }
  return 0;
}
