// Streamable HTTP (spec: basic/transports, 2025-03-26 on): POST, GET and
// DELETE on the MCP endpoint, the session header rules, and resumption of
// SSE streams with Last-Event-ID.

#include "endpoint_impl.hpp"

#include "../../auth/bearer.hpp"
#include "../../detail/random.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <charconv>

namespace mcp {

namespace {

// The status of a JSON answer: a 2026-07-28 request the protocol refuses
// gets 400, or 404 for a method the server does not have (streamable-http,
// "Protocol Version Header").
http::status answer_status(frame_context::refusal refused) {
  switch (refused) {
    case frame_context::refusal::invalid_request: return http::status::bad_request;
    case frame_context::refusal::unknown_method: return http::status::not_found;
    case frame_context::refusal::insufficient_scope: return http::status::forbidden;
    case frame_context::refusal::none: break;
  }
  return http::status::ok;
}

// Waits until `ready` holds for the stream, or its client goes away (which is
// watched meanwhile).
asio::awaitable<void> wait_until(response_channel& io, message_stream& stream,
                                 bool (*ready)(const message_stream::view&)) {
  close_watch watch(io, [&stream](bool) { stream.client_went_away(); });
  co_await stream.wait(ready);
}

// "<stream id>_<seq>", as message_stream::event_id writes them.
struct event_position {
  std::string stream_id;
  std::uint64_t seq = 0;
};

std::optional<event_position> parse_event_id(std::string_view id) {
  const auto cut = id.rfind('_');
  if (cut == std::string_view::npos || cut == 0) return std::nullopt;
  event_position position{std::string(id.substr(0, cut)), 0};
  const auto digits = id.substr(cut + 1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), position.seq);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return position;
}

// A body that is no message at all (a number, a string, null), or a request
// whose id is no JSON-RPC id (null, a fraction, an integer beyond 2^63 - 1):
// its error carries a null id, which no stream of the POST awaits, so the
// POST itself is answered with it, 400 (the transport spec's answer to input
// the server cannot accept). A batch is the engine's to answer as a whole.
std::optional<error_response> refusal_without_id(const json::value& body) {
  if (body.is_array()) return std::nullopt;
  if (const auto* message = body.if_object(); message && !(message->contains("method") && message->contains("id")))
    return std::nullopt;  // notifications and responses, for the engine
  auto item = classify(body);  // (a copy, of a body that is rarely more than a few bytes)
  if (auto* invalid = std::get_if<invalid_message>(&item)) return std::move(invalid->reply);
  return std::nullopt;
}

}  // namespace

asio::awaitable<bool> http_endpoint::impl::handle_post(response_channel& io, served_request& req) {
  if (!detail::accepts(req, "application/json") || !detail::accepts(req, "text/event-stream"))
    co_return co_await reply_error(io, req, http::status::not_acceptable, errc::invalid_request,
                                   "Not Acceptable: Accept must list application/json and text/event-stream");
  std::optional<detail::body_refusal> refused;
  auto body = detail::read_json_body(req, refused);
  if (refused) co_return co_await reply_error(io, req, refused->status, refused->code, std::move(refused->message));
  detail::note_message(req, body);
  const auto summary = detail::summarize(body);
  if (summary.request_ids.empty()) {
    if (const auto refusal = refusal_without_id(body)) {
      std::string answer = serialize(*refusal);
      co_return co_await reply(io, req, http::status::bad_request, std::move(answer), "application/json", {});
    }
  }
  const auto version_header = req[known_header::mcp_protocol_version];
  if (detail::is_modern_post(version_header, body))
    co_return co_await handle_modern_post(io, req, std::move(body), summary);
  if (auto refusal = detail::unknown_version_refusal(version_header))
    co_return co_await reply_error(io, req, http::status::bad_request, errc::invalid_request, *refusal);
  if (options.stateless) {
    auto engine = options.session;
    if (!summary.initialize) {
      negotiated_session assumed;
      assumed.version = parse_protocol_version(version_header).value_or(default_http_version);
      engine.assume_initialized = std::move(assumed);
    }
    co_return co_await serve_alone(io, req, std::move(body), summary, std::move(engine), protocol_era::legacy);
  }

  std::shared_ptr<http_session> session;
  const auto session_header = req[known_header::mcp_session_id];
  if (summary.initialize) {
    if (!session_header.empty())
      co_return co_await reply_error(io, req, http::status::bad_request, errc::invalid_request,
                                     "Bad Request: initialize opens a new session; send it without Mcp-Session-Id");
    if (session_count() >= options.max_sessions)
      co_return co_await reply_error(io, req, http::status::service_unavailable, errc::internal_error,
                                     "Service Unavailable: too many sessions");
    session = co_await start_session(detail::random_hex(16), req, io, options.session, session_kind::streamable);
  } else {
    auto found = find_session_here(session_header, req);
    if (!found) {
      auto looked_up = co_await find_session(io, req, session_header);
      found = std::move(looked_up);
    }
    if (!found->session)
      co_return co_await reply_error(io, req, found->status, errc::invalid_request, found->refusal);
    session = found->session;
  }
  if (!summary.request_ids.empty() && session->transport().attached_streams() >= options.max_streams_per_session)
    co_return co_await reply_error(io, req, http::status::too_many_requests, errc::invalid_request,
                                   "Too Many Requests: this session has too many open streams");
  std::string new_session_header = summary.initialize ? session->transport().id() : std::string();
  // (A refreshed token: its scopes from now on. The first request's principal is bound already.)
  const bool rebind = !summary.initialize && req.principal;
  co_return co_await answer_post(io, req, std::move(body), session, summary.request_ids,
                                 std::move(new_session_header), false, rebind);
}

asio::awaitable<bool> http_endpoint::impl::handle_modern_post(response_channel& io, served_request& req,
                                                            json::value body,
                                                            const detail::body_summary& summary) {
  // One message per POST; a notification has nothing to do over HTTP.
  const auto& message = body.get_object();
  if (!message.contains("id")) co_return co_await reply_status(io, req, http::status::accepted);
  const detail::received_routing_headers received{req[known_header::mcp_protocol_version],
                                                  req[known_header::mcp_method], req[known_header::mcp_name]};
  if (auto mismatch = detail::check_routing_headers(received, message)) {
    const auto id = parse_request_id(message.at("id"));
    error_response refusal{id, {errc::header_mismatch, std::move(mismatch->message), std::move(mismatch->data)}};
    co_return co_await reply(io, req, http::status::bad_request, serialize(refusal), "application/json", {});
  }
  co_return co_await serve_alone(io, req, std::move(body), summary, options.session, protocol_era::modern);
}

asio::awaitable<bool> http_endpoint::impl::serve_alone(response_channel& io, served_request& req, json::value body,
                                                     const detail::body_summary& summary,
                                                     session_options engine, protocol_era era) {
  // Notifications and responses have no session to reach: accepted, and done.
  if (summary.request_ids.empty()) co_return co_await reply_status(io, req, http::status::accepted);
  if (session_count() >= options.max_sessions)
    co_return co_await reply_error(io, req, http::status::service_unavailable, errc::internal_error,
                                   "Service Unavailable: too many requests in progress");
  // Named by a counter: the client never sees the id, so it need not be
  // unguessable (and random bytes per request cost more than a counter).
  auto session = co_await start_session("stateless-" + std::to_string(++stateless_requests), req, io,
                                        std::move(engine), session_kind::alone);
  session->engine().set_era(era);
  bool keep = false;
  std::exception_ptr failure;
  try {
    std::string no_session_header;
    keep = co_await answer_post(io, req, std::move(body), session, summary.request_ids,
                                std::move(no_session_header), true, false);
  } catch (...) {
    failure = std::current_exception();
  }
  end_session_here(session);  // (its strand is this connection's)
  if (failure) std::rethrow_exception(failure);
  co_return keep;
}

asio::awaitable<bool> http_endpoint::impl::answer_post(response_channel& io, served_request& req, json::value body,
                                                     std::shared_ptr<http_session> session,
                                                     std::span<const std::string> request_ids,
                                                     std::string session_header, bool alone, bool rebind) {
  // (Before the body is taken: answers may concern a request running on another server.)
  if (session->transport().relay()) relay_client_messages(*session, body);
  inbound_frame frame;  // (the text stays in the request, whose room the next one reuses)
  frame.parsed = std::move(body);
  auto& streams = session->transport();
  const auto reader = co_await asio::this_coro::executor;
  // Requests get a stream for their answers; notifications and responses
  // alone, none (and never wait for room: the requests that fill the
  // session may wait for them). One request gets a stream in the session's
  // tables only if its answer does not come at once: most do, and the
  // tables cost about 2,500 instructions (http_session_transport::direct_slot).
  const bool requests = !request_ids.empty();
  const bool wants_stream = !options.json_only && detail::prefers_event_stream(req);
  const bool maybe_direct = request_ids.size() == 1 && session->executor() == reader;
  http_session_transport::direct_slot direct;
  std::shared_ptr<message_stream> answers;
  if (maybe_direct) {
    direct.request_id = request_ids.front();
    direct.json_only = options.json_only;
    direct.reader = reader;
    streams.expect_direct(direct);
  } else if (requests) {
    answers = streams.open_stream(request_ids, options.json_only, reader);
  }
  // A POST served alone may open a listen stream (2026-07-28): the stream
  // then takes the connection over.
  std::optional<detail::listen_taker> listens;
  if (alone) {
    listens.emplace(reader, behaviour, options.session.max_queued_bytes);
    session->engine().set_listen_host(&*listens);
  }
  bool delivered = false;
  std::optional<delivery> done;
  try {
    done = deliver_at_once(*session, req, frame, rebind, requests, reader);
  } catch (...) {
    streams.forget_direct(direct);  // (the slot is this frame's)
    throw;
  }
  if (done) {
    delivered = done->delivered;
    if (maybe_direct) answers = streams.take_direct();  // (before anything is awaited)
    if (done->rest) co_await session->engine().accept_rest(std::move(*done->rest));
  } else {
    if (maybe_direct) answers = streams.take_direct();  // (nothing ran: the stream opens now)
    delivered = co_await deliver(session, req, std::move(frame), rebind, requests);
  }
  if (listens) session->engine().set_listen_host(nullptr);
  if (!delivered) {
    if (answers) streams.detach(*answers);
    co_return co_await reply_error(io, req, http::status::not_found, errc::invalid_request,
                                   "Not Found: the session ended");
  }
  if (listens && listens->taken) {
    if (answers) streams.detach(*answers);
    co_return co_await open_listen_response(io, req, std::move(listens->taken));
  }
  if (!requests) co_return co_await reply_status(io, req, http::status::accepted);
  if (direct.answer) {
    if (!wants_stream || direct.refused != frame_context::refusal::none)
      co_return co_await reply_answer(io, req, std::move(*direct.answer), direct.refused, session_header);
    // (A POST served alone has no session to resume its stream with.)
    co_return co_await write_answer_event(io, req, streams, streams.take_answer_event(direct, !alone),
                                          session_header);
  }
  // JSON when the answer comes first and alone; an SSE stream as soon as the
  // handler sends anything else on the way (progress, logs, requests), or
  // lets the connection go, or when the client prefers a stream. A refusal
  // that comes first and alone keeps its HTTP status (400, 403, 404)
  // whatever the client prefers: the spec asks for it, and a client decides
  // on the status (step-up, falling back to an older revision). A stream the
  // client prefers starts at once when it is primed for resumption; a POST
  // served alone, never primed, waits for its first news like a JSON one.
  auto now = answers->look();
  if (!wants_stream || alone) {
    // (Checked first: most answers are there already, and a call costs a frame.)
    if (!message_stream::has_news(now)) {
      co_await wait_until(io, *answers, message_stream::has_news);
      now = answers->look();
    }
    // A client that went away meanwhile frees its stream at once.
    if (now.client_gone) {
      streams.detach(*answers);
      co_return false;
    }
  }
  const bool single_answer = now.done && now.pending <= 1;
  const bool refusal = single_answer && now.refused != frame_context::refusal::none;
  if (answers->json_only() || refusal || (!wants_stream && single_answer && !now.release_requested)) {
    if (!now.done) co_await wait_until(io, *answers, message_stream::is_done);
    auto taken = answers->take();
    const bool client_gone = taken.state.client_gone;
    const auto refused = taken.state.refused;
    std::optional<std::string> answer;
    if (!taken.events.empty()) answer = std::move(taken.events.front().data);
    streams.detach(*answers);
    if (client_gone) co_return false;
    if (!answer) {
      if (streams.closed())
        co_return co_await reply_error(io, req, http::status::not_found, errc::invalid_request,
                                       "Not Found: the session ended");
      // The client cancelled the request: there is no answer to give.
      co_return co_await reply_status(io, req, http::status::accepted);
    }
    co_return co_await reply_answer(io, req, std::move(*answer), refused, session_header);
  }
  // A POST served alone has no session to resume its stream with.
  if (!alone) streams.make_resumable(*answers, request_ids);
  stream_start start;
  start.session_header = std::move(session_header);
  start.prime = answers->resumable() && streams.primes_streams();
  co_return co_await write_event_stream(io, req, streams, answers, std::move(start));
}

asio::awaitable<bool> http_endpoint::impl::reply_answer(response_channel& io, served_request& req, std::string answer,
                                                      frame_context::refusal refused,
                                                      const std::string& session_header) {
  if (refused == frame_context::refusal::insufficient_scope && options.auth) {
    // Step-up (spec: basic/authorization, "Scope Challenge Handling"): 403
    // and every scope the request needs, so one new token will do.
    const auto fields = challenge_fields(req, "insufficient_scope", "the token lacks scopes this request requires",
                                         challenge_scopes(answer));
    co_return co_await reply(io, req, http::status::forbidden, std::move(answer), "application/json", session_header,
                             fields);
  }
  co_return co_await reply(io, req, answer_status(refused), std::move(answer), "application/json", session_header);
}

asio::awaitable<bool> http_endpoint::impl::open_listen_response(response_channel& io, served_request& req,
                                                              std::shared_ptr<listen_stream> stream) {
  detail::response_head head;
  head.version = req.version() == 10 ? 10 : 11;
  head.keep_alive = keep_alive(req);
  head.content_type = "text/event-stream";
  head.no_cache = true;
  io.counted().status = static_cast<unsigned>(http::status::ok);
  try {
    // (The channel nearly always takes the head and the acknowledgement whole.)
    if (!io.send_head(head, stream->begin_response(), false)) co_await io.finish();
  } catch (...) {
    stream->abandon();
    throw;
  }
  req.taken_over = std::move(stream);
  co_return false;
}

asio::awaitable<bool> http_endpoint::impl::handle_get(response_channel& io, served_request& req) {
  if (!detail::accepts(req, "text/event-stream") || req[known_header::accept].empty())
    co_return co_await reply_error(io, req, http::status::not_acceptable, errc::invalid_request,
                                   "Not Acceptable: Accept must list text/event-stream");
  auto found = co_await find_session(io, req, req[known_header::mcp_session_id]);
  if (!found.session)
    co_return co_await reply_error(io, req, found.status, errc::invalid_request, found.refusal);
  if (const auto last_event_id = req[known_header::last_event_id]; !last_event_id.empty())
    co_return co_await resume_stream(io, req, found.session, last_event_id);
  auto& streams = found.session->transport();
  if (streams.attached_streams() >= options.max_streams_per_session)
    co_return co_await reply_error(io, req, http::status::too_many_requests, errc::invalid_request,
                                   "Too Many Requests: this session has too many open streams");
  const auto reader = co_await asio::this_coro::executor;
  auto standalone = streams.open_standalone(reader);
  if (!standalone)
    co_return co_await reply_error(io, req, http::status::conflict, errc::invalid_request,
                                   "Conflict: this session already has a GET stream");
  stream_start start;
  start.prime = streams.primes_streams();
  start.kind = detail::stream_kind::get;
  co_return co_await write_event_stream(io, req, streams, standalone, std::move(start));
}

asio::awaitable<bool> http_endpoint::impl::resume_stream(response_channel& io, served_request& req,
                                                       std::shared_ptr<http_session> session,
                                                       std::string_view last_event_id) {
  const auto position = parse_event_id(last_event_id);
  if (!position)
    co_return co_await reply_error(io, req, http::status::bad_request, errc::invalid_request,
                                   "Bad Request: Last-Event-ID " + std::string(last_event_id) +
                                       " is not an event id of this server");
  // The stream goes on live when it still runs here; else only its recorded
  // events are replayed. Attached before the replay is read, so nothing that
  // arrives meanwhile is missed (pump_events skips what the replay covered).
  auto& streams = session->transport();
  const auto reader = co_await asio::this_coro::executor;
  auto live = streams.find_stream(position->stream_id);
  if (live && !streams.attach(*live, reader))
    co_return co_await reply_error(io, req, http::status::conflict, errc::invalid_request,
                                   "Conflict: this stream is already being read");
  stream_start start;
  start.kind = detail::stream_kind::resumed;
  start.last_event_id = last_event_id;
  std::exception_ptr failure;
  if (live || !bus) {
    try {
      start.replay = co_await events->replay(streams.id(), position->stream_id, position->seq);
    } catch (...) {
      failure = std::current_exception();
    }
    if (failure) {
      if (live) streams.detach(*live);
      std::rethrow_exception(failure);
    }
  }
  auto stream = live;
  // In a cluster another server may write the stream (or have died writing it).
  if (!stream && bus) stream = co_await resume_from_cluster(streams, position->stream_id, position->seq, reader, start);
  if (!stream) {
    // Finished, or run by another server: what was recorded is all there is.
    // With nothing left to replay the stream is held open instead of ended,
    // because clients (the TypeScript SDK among them) reconnect to a stream
    // that ends without the result they expect (an error answer, say).
    stream = start.replay.empty() ? streams.open_quiet_stream(position->stream_id, reader)
                                  : streams.open_ended_stream(position->stream_id, reader);
  }
  co_return co_await write_event_stream(io, req, streams, stream, std::move(start));
}

asio::awaitable<bool> http_endpoint::impl::handle_delete(response_channel& io, served_request& req) {
  auto found = co_await find_session(io, req, req[known_header::mcp_session_id]);
  if (!found.session)
    co_return co_await reply_error(io, req, found.status, errc::invalid_request, found.refusal);
  const auto id = found.session->transport().id();
  co_await end_session(found.session, telemetry::event::session_deleted);
  co_await forget_session(id);
  co_return co_await reply_status(io, req, http::status::ok);
}

}  // namespace mcp
