// Streamable HTTP on Boost.Beast: the listener, one coroutine per connection,
// and the POST / GET / DELETE rules of the transport spec. Sessions are
// http_session_transport objects, each served by its own engine.

#include <mcp/log.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/server/http_server.hpp>

#include "../transport/http/session_transport.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <csignal>
#include <cstdio>
#include <random>
#include <sys/random.h>

namespace mcp {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr auto as_tuple_awaitable = asio::as_tuple(asio::use_awaitable);
constexpr std::chrono::seconds request_read_timeout{60};  // idle keep-alive connections
constexpr std::chrono::seconds write_timeout{30};

using request_type = http::request<http::string_body>;

std::string new_session_id() {
  unsigned char bytes[16];
  for (std::size_t got = 0; got < sizeof bytes;) {
    const auto n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n > 0) got += static_cast<std::size_t>(n);
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string id;
  for (auto b : bytes) {
    id += hex[b >> 4];
    id += hex[b & 15];
  }
  return id;
}

bool accepts(const request_type& req, std::string_view type) {
  const auto accept = req[http::field::accept];
  return accept.empty() || accept.find(type) != std::string_view::npos ||
         accept.find("*/*") != std::string_view::npos;
}

// A client that lists text/event-stream before application/json prefers a
// stream even for a quick answer; otherwise JSON is chosen when it can be.
bool prefers_event_stream(const request_type& req) {
  const auto accept = req[http::field::accept];
  const auto sse = accept.find("text/event-stream");
  return sse != std::string_view::npos && sse < accept.find("application/json");
}

// "localhost:8080" -> "localhost"; "[::1]:80" -> "[::1]".
std::string_view host_part(std::string_view authority) {
  if (authority.starts_with('[')) return authority.substr(0, authority.find(']') + 1);
  return authority.substr(0, authority.find(':'));
}

bool is_loopback_name(std::string_view host) {
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
}

// The JSON texts of the ids of the requests in a POST body, and whether it
// holds an initialize. Parsing proper is the engine's; this only routes.
struct body_summary {
  std::vector<std::string> request_ids;
  bool initialize = false;
};

body_summary summarize(const json::value& body) {
  body_summary out;
  auto look = [&](const json::value& v) {
    const auto* obj = v.if_object();
    if (!obj) return;
    const auto* method = obj->if_contains("method");
    const auto* id = obj->if_contains("id");
    if (!method || !id) return;
    const auto request = parse_request_id(*id);
    if (!request) return;  // the engine answers a bad id; nothing to route
    out.request_ids.push_back(to_json_text(*request));  // the key the engine's replies carry
    if (*method == "initialize") out.initialize = true;
  };
  if (const auto* batch = body.if_array())
    for (const auto& item : *batch) look(item);
  else
    look(body);
  return out;
}

// Completes when the client closes the connection (or it fails). A GET
// stream only ever writes, so without this a client that drops its stream
// would hold the session's one GET slot (409 to its next GET) until a write
// failed. Bytes the client sends meanwhile are discarded (`consumed`).
asio::awaitable<void> watch_for_close(beast::tcp_stream& stream, bool& consumed) {
  char scratch[256];
  for (;;) {
    auto [ec, n] = co_await stream.socket().async_read_some(asio::buffer(scratch), as_tuple_awaitable);
    if (ec) co_return;
    consumed = true;
  }
}

std::string sse_event(std::string_view data) {
  std::string event = "event: message\ndata: ";
  event += data;
  event += "\n\n";
  return event;
}

}  // namespace

struct http_server::impl : std::enable_shared_from_this<impl> {
  struct session_entry {
    std::shared_ptr<detail::http_session_transport> transport;
    // Cancels the session's engine, so that ending a session cancels its
    // in-flight requests instead of draining them: nothing they send could
    // reach the client once its streams are closed.
    std::shared_ptr<asio::cancellation_signal> stop = std::make_shared<asio::cancellation_signal>();
    std::chrono::steady_clock::time_point last_activity = std::chrono::steady_clock::now();
  };

  impl(asio::any_io_executor ex, server_behaviour& b, http_server_options o)
      : executor(ex), behaviour(b), options(std::move(o)), acceptor(ex), reaper(ex) {
    const tcp::endpoint endpoint(asio::ip::make_address(options.host), options.port);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen();
    loopback_only = endpoint.address().is_loopback();
  }

  asio::awaitable<void> accept_loop();
  asio::awaitable<void> reap_idle_sessions();
  asio::awaitable<void> serve_connection(std::shared_ptr<beast::tcp_stream> stream);
  asio::awaitable<bool> dispatch(beast::tcp_stream& stream, request_type& req);
  asio::awaitable<bool> handle_post(beast::tcp_stream& stream, request_type& req);
  asio::awaitable<bool> handle_get(beast::tcp_stream& stream, request_type& req);
  asio::awaitable<bool> handle_delete(beast::tcp_stream& stream, request_type& req);
  asio::awaitable<bool> reply(beast::tcp_stream& stream, const request_type& req, http::status status,
                              std::string body = {}, std::string_view content_type = "application/json",
                              std::string_view session_id = {});
  asio::awaitable<bool> reply_error(beast::tcp_stream& stream, const request_type& req,
                                    http::status status, int code, std::string message);
  asio::awaitable<bool> stream_events(beast::tcp_stream& stream, const request_type& req,
                                      std::shared_ptr<detail::response_stream> source,
                                      std::string_view session_id);
  std::optional<std::string> origin_refusal(const request_type& req) const;
  std::shared_ptr<detail::http_session_transport> start_session(const request_type& req,
                                                                const tcp::endpoint& peer,
                                                                server_options engine);
  asio::awaitable<bool> handle_stateless_post(beast::tcp_stream& stream, request_type& req,
                                              const struct body_summary& summary);
  asio::awaitable<bool> answer_post(beast::tcp_stream& stream, request_type& req,
                                    std::shared_ptr<detail::http_session_transport> session,
                                    const std::vector<std::string>& request_ids,
                                    std::string_view session_id);
  void end_session(session_entry& entry);
  // The live session a request names, or why not (400 without the header, 404 unknown or ended).
  struct session_lookup {
    session_entry* entry = nullptr;
    http::status status = http::status::ok;
    std::string refusal;
  };
  session_lookup find_session(const request_type& req);
  void end_all_sessions();

  asio::any_io_executor executor;
  server_behaviour& behaviour;
  http_server_options options;
  tcp::acceptor acceptor;
  asio::steady_timer reaper;  // cancelled by stop(), so that nothing outlives run()
  bool loopback_only = true;
  bool stopping = false;
  std::map<std::string, session_entry> sessions;
  std::set<std::shared_ptr<beast::tcp_stream>> connections;
};

http_server::http_server(asio::any_io_executor ex, server_behaviour& behaviour,
                         http_server_options options)
    : impl_(std::make_shared<impl>(ex, behaviour, std::move(options))) {}

http_server::~http_server() = default;

std::uint16_t http_server::local_port() const { return impl_->acceptor.local_endpoint().port(); }

std::size_t http_server::session_count() const { return impl_->sessions.size(); }

asio::awaitable<void> http_server::run() {
  auto self = impl_;
  asio::co_spawn(self->executor, self->reap_idle_sessions(), asio::detached);
  co_await self->accept_loop();
}

void http_server::stop() {
  auto& d = *impl_;
  if (d.stopping) return;
  d.stopping = true;
  boost::system::error_code ignored;
  d.acceptor.close(ignored);
  d.reaper.cancel();
  d.end_all_sessions();
  for (const auto& connection : d.connections) connection->socket().shutdown(tcp::socket::shutdown_receive, ignored);
}

void http_server::impl::end_session(session_entry& entry) {
  asio::co_spawn(executor, entry.transport->close(), asio::detached);
  entry.stop->emit(asio::cancellation_type::terminal);
}

http_server::impl::session_lookup http_server::impl::find_session(const request_type& req) {
  const auto header = req["Mcp-Session-Id"];
  if (header.empty())
    return {nullptr, http::status::bad_request, "Bad Request: Mcp-Session-Id header is required"};
  const auto it = sessions.find(std::string(header));
  if (it == sessions.end() || it->second.transport->closed())
    return {nullptr, http::status::not_found, "Not Found: unknown or expired session"};
  it->second.last_activity = std::chrono::steady_clock::now();
  return {&it->second, http::status::ok, {}};
}

void http_server::impl::end_all_sessions() {
  for (auto& [id, entry] : sessions) end_session(entry);
}

asio::awaitable<void> http_server::impl::accept_loop() {
  while (!stopping) {
    auto [ec, socket] = co_await acceptor.async_accept(as_tuple_awaitable);
    if (ec) {
      if (stopping || ec == asio::error::operation_aborted) break;
      sdk_log(log_level::warn, "accept failed: " + ec.message());
      continue;
    }
    if (connections.size() >= options.max_connections) {
      sdk_log(log_level::warn, "connection limit reached; closing a new connection");
      boost::system::error_code ignored;
      socket.close(ignored);
      continue;
    }
    auto stream = std::make_shared<beast::tcp_stream>(std::move(socket));
    connections.insert(stream);
    asio::co_spawn(executor, serve_connection(stream),
                   [self = shared_from_this(), stream](std::exception_ptr) { self->connections.erase(stream); });
  }
}

asio::awaitable<void> http_server::impl::reap_idle_sessions() {
  const auto period = std::min<std::chrono::steady_clock::duration>(options.idle_timeout / 2,
                                                                   std::chrono::seconds(30));
  while (!stopping) {
    reaper.expires_after(period);
    co_await reaper.async_wait(as_tuple_awaitable);
    if (stopping) break;
    const auto now = std::chrono::steady_clock::now();
    for (auto& [id, entry] : sessions)
      if (now - entry.last_activity > options.idle_timeout && !entry.transport->closed()) {
        sdk_log(log_level::info, "session " + id + " expired");
        end_session(entry);
      }
  }
}

asio::awaitable<void> http_server::impl::serve_connection(std::shared_ptr<beast::tcp_stream> stream) {
  beast::flat_buffer buffer;
  try {
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(options.max_body_size);
      parser.header_limit(static_cast<std::uint32_t>(options.max_header_size));
      stream->expires_after(request_read_timeout);
      auto [ec, bytes] = co_await http::async_read(*stream, buffer, parser, as_tuple_awaitable);
      if (ec == http::error::end_of_stream || ec == asio::error::eof) break;
      if (ec == http::error::body_limit) {
        request_type head = parser.get();
        co_await reply_error(*stream, head, http::status::payload_too_large, errc::invalid_request,
                             "Payload Too Large: the body exceeds " + std::to_string(options.max_body_size) + " bytes");
        break;
      }
      if (ec == http::error::header_limit) {
        request_type head;
        co_await reply(*stream, head, http::status::request_header_fields_too_large, {}, "text/plain");
        break;
      }
      if (ec) break;  // timeout, reset, malformed HTTP: nothing to answer
      auto req = parser.release();
      stream->expires_never();
      const bool keep_alive = co_await dispatch(*stream, req);
      if (!keep_alive || stopping) break;
    }
  } catch (const std::exception& e) {
    sdk_log(log_level::debug, std::string("HTTP connection ended: ") + e.what());
  }
  boost::system::error_code ignored;
  stream->socket().shutdown(tcp::socket::shutdown_both, ignored);
}

std::optional<std::string> http_server::impl::origin_refusal(const request_type& req) const {
  // DNS rebinding: a page from elsewhere must not reach a local server.
  if (loopback_only) {
    const auto host = req[http::field::host];
    const bool allowed = is_loopback_name(host_part(host)) ||
                         std::ranges::find(options.allowed_hosts, host) != options.allowed_hosts.end();
    if (!allowed) return "Forbidden: Host " + std::string(host) + " is not allowed";
  }
  const auto origin = req[http::field::origin];
  if (origin.empty()) return std::nullopt;
  const auto scheme_end = origin.find("://");
  const auto authority = scheme_end == std::string_view::npos ? origin : origin.substr(scheme_end + 3);
  if (is_loopback_name(host_part(authority))) return std::nullopt;
  if (std::ranges::find(options.allowed_origins, origin) != options.allowed_origins.end()) return std::nullopt;
  return "Forbidden: Origin " + std::string(origin) + " is not allowed";
}

asio::awaitable<bool> http_server::impl::dispatch(beast::tcp_stream& stream, request_type& req) {
  const std::string_view target = req.target();
  const auto path = target.substr(0, target.find('?'));
  if (path != options.path) co_return co_await reply(stream, req, http::status::not_found, {}, "text/plain");
  if (auto refusal = origin_refusal(req))
    co_return co_await reply_error(stream, req, http::status::forbidden, errc::invalid_request, *refusal);
  if (const auto version = req["MCP-Protocol-Version"]; !version.empty() && !parse_protocol_version(version))
    co_return co_await reply_error(stream, req, http::status::bad_request, errc::invalid_request,
                                   "Bad Request: unsupported MCP-Protocol-Version " + std::string(version));
  if (req.method() == http::verb::post) co_return co_await handle_post(stream, req);
  // Stateless serving has no sessions, so no GET stream and nothing to DELETE.
  if (!options.stateless && req.method() == http::verb::get) co_return co_await handle_get(stream, req);
  if (!options.stateless && req.method() == http::verb::delete_)
    co_return co_await handle_delete(stream, req);
  http::response<http::empty_body> res{http::status::method_not_allowed, req.version()};
  res.set(http::field::allow, options.stateless ? "POST" : "GET, POST, DELETE");
  res.keep_alive(req.keep_alive());
  res.prepare_payload();  // Content-Length: 0, or the client reads until the connection closes
  co_await http::async_write(stream, res, asio::use_awaitable);
  co_return req.keep_alive();
}

std::shared_ptr<detail::http_session_transport> http_server::impl::start_session(
    const request_type& req, const tcp::endpoint& peer, server_options engine) {
  transport_metadata metadata;
  metadata.kind = "http";
  metadata.peer = peer.address().to_string() + ":" + std::to_string(peer.port());
  for (const auto& field : req) {
    std::string name(field.name_string());
    std::ranges::transform(name, name.begin(), [](unsigned char c) { return std::tolower(c); });
    metadata.headers[name] = std::string(field.value());
  }
  auto id = new_session_id();
  auto transport = std::make_shared<detail::http_session_transport>(executor, id, std::move(metadata));
  auto& entry = sessions[id];
  entry.transport = transport;
  asio::co_spawn(executor, serve(behaviour, *transport, std::move(engine)),
                 asio::bind_cancellation_slot(
                     entry.stop->slot(), [self = shared_from_this(), transport, id, stop = entry.stop](
                                             std::exception_ptr) { self->sessions.erase(id); }));
  return transport;
}

asio::awaitable<bool> http_server::impl::handle_post(beast::tcp_stream& stream, request_type& req) {
  if (!accepts(req, "application/json") || !accepts(req, "text/event-stream"))
    co_return co_await reply_error(stream, req, http::status::not_acceptable, errc::invalid_request,
                                   "Not Acceptable: Accept must list application/json and text/event-stream");
  const auto content_type = req[http::field::content_type];
  if (!content_type.starts_with("application/json"))
    co_return co_await reply_error(stream, req, http::status::unsupported_media_type, errc::invalid_request,
                                   "Unsupported Media Type: Content-Type must be application/json");
  boost::system::error_code ec;
  const auto body = json::parse(req.body(), ec);
  if (ec)
    co_return co_await reply_error(stream, req, http::status::bad_request, errc::parse_error,
                                   "Parse error: " + ec.message());
  const auto summary = summarize(body);
  if (options.stateless) co_return co_await handle_stateless_post(stream, req, summary);

  std::shared_ptr<detail::http_session_transport> session;
  const auto session_header = req["Mcp-Session-Id"];
  if (summary.initialize) {
    if (!session_header.empty())
      co_return co_await reply_error(stream, req, http::status::bad_request, errc::invalid_request,
                                     "Bad Request: initialize opens a new session; send it without Mcp-Session-Id");
    if (sessions.size() >= options.max_sessions)
      co_return co_await reply_error(stream, req, http::status::service_unavailable, errc::internal_error,
                                     "Service Unavailable: too many sessions");
    boost::system::error_code ignored;
    session = start_session(req, stream.socket().remote_endpoint(ignored), options.engine);
  } else {
    auto found = find_session(req);
    if (!found.entry)
      co_return co_await reply_error(stream, req, found.status, errc::invalid_request, found.refusal);
    session = found.entry->transport;
  }
  const std::string session_id = summary.initialize ? session->id() : std::string();
  co_return co_await answer_post(stream, req, session, summary.request_ids, session_id);
}

asio::awaitable<bool> http_server::impl::handle_stateless_post(beast::tcp_stream& stream,
                                                               request_type& req,
                                                               const body_summary& summary) {
  // Notifications and responses have no session to reach: accepted, and done.
  if (summary.request_ids.empty()) co_return co_await reply(stream, req, http::status::accepted, {}, {});
  if (sessions.size() >= options.max_sessions)
    co_return co_await reply_error(stream, req, http::status::service_unavailable, errc::internal_error,
                                   "Service Unavailable: too many requests in progress");
  auto engine = options.engine;
  if (!summary.initialize) {
    const auto header = parse_protocol_version(req["MCP-Protocol-Version"]);
    engine.assume_initialized = header.value_or(default_http_version);
  }
  boost::system::error_code ignored;
  auto session = start_session(req, stream.socket().remote_endpoint(ignored), std::move(engine));
  const auto id = session->id();
  bool keep_alive = false;
  std::exception_ptr failure;
  try {
    keep_alive = co_await answer_post(stream, req, session, summary.request_ids, {});
  } catch (...) {
    failure = std::current_exception();
  }
  if (const auto it = sessions.find(id); it != sessions.end()) end_session(it->second);
  if (failure) std::rethrow_exception(failure);
  co_return keep_alive;
}

asio::awaitable<bool> http_server::impl::answer_post(beast::tcp_stream& stream, request_type& req,
                                                     std::shared_ptr<detail::http_session_transport> session,
                                                     const std::vector<std::string>& request_ids,
                                                     std::string_view session_id) {
  if (request_ids.empty()) {  // notifications and responses only
    session->deliver(std::move(req.body()));
    co_return co_await reply(stream, req, http::status::accepted, {}, {});
  }
  auto answers = session->open_stream(request_ids, options.json_only);
  session->deliver(std::move(req.body()));
  if (!options.json_only && prefers_event_stream(req))
    co_return co_await stream_events(stream, req, answers, session_id);
  // JSON when the answer comes first and alone; an SSE stream as soon as the
  // handler sends anything else on the way (progress, logs, requests).
  while (answers->frames.empty() && !answers->done)
    co_await answers->wake.async_wait(as_tuple_awaitable);
  if (answers->json_only || (answers->done && answers->frames.size() <= 1)) {
    while (!answers->done) co_await answers->wake.async_wait(as_tuple_awaitable);
    if (answers->frames.empty()) {
      if (session->closed())
        co_return co_await reply_error(stream, req, http::status::not_found, errc::invalid_request,
                                       "Not Found: the session ended");
      // The client cancelled the request: there is no answer to give.
      co_return co_await reply(stream, req, http::status::accepted, {}, {});
    }
    std::string reply_body = std::move(answers->frames.front());
    co_return co_await reply(stream, req, http::status::ok, std::move(reply_body), "application/json",
                             session_id);
  }
  co_return co_await stream_events(stream, req, answers, session_id);
}

asio::awaitable<bool> http_server::impl::stream_events(beast::tcp_stream& stream, const request_type& req,
                                                       std::shared_ptr<detail::response_stream> source,
                                                       std::string_view session_id) {
  http::response<http::empty_body> res{http::status::ok, req.version()};
  res.set(http::field::content_type, "text/event-stream");
  res.set(http::field::cache_control, "no-cache");
  if (!session_id.empty()) res.set("Mcp-Session-Id", session_id);
  res.keep_alive(req.keep_alive());
  res.chunked(true);
  http::response_serializer<http::empty_body> serializer(res);
  stream.expires_after(write_timeout);
  co_await http::async_write_header(stream, serializer, asio::use_awaitable);
  for (;;) {
    while (!source->frames.empty()) {
      const auto event = sse_event(source->frames.front());
      source->frames.pop_front();
      stream.expires_after(write_timeout);
      co_await asio::async_write(stream, http::make_chunk(asio::buffer(event)), asio::use_awaitable);
    }
    if (source->done) break;
    source->wake.expires_after(options.keep_alive_interval);
    auto [ec] = co_await source->wake.async_wait(as_tuple_awaitable);
    if (!ec) {  // quiet for a while: a comment keeps proxies from closing the stream
      static constexpr std::string_view ping = ": keep-alive\n\n";
      stream.expires_after(write_timeout);
      co_await asio::async_write(stream, http::make_chunk(asio::buffer(ping)), asio::use_awaitable);
    }
  }
  stream.expires_after(write_timeout);
  co_await asio::async_write(stream, http::make_chunk_last(), asio::use_awaitable);
  stream.expires_never();
  co_return req.keep_alive();
}

asio::awaitable<bool> http_server::impl::handle_get(beast::tcp_stream& stream, request_type& req) {
  if (!accepts(req, "text/event-stream") || req[http::field::accept].empty())
    co_return co_await reply_error(stream, req, http::status::not_acceptable, errc::invalid_request,
                                   "Not Acceptable: Accept must list text/event-stream");
  auto found = find_session(req);
  if (!found.entry)
    co_return co_await reply_error(stream, req, found.status, errc::invalid_request, found.refusal);
  auto session = found.entry->transport;
  auto standalone = session->open_standalone();
  if (!standalone)
    co_return co_await reply_error(stream, req, http::status::conflict, errc::invalid_request,
                                   "Conflict: this session already has a GET stream");
  bool keep_alive = false;
  try {
    using namespace asio::experimental::awaitable_operators;
    bool consumed = false;
    const std::string_view no_session_header;
    auto outcome = co_await (stream_events(stream, req, standalone, no_session_header) ||
                             watch_for_close(stream, consumed));
    keep_alive = outcome.index() == 0 && std::get<0>(outcome) && !consumed;
  } catch (...) {
    session->release_standalone(standalone);
    throw;
  }
  session->release_standalone(standalone);
  co_return keep_alive;
}

asio::awaitable<bool> http_server::impl::handle_delete(beast::tcp_stream& stream, request_type& req) {
  auto found = find_session(req);
  if (!found.entry)
    co_return co_await reply_error(stream, req, found.status, errc::invalid_request, found.refusal);
  end_session(*found.entry);
  co_return co_await reply(stream, req, http::status::ok, {}, {});
}

asio::awaitable<bool> http_server::impl::reply(beast::tcp_stream& stream, const request_type& req,
                                               http::status status, std::string body,
                                               std::string_view content_type, std::string_view session_id) {
  http::response<http::string_body> res{status, req.version() ? req.version() : 11};
  if (!content_type.empty() && !body.empty()) res.set(http::field::content_type, content_type);
  if (!session_id.empty()) res.set("Mcp-Session-Id", session_id);
  res.body() = std::move(body);
  res.keep_alive(req.keep_alive());
  res.prepare_payload();
  stream.expires_after(write_timeout);
  co_await http::async_write(stream, res, asio::use_awaitable);
  stream.expires_never();
  co_return req.keep_alive();
}

asio::awaitable<bool> http_server::impl::reply_error(beast::tcp_stream& stream, const request_type& req,
                                                     http::status status, int code, std::string message) {
  std::string body = serialize(make_error({}, code, std::move(message)));
  co_return co_await reply(stream, req, status, std::move(body));
}

int run_http_server(server_behaviour& behaviour, http_server_options options) {
  asio::io_context io(1);
  const auto host = options.host;
  const auto path = options.path;
  http_server server(io.get_executor(), behaviour, std::move(options));
  // The first line of stdout is the endpoint: scripts start us with port 0 and read it.
  std::printf("http://%s:%u%s\n", host.c_str(), static_cast<unsigned>(server.local_port()), path.c_str());
  std::fflush(stdout);
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) server.stop();
  });
  int exit_code = 0;
  asio::co_spawn(io, server.run(), [&](std::exception_ptr failure) {
    signals.cancel();
    if (failure) exit_code = 1;
  });
  io.run();
  return exit_code;
}

}  // namespace mcp
