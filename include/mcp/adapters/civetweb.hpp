#pragma once
// Mounts an mcp::http_endpoint on a CivetWeb server (docs/embedding.md): the
// application keeps its mg_context, its handlers and its threads, and MCP is
// served on the paths the endpoint lists. Link caduceus::civetweb.
//
// Threads. CivetWeb runs each request on a worker thread of its own
// (`num_threads`); the endpoint runs on its own executor, on threads the
// application runs (never CivetWeb's). A request waits on its worker thread
// for the endpoint's answer, and an SSE response holds its worker thread for
// as long as it is open: size `num_threads` for the streams you expect plus
// the requests at once. A client that goes away is noticed at the next
// write to it, a keep-alive comment at the latest (keep_alive_interval), and
// its stream is then let go. Stop the endpoint before mg_stop(): its streams
// end, and free their threads.
//
// CivetWeb's own settings matter: `request_timeout_ms` bounds each read and
// write of a connection (keep it above the endpoint's keep_alive_interval,
// or idle streams are cut); set `tcp_nodelay` to 1, since a response goes
// out in several writes and Nagle's algorithm holds the last one for the
// client's delayed ACK (40 ms a response). WebSocket is not served through
// CivetWeb: its connections cannot be handed over.

#include <mcp/server/http_endpoint.hpp>

#include <boost/asio/use_future.hpp>

#include <civetweb.h>

#include <chrono>
#include <string>
#include <string_view>
#include <utility>

namespace mcp::adapters {

namespace civetweb_detail {

// The address the context listens on, when every one of its listening
// ports names a loopback address ("127.0.0.1:8080", "[::1]:8443s"): the
// endpoint then checks the Host header (DNS rebinding protection). Empty
// when any listens on every interface or on another address.
inline std::string loopback_address(const mg_context* ctx) {
  const char* listening = mg_get_option(ctx, "listening_ports");
  std::string_view rest = listening ? listening : "";
  std::string first;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    auto entry = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    std::string_view address;
    if (entry.starts_with('[')) address = entry.substr(1, entry.find(']') - 1);
    else if (const auto colon = entry.rfind(':'); colon != std::string_view::npos) address = entry.substr(0, colon);
    const bool loopback = address == "::1" || address == "localhost" || address.starts_with("127.");
    if (!loopback) return {};
    const bool v6 = address.find(':') != std::string_view::npos;
    if (first.empty()) first = v6 ? "[" + std::string(address) + "]" : std::string(address);
  }
  return first;
}

// The request's body, at most `limit` bytes and one more (so that the
// endpoint sees one over its limit, and answers 413).
inline std::string read_body(mg_connection* conn, std::size_t limit) {
  std::string body;
  char piece[16 * 1024];
  while (body.size() <= limit) {
    const int n = mg_read(conn, piece, sizeof piece);
    if (n <= 0) break;
    body.append(piece, static_cast<std::size_t>(n));
  }
  return body;
}

inline void add_headers(mg_connection* conn, const header_list& headers) {
  for (const auto& [name, value] : headers)
    mg_response_header_add(conn, std::string(name).c_str(), value.data(), static_cast<int>(value.size()));
}

}  // namespace civetweb_detail

/// Serves the request of `conn` with `endpoint`, from a request handler of
/// CivetWeb's: for a handler of the application's own (one that checks the
/// application's authentication first, say). Blocks the calling worker
/// thread until the answer's head is known, and for a stream until it ends.
/// Returns the response's status, as a CivetWeb handler does.
inline int serve_with_endpoint(http_endpoint& endpoint, mg_connection* conn) {
  const mg_request_info* info = mg_get_request_info(conn);
  http_endpoint_request in;
  in.method = info->request_method;
  in.target = info->local_uri_raw ? info->local_uri_raw : info->local_uri;
  if (info->query_string) in.target += std::string("?") + info->query_string;
  for (int i = 0; i < info->num_headers; ++i) in.headers.add(info->http_headers[i].name, info->http_headers[i].value);
  in.body = civetweb_detail::read_body(conn, endpoint.options().max_body_size);
  in.http_version = info->http_version && std::string_view(info->http_version) == "1.0" ? 10 : 11;
  in.remote_endpoint = std::string(info->remote_addr) + ":" + std::to_string(info->remote_port);
  if (const auto local = civetweb_detail::loopback_address(mg_get_context(conn)); !local.empty())
    in.local_endpoint = local + ":" + std::to_string(info->server_port);
  auto out = endpoint.async_handle(std::move(in), boost::asio::use_future).get();

  mg_response_header_start(conn, static_cast<int>(out.status));
  civetweb_detail::add_headers(conn, out.headers);
  if (!out.stream) {
    mg_response_header_add(conn, "Content-Length", std::to_string(out.body.size()).c_str(), -1);
    mg_response_header_send(conn);
    if (!out.body.empty()) mg_write(conn, out.body.data(), out.body.size());
    return static_cast<int>(out.status);
  }
  // The body as it comes, chunked. Each read waits at most a second, so
  // that a server that shuts down is not held up.
  mg_response_header_add(conn, "Transfer-Encoding", "chunked", -1);
  mg_response_header_send(conn);
  for (;;) {
    const auto chunk = out.stream->read(std::chrono::seconds(1));
    if (!chunk.data.empty() &&
        mg_send_chunk(conn, chunk.data.data(), static_cast<unsigned>(chunk.data.size())) < 0) {
      out.stream->close();  // its client went away
      break;
    }
    if (chunk.error == boost::asio::error::eof) {
      mg_send_chunk(conn, "", 0);  // the last chunk: the body ended whole
      break;
    }
    // Given up by the endpoint: no last chunk, so the client knows to resume.
    if (chunk.error && chunk.error != boost::asio::error::timed_out) break;
  }
  return static_cast<int>(out.status);
}

/// Routes every path of `endpoint` (http_endpoint::routes) on `ctx`, for
/// every method (the endpoint answers those it does not serve with 405),
/// each path exactly. `endpoint` must outlive the handlers: mg_stop() the
/// context before destroying it.
inline void mount(mg_context* ctx, http_endpoint& endpoint) {
  for (const auto& route : endpoint.routes()) {
    // `$` anchors CivetWeb's pattern: the path exactly, not what lies under it.
    mg_set_request_handler(
        ctx, (route.path + "$").c_str(),
        [](mg_connection* conn, void* mounted) {
          return serve_with_endpoint(*static_cast<http_endpoint*>(mounted), conn);
        },
        &endpoint);
  }
}

}  // namespace mcp::adapters
