#pragma once
// Mounts an mcp::http_endpoint on a cpp-httplib server (docs/embedding.md):
// the application keeps its httplib::Server, its routes and its threads, and
// MCP is served on the paths the endpoint lists. Link caduceus::httplib.
//
// Threads. cpp-httplib runs each request on a worker thread of its pool;
// the endpoint runs on its own executor, on threads the application runs
// (never the pool's). A request waits on its worker thread for the
// endpoint's answer, and an SSE response (a POST answered as a stream, the
// GET stream, a legacy /sse stream, a subscriptions/listen stream) holds its
// worker thread for as long as it is open. Size the pool for the streams you
// expect plus the requests at once (`server.new_task_queue = [] { return new
// httplib::ThreadPool(64); }`): with every worker held by a stream, new
// requests wait. A client that goes away is noticed at the next write to
// it, a keep-alive comment at the latest (keep_alive_interval), and its
// stream is then let go.

#include <mcp/server/http_endpoint.hpp>

#include <boost/asio/use_future.hpp>

#include <httplib.h>

#include <chrono>
#include <memory>
#include <regex>
#include <string>
#include <utility>

namespace mcp::adapters {

namespace httplib_detail {

// A literal path as the regular expression httplib matches routes with.
inline std::string exact_pattern(const std::string& path) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(path, special, R"(\$&)");
}

// cpp-httplib adds the connection's addresses to the request's headers.
inline bool is_connection_note(const std::string& name) {
  return name == "REMOTE_ADDR" || name == "REMOTE_PORT" || name == "LOCAL_ADDR" || name == "LOCAL_PORT";
}

}  // namespace httplib_detail

/// Serves one request of `server`'s with `endpoint`: for a handler of the
/// application's own (one that checks the application's authentication
/// first, say). Blocks the calling worker thread until the answer's head is
/// known, and for a stream until it ends.
inline void serve_with_endpoint(http_endpoint& endpoint, const httplib::Request& req, httplib::Response& res) {
  http_endpoint_request in;
  in.method = req.method;
  in.target = req.target;
  for (const auto& [name, value] : req.headers)
    if (!httplib_detail::is_connection_note(name)) in.headers.add(name, value);
  in.body = req.body;
  in.http_version = req.version == "HTTP/1.0" ? 10 : 11;
  in.remote_endpoint = req.remote_addr + ":" + std::to_string(req.remote_port);
  in.local_endpoint = req.local_addr + ":" + std::to_string(req.local_port);
  auto out = endpoint.async_handle(std::move(in), boost::asio::use_future).get();
  res.status = static_cast<int>(out.status);
  std::string content_type;
  for (const auto& [name, value] : out.headers) {
    if (name == "content-type") content_type = value;
    else res.set_header(std::string(name), std::string(value));
  }
  if (!out.stream) {
    // (set_content would also write a Content-Type, empty when there is none)
    if (content_type.empty()) res.body = std::move(out.body);
    else res.set_content(std::move(out.body), content_type.c_str());
    return;
  }
  // The body as it comes, chunked; the provider is called again while it
  // returns true, and waits at most a second each time so that a server
  // that shuts down is not held up.
  auto stream = std::move(out.stream);
  res.set_chunked_content_provider(
      content_type,
      [stream](std::size_t, httplib::DataSink& sink) {
        auto chunk = stream->read(std::chrono::seconds(1));
        if (!chunk.data.empty() && !sink.write(chunk.data.data(), chunk.data.size())) return false;
        if (chunk.error == boost::asio::error::eof) {
          sink.done();
          return true;
        }
        if (chunk.error && chunk.error != boost::asio::error::timed_out) return false;  // cut short
        return sink.is_writable();
      },
      [stream](bool) { stream->close(); });  // ended, or its client went away
}

/// Routes every path of `endpoint` (http_endpoint::routes) on `server`, for
/// every method: the endpoint answers those it does not serve with 405.
inline void mount(httplib::Server& server, http_endpoint& endpoint) {
  const auto handler = [&endpoint](const httplib::Request& req, httplib::Response& res) {
    serve_with_endpoint(endpoint, req, res);
  };
  for (const auto& route : endpoint.routes()) {
    const auto pattern = httplib_detail::exact_pattern(route.path);
    server.Get(pattern, handler);
    server.Post(pattern, handler);
    server.Delete(pattern, handler);
    server.Put(pattern, handler);
    server.Patch(pattern, handler);
  }
}

}  // namespace mcp::adapters
