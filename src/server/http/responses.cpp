// Writing responses: whole ones (JSON, errors, bare statuses) and SSE
// streams, which run until their stream ends, the client goes, or the
// server lets the connection go while the stream goes on (SSE polling).

#include "endpoint_impl.hpp"
#include "../../transport/http/server/sse.hpp"

#include <mcp/protocol/jsonrpc.hpp>

#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <optional>

namespace mcp {

namespace {

constexpr std::string_view session_id_field = "Mcp-Session-Id";

// What the request's http.request event reports of its response.
void note_response(response_channel& io, http::status status, std::string_view session_header) {
  auto& counted = io.counted();
  counted.status = static_cast<unsigned>(status);
  if (!session_header.empty()) counted.session_id = session_header;
}

}  // namespace

asio::awaitable<bool> http_endpoint::impl::reply(response_channel& io, const http_request& req,
                                               http::status status, std::string body,
                                               std::string_view content_type,
                                               std::string_view session_header,
                                               std::string_view extra_fields) {
  detail::response_head head;
  head.status = status;
  head.version = req.version() == 10 ? 10 : 11;
  head.keep_alive = keep_alive(req);
  if (!body.empty()) head.content_type = content_type;
  head.field = {session_id_field, session_header};
  head.extra_fields = extra_fields;
  head.content_length = body.size();
  note_response(io, status, session_header);
  if (!io.send_head(head, body, true)) co_await io.finish();
  co_return keep_alive(req);
}

asio::awaitable<bool> http_endpoint::impl::reply_error(response_channel& io, const http_request& req,
                                                     http::status status, int code, std::string message) {
  std::string body = serialize(make_error({}, code, std::move(message)));
  co_return co_await reply(io, req, status, std::move(body), "application/json", {});
}

asio::awaitable<bool> http_endpoint::impl::reply_status(response_channel& io, const http_request& req,
                                                      http::status status) {
  co_return co_await reply(io, req, status, {}, {}, {});
}

asio::awaitable<bool> http_endpoint::impl::refuse_too_large_body(response_channel& io, const http_request& req) {
  co_return co_await reply_error(io, req, http::status::payload_too_large, errc::invalid_request,
                                 "Payload Too Large: the body exceeds " + std::to_string(options.max_body_size) +
                                     " bytes");
}

detail::response_head http_endpoint::impl::event_stream_head(const http_request& req,
                                                             std::string_view session_header) const {
  detail::response_head head;
  head.version = req.version() == 10 ? 10 : 11;
  head.keep_alive = keep_alive(req);
  head.content_type = "text/event-stream";
  head.no_cache = true;
  head.field = {session_id_field, session_header};
  return head;
}

asio::awaitable<bool> http_endpoint::impl::write_answer_event(response_channel& io, const http_request& req,
                                                            http_session_transport& session,
                                                            http_session_transport::answered_event event,
                                                            const std::string& session_header) {
  const auto head = event_stream_head(req, session_header);
  note_response(io, http::status::ok, session_header);
  const detail::stream_telemetry telemetry(session.id(), event.stream_id, detail::stream_kind::post, {});
  std::string events;
  events.reserve(event.data.size() + 192);
  if (event.resumable) {
    if (session.primes_streams())
      detail::append_sse_priming_event(events, {event.stream_id, 0}, options.retry_interval);
    detail::append_sse_event(events, detail::sse_event_id{event.stream_id, 1}, event.data);
  } else {
    detail::append_sse_event(events, std::string_view(), event.data);
  }
  if (!io.send_head(head, events, true)) co_await io.finish();
  telemetry.closed(1);
  co_return keep_alive(req);
}

namespace {

// One round of an SSE response: what `stream` has queued, taken with its
// state (so a last message queued meanwhile is never left behind by a `done`
// seen after it), appended to `events` (which holds the opening events, in
// the first round). Events replayed already are skipped.
message_stream::view take_round(message_stream& stream, bool resumable, std::string& events,
                                std::uint64_t& written, std::uint64_t& events_sent) {
  const auto [ready, now] = stream.take();
  for (const auto& event : ready) {
    if (event.seq != 0 && event.seq <= written) continue;  // replayed already
    written = std::max(written, event.seq);
    if (resumable) detail::append_sse_event(events, detail::sse_event_id{stream.id(), event.seq}, event.data);
    else detail::append_sse_event(events, std::string_view(), event.data);
    ++events_sent;
  }
  return now;
}

}  // namespace

// Writes the head and the opening events, then the events of `stream` until
// it is done, the server releases it, or the client goes. What is ready goes
// out in one write (head, priming event, answer and the body's end, for a
// quick answer); one coroutine frame per response. The channel is watched
// only once the stream has to wait: a client that goes away is then noticed
// at once, so its stream is free for the resumption that follows. An ended
// or released stream is detached from `session` before the last bytes go: a
// client that has them may resume it at once. The stream stays attached to
// this response until its last bytes go (or it fails); afterwards what the
// stream gets is kept for a resumption.
asio::awaitable<bool> http_endpoint::impl::write_event_stream(response_channel& io, const http_request& req,
                                                            http_session_transport& session,
                                                            std::shared_ptr<message_stream> stream,
                                                            stream_start start) {
  const auto head = event_stream_head(req, start.session_header);
  note_response(io, http::status::ok, start.session_header);
  const detail::stream_telemetry telemetry(session.id(), stream->id(), start.kind, start.last_event_id);
  std::uint64_t events_sent = 0;

  enum class ending { ended, released, client_gone };
  auto end = ending::client_gone;
  bool client_spoke = false;  // the client sent bytes mid-stream
  bool detached = false;
  std::exception_ptr failure;
  try {
    // The opening events, and room for what is ready: most answers go out
    // in one write with them.
    std::string events = std::move(start.preamble);
    events.reserve(events.size() + 128 + stream->pending_bytes());
    if (start.prime) detail::append_sse_priming_event(events, {stream->id(), 0}, options.retry_interval);
    std::uint64_t written = 0;
    for (const auto& event : start.replay) {
      detail::append_sse_event(events, detail::sse_event_id{stream->id(), event.seq}, event.data);
      written = event.seq;
    }
    bool head_sent = false;
    // Sends `events` (the head first), `last` ending the body; false: finish() the rest.
    const auto send = [&](bool last) {
      const bool all_went = head_sent ? io.send_part(events, last) : io.send_head(head, events, last);
      head_sent = true;
      events.clear();  // (one buffer for every round)
      return all_went;
    };
    std::optional<close_watch> watch;
    const bool resumable = stream->resumable();  // (made so before its response starts)
    for (;;) {
      const auto now = take_round(*stream, resumable, events, written, events_sent);
      if (now.client_gone) break;
      if (now.done) {
        // The watch ends before the last bytes go: a client that has them may
        // send its next request at once, which is for the next read, not the
        // watch.
        watch.reset();
        session.detach(*stream);
        detached = true;
        if (!send(true)) co_await io.finish();
        end = ending::ended;
        break;
      }
      if (now.release_requested) {
        events += detail::sse_retry(options.retry_interval);
        session.detach(*stream);  // the response ends; the stream goes on elsewhere
        detached = true;
        if (!send(true)) co_await io.finish();
        end = ending::released;
        break;
      }
      if (!events.empty() || !head_sent) {
        if (!send(false)) co_await io.finish();
        continue;  // more may have come while writing
      }
      if (!watch)
        watch.emplace(io, [&stream = *stream, &client_spoke](bool spoke) {
          client_spoke = spoke;
          stream.client_went_away();
        });
      if (!co_await stream->wait(message_stream::has_news, options.keep_alive_interval))
        events += detail::sse_keep_alive;  // quiet for a while
    }
  } catch (...) {
    failure = std::current_exception();
  }
  if (!detached) session.detach(*stream);
  telemetry.closed(events_sent + start.replay.size());
  if (failure) std::rethrow_exception(failure);
  // A released stream goes on elsewhere: close this connection, as the spec's
  // polling expects. A client that sent bytes mid-stream broke HTTP framing.
  co_return end == ending::ended && !client_spoke && keep_alive(req);
}

}  // namespace mcp
