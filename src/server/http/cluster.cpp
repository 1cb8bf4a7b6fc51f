// Serving one set of sessions from many servers (docs/scale-out.md). The
// servers share the session store (any of them serves any session from its
// record), the event store (any of them replays any stream) and a message
// bus, on which the copies of a session tell each other what one produces
// and another must deliver (session_relay.hpp).

#include "endpoint_impl.hpp"
#include "session_relay.hpp"
#include "../../protocol/finite_json.hpp"

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/methods.hpp>

#include <mcp/log.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/detached.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <set>

namespace mcp {

namespace {

// What a client sends that may concern a request served by another copy of
// its session: an answer to a request of the server, or a cancellation or
// progress notification.
bool concerns_other_copies(const json::object& message) {
  const auto* method = message.if_contains("method");
  if (!method) return message.contains("id");  // a response
  const auto* name = method->if_string();
  return name && (*name == methods::notifications_cancelled || *name == methods::notifications_progress);
}

// The node that writes a stream: its id starts with it (`<node>-<random>`).
std::string node_of_stream(std::string_view stream_id) {
  const auto dash = stream_id.find('-');
  return dash == std::string_view::npos ? std::string() : std::string(stream_id.substr(0, dash));
}

// The ids (as JSON text) of the responses among `events`.
std::set<std::string> answered_in(const std::vector<stored_event>& events) {
  std::set<std::string> answered;
  for (const auto& event : events) {
    boost::system::error_code ec;
    const auto message = detail::parse_stored_json(event.data, ec);
    const auto* object = message.if_object();
    if (ec || !object || object->contains("method")) continue;
    if (const auto* id = object->if_contains("id")) answered.insert(json::serialize(*id));
  }
  return answered;
}

asio::awaitable<void> accept_relayed(std::shared_ptr<detail::http_session> session, json::value frame) {
  if (session->engine().ended()) co_return;
  inbound_frame relayed;
  relayed.parsed = std::move(frame);
  co_await session->engine().accept(std::move(relayed));
}

}  // namespace

asio::awaitable<void> http_endpoint::impl::join_cluster(const std::shared_ptr<http_session>& session) {
  auto& streams = session->transport();
  streams.set_relay(std::make_shared<const detail::session_relay>(bus, streams.id(), server_tag), bus->node_id());
  std::weak_ptr<impl> weak_self = weak_from_this();
  std::weak_ptr<http_session> weak_session = session;
  message_bus::handler on_message = [weak_self, weak_session](std::string_view text) {
    if (auto self = weak_self.lock()) self->on_relayed(weak_session, text);
  };
  // Relayed events lost while the bus reconnected: their readers resume
  // from the store, which has them.
  std::function<void()> on_gap = [weak_session] {
    if (auto s = weak_session.lock()) s->transport().release_relayed_streams();
  };
  auto channel = detail::relay_channel(streams.id());
  session->relay_subscription = co_await bus->subscribe(std::move(channel), std::move(on_message), std::move(on_gap));
}

void http_endpoint::impl::on_relayed(const std::weak_ptr<http_session>& weak, std::string_view text) {
  const auto message = detail::parse_relay_message(text);
  if (!message || message->from == server_tag) return;  // (its own come back too)
  const auto session = weak.lock();
  if (!session) return;
  auto& streams = session->transport();
  using kind = detail::relay_message::kind;
  switch (message->what) {
    case kind::event:
      streams.relayed_event(message->stream, message->seq, message->payload);
      break;
    case kind::stream_ended:
      streams.relayed_stream_ended(message->stream);
      break;
    case kind::to_get_stream:
      streams.relayed_to_get_stream(message->payload);
      break;
    case kind::took_get_stream:
      streams.get_stream_taken_elsewhere(message->stream);
      break;
    case kind::deliver: {
      boost::system::error_code ec;
      auto frame = detail::parse_stored_json(message->payload, ec);
      if (!ec) asio::co_spawn(session->executor(), accept_relayed(session, std::move(frame)), asio::detached);
      break;
    }
    case kind::session_ended:
      asio::co_spawn(session->executor(), end_session(session), asio::detached);
      break;
  }
}

void http_endpoint::impl::relay_client_messages(http_session& session, const json::value& body) const {
  const auto* relay = session.transport().relay();
  if (const auto* message = body.if_object()) {
    if (concerns_other_copies(*message)) relay->deliver(json::serialize(body));
    return;
  }
  const auto* batch = body.if_array();
  if (!batch) return;
  json::array relayed;
  for (const auto& item : *batch)
    if (const auto* message = item.if_object(); message && concerns_other_copies(*message)) relayed.push_back(item);
  if (!relayed.empty()) relay->deliver(json::serialize(relayed));
}

asio::awaitable<std::shared_ptr<message_stream>> http_endpoint::impl::resume_from_cluster(
    http_session_transport& streams, const std::string& stream_id, std::uint64_t after_seq,
    asio::any_io_executor reader, stream_start& start) {
  // Listened to before anything is read, so that no event relayed meanwhile
  // is missed: the replay has what came before, and pump_events skips what
  // both carry. (The session's copy here listens to its channel already.)
  auto relayed = streams.open_relayed_stream(stream_id, reader);
  const auto& session_id = streams.id();
  std::optional<stream_record> record;
  bool writer_alive = false;
  std::vector<stored_event> whole;  // every event of a stream whose writer died
  auto writer = node_of_stream(stream_id);
  std::exception_ptr failure;
  try {
    record = co_await events->find_stream(session_id, stream_id);
    start.replay = co_await events->replay(session_id, stream_id, after_seq);
    if (record && !record->ended) writer_alive = co_await bus->node_alive(writer);
    if (record && !record->ended && !writer_alive && !record->owed.empty())
      whole = co_await events->replay(session_id, stream_id, 0);
  } catch (...) {
    failure = std::current_exception();
  }
  if (record && !record->ended && writer_alive && !failure) {
    asio::co_spawn(executor, watch_writer(relayed, std::move(writer)), asio::detached);
    co_return relayed;
  }
  streams.detach(*relayed);
  if (failure) std::rethrow_exception(failure);
  if (!record || record->ended) co_return nullptr;  // what was recorded is all there is

  std::uint64_t last_seq = after_seq;
  for (const auto& event : start.replay) last_seq = std::max(last_seq, event.seq);
  // A GET stream lives on: this server holds it from now on.
  if (record->owed.empty()) co_return streams.take_over_get_stream(stream_id, last_seq, reader);
  // The server running the stream's requests died: each one it left
  // unanswered gets an error, recorded like any event, so that a client
  // resuming the stream again sees the same answer and none runs twice.
  rpc_error stopped;
  stopped.message =
      "The server process running this request stopped before it answered (the request may or may not have "
      "run to its end); send it again if it is safe to repeat";
  const auto answered = answered_in(whole);
  for (const auto& owed : record->owed) {
    if (answered.contains(owed)) continue;
    boost::system::error_code ec;
    const auto id = parse_request_id(detail::parse_stored_json(owed, ec));
    if (ec || !id) continue;
    const auto text = serialize(message{error_response{*id, stopped}});
    events->append(session_id, stream_id, ++last_seq, text);
    start.replay.push_back({last_seq, text});
  }
  events->end_stream(session_id, stream_id);
  co_return streams.open_ended_stream(stream_id, reader);
}

asio::awaitable<void> http_endpoint::impl::watch_writer(std::shared_ptr<message_stream> relayed, std::string writer) {
  asio::steady_timer tick(executor);
  for (;;) {
    tick.expires_after(writer_check_interval);
    co_await tick.async_wait(asio::as_tuple(asio::use_awaitable));
    const auto now = relayed->look();
    if (now.done || !relayed->attached()) co_return;
    bool alive = true;
    try {
      alive = co_await bus->node_alive(writer);
    } catch (const store_unavailable&) {
      // (Unknown for now: asked again next time.)
    }
    if (!alive) {
      // The client comes back with Last-Event-ID and finds the writer dead.
      relayed->request_release();
      co_return;
    }
  }
}

asio::awaitable<void> http_endpoint::impl::join_behaviour_to_cluster() {
  asio::steady_timer retry(executor);
  while (!stopping) {
    std::string failure;
    try {
      co_await behaviour.join_cluster(bus);
      co_return;
    } catch (const store_unavailable& e) {
      failure = e.what();
    } catch (const std::exception& e) {
      // Not the store: the behaviour's own failure, which trying again
      // would not mend. Said once, not lost in a detached coroutine.
      sdk_log(log_category::cluster, log_level::error, "the server's behaviour failed to join its cluster",
              {{"error", e.what()}});
      co_return;
    }
    sdk_log(log_category::cluster, log_level::warn, "the server cannot join its cluster yet; trying again",
            {{"error", failure}});
    retry.expires_after(std::chrono::seconds(1));
    co_await retry.async_wait(asio::as_tuple(asio::use_awaitable));
  }
}

void http_endpoint::impl::announce_session_end(const std::string& id) const {
  if (bus) detail::session_relay(bus, id, server_tag).session_ended();
}

}  // namespace mcp
