// The HTTP+SSE transport of 2024-11-05 (spec 2024-11-05: basic/transports),
// served beside Streamable HTTP as the 2025-03-26 backwards-compatibility
// section describes: a GET opens a session whose one SSE stream carries every
// message to the client, starting with an `endpoint` event that names where
// to POST; each POST is answered 202 and its replies go to the stream. The
// session ends when its stream does.

#include "endpoint_impl.hpp"
#include "../../detail/random.hpp"
#include "../../transport/http/server/sse.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include <boost/json/parse.hpp>
#include <boost/url/parse.hpp>

namespace mcp {

namespace {

// The `sessionId` query parameter of a legacy POST, or empty.
std::string session_id_param(std::string_view target) {
  auto url = boost::urls::parse_origin_form(target);
  if (!url) return {};
  const auto params = url->params();
  const auto it = params.find("sessionId");
  return it == params.end() ? std::string() : std::string((*it).value);
}

}  // namespace

asio::awaitable<bool> http_endpoint::impl::handle_legacy_stream(response_channel& io, served_request& req) {
  if (!detail::accepts(req, "text/event-stream"))
    co_return co_await reply_error(io, req, http::status::not_acceptable, errc::invalid_request,
                                   "Not Acceptable: Accept must list text/event-stream");
  if (session_count() >= options.max_sessions)
    co_return co_await reply_error(io, req, http::status::service_unavailable, errc::internal_error,
                                   "Service Unavailable: too many sessions");
  auto session = co_await start_session(detail::random_hex(16), req, io, options.session, session_kind::legacy);
  auto& streams = session->transport();
  const auto id = streams.id();
  const auto reader = co_await asio::this_coro::executor;
  auto stream = streams.open_standalone(reader);
  stream_start start;
  // A relative URI: the client resolves it against the stream's URL, so it
  // works behind proxies that rewrite the host.
  start.preamble = detail::sse_event({}, options.legacy_messages_path + "?sessionId=" + id, "endpoint");
  start.kind = detail::stream_kind::legacy;
  bool keep = false;
  std::exception_ptr failure;
  try {
    keep = co_await write_event_stream(io, req, streams, stream, std::move(start));
  } catch (...) {
    failure = std::current_exception();
  }
  co_await end_session(session);  // the stream was the session
  if (failure) std::rethrow_exception(failure);
  co_return keep;
}

asio::awaitable<bool> http_endpoint::impl::handle_legacy_post(response_channel& io, served_request& req) {
  const auto id = session_id_param(req.target());
  if (id.empty())
    co_return co_await reply_error(io, req, http::status::bad_request, errc::invalid_request,
                                   "Bad Request: the sessionId query parameter is required");
  std::shared_ptr<http_session> session;
  {
    std::lock_guard lock(tables);
    const auto it = sessions.find(id);
    if (it != sessions.end() && it->second.legacy && !it->second.session->transport().closed() &&
        same_owner(it->second.owner, req)) {
      session = it->second.session;
      it->second.last_activity = std::chrono::steady_clock::now();
    }
  }
  if (!session)
    co_return co_await reply_error(io, req, http::status::not_found, errc::invalid_request,
                                   "Not Found: unknown or ended session");
  std::optional<detail::body_refusal> refused;
  auto body = detail::read_json_body(req, refused);
  if (refused) co_return co_await reply_error(io, req, refused->status, refused->code, std::move(refused->message));
  detail::note_message(req, body);
  inbound_frame frame;
  frame.parsed = std::move(body);
  if (!co_await deliver(session, req, std::move(frame), true, true))
    co_return co_await reply_error(io, req, http::status::not_found, errc::invalid_request,
                                   "Not Found: unknown or ended session");
  co_return co_await reply(io, req, http::status::accepted, "Accepted", "text/plain", {});
}

}  // namespace mcp
