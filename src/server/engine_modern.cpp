// The 2026-07-28 era in the server engine: no handshake and no session.
// Every request is served from its own envelope (`_meta`, basic/index
// "Per-request protocol fields") in a session made for it alone; results
// carry `resultType`, caching hints and serverInfo; and a handler that
// needs input from the client ends its round with an InputRequiredResult
// whose requestState, signed, carries what the next round needs (MRTR).
// The core (protocol/server_connection) admits a modern request; the era's
// rules around a handler are protocol/modern_era; this file runs them.

#include "engine.hpp"

#include "../protocol/modern_era.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail {

namespace {

// The way out of a listen stream's session: only the notifications its
// filter admits, each tagged with the subscription id, on the stream of
// the listen request.
class subscription_link final : public connection_link {
 public:
  subscription_link(std::shared_ptr<connection_link> connection, const request_id& id, listen_filter filter)
      : connection_(std::move(connection)), id_(to_json(id)), id_text_(to_json_text(id)),
        filter_(std::move(filter)) {}

  asio::awaitable<void> send_notification(notification n, std::string) override {
    if (!filter_.admits(n)) co_return;
    co_await connection_->send_notification(tagged(std::move(n)), id_text_);
  }

  void post_notification(notification n, std::string) override {
    if (filter_.admits(n)) connection_->post_notification(tagged(std::move(n)), id_text_);
  }

  // (The stream of a listen request reaches its client wherever it runs.)
  void post_broadcast(notification n) override { post_notification(std::move(n), {}); }

  asio::awaitable<json::object> send_request(std::string method, json::object, std::chrono::milliseconds,
                                             std::string) override {
    throw capability_error("a subscriptions/listen stream carries notifications only, not " + method);
  }

  void close_stream(const std::string&) override {}

 private:
  notification tagged(notification n) const {
    meta_of(n.params)[meta_key::subscription_id] = id_;
    return n;
  }

  std::shared_ptr<connection_link> connection_;
  json::value id_;
  std::string id_text_;
  listen_filter filter_;
};

}  // namespace

void server_engine::handle_modern_request(server_connection::serve_modern_request& admitted) {
  auto& req = admitted.req;
  const auto id = req.id;  // req is moved from below
  try {
    if (req.method == methods::server_discover) {
      auto result = make_discover_result(behaviour_.supported_versions(), behaviour_.capabilities(),
                                    behaviour_.instructions());
      write(core_.requests().reply(response{req.id, finish_modern_result(req, std::move(result))}, 0));
      return;
    }
    if (req.method == methods::subscriptions_listen) {
      start_listen(std::move(req), admitted.envelope, admitted.version);
      return;
    }
    auto round = rounds_.open(req, client_principal());
    auto s = make_request_session(admitted.envelope, admitted.version);
    serve(std::move(req), 0, std::move(s), std::move(round));
  } catch (const protocol_error& e) {
    // Refused before any handler ran: the listen filter or the requestState.
    write(core_.refuse_modern(id, e.error()));
  }
}

std::shared_ptr<session> server_engine::make_request_session(request_envelope& envelope,
                                                             protocol_version version) {
  auto s = std::make_shared<session>(session_->id() + "/" + std::to_string(++modern_requests_),
                                     transport_.get_executor());
  s->transport_ = session_->transport_;
  s->principal_ = session_->principal_;
  s->version_ = version;
  if (envelope.client_info) s->client_info_ = std::move(*envelope.client_info);
  s->client_capabilities_ = std::move(envelope.client_capabilities);
  s->log_level_ = envelope.log_level;
  s->per_request_ = true;
  s->link_ = session_->link_;
  return s;
}

void server_engine::start_listen(request req, request_envelope& envelope, protocol_version version) {
  auto filter = listen_filter::read(req.params, behaviour_.capabilities(), envelope.client_capabilities);
  auto acknowledgement = listen_acknowledgement(req.id, filter);
  auto s = make_request_session(envelope, version);
  s->resource_subscriptions_ = filter.resource_uris;
  s->task_subscriptions_ = filter.task_ids;
  if (listen_host_) {
    // The host holds the stream from here on; this engine owes it nothing.
    const notification ack{methods::notifications_subscriptions_acknowledged, std::move(acknowledgement)};
    auto to_client = listen_host_->hold_listen(req.id, serialize(ack), s);
    s->link_ = std::make_shared<subscription_link>(std::move(to_client), req.id, std::move(filter));
    behaviour_.init(*s);
    return;
  }
  s->link_ = std::make_shared<subscription_link>(session_->link_, req.id, std::move(filter));
  auto entry = std::make_shared<in_flight>();
  core_.requests().start(req.id, 0, *entry, true);
  asio::co_spawn(transport_.get_executor(),
                 run_listen(std::move(req), std::move(s), std::move(acknowledgement)),
                 asio::bind_cancellation_slot(entry->signal.slot(), [entry](std::exception_ptr) {}));
}

asio::awaitable<void> server_engine::run_listen(request req, std::shared_ptr<session> s,
                                                json::object acknowledgement) {
  const auto id_text = to_json_text(req.id);
  bool registered = false;
  try {
    // First on the stream, before anything the behaviour sends it.
    notification ack{methods::notifications_subscriptions_acknowledged, std::move(acknowledgement)};
    frame_context on_its_stream;  // (named: g++ 12 miscompiles braced temporaries in co_await)
    on_its_stream.related = id_text;
    co_await peer_.send(serialize(ack), std::move(on_its_stream));
    behaviour_.init(*s);
    registered = true;
    // Held open until the client cancels it (or goes), or the server ends it.
    asio::steady_timer held(transport_.get_executor(), asio::steady_timer::time_point::max());
    co_await held.async_wait(asio::as_tuple(asio::use_awaitable));
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "subscription ended",
            {{"session_id", s->id()}, {"error", e.what()}});
  }
  if (registered) behaviour_.terminate(*s);
  const bool closed_by_server = core_.requests().end_listen(req.id);
  in_flight_changed_.notify();
  co_await asio::this_coro::reset_cancellation_state();
  if (!closed_by_server) {
    transport_.abandon(id_text);
    co_return;
  }
  // Graceful closure: the listen request's own result ends the stream.
  try {
    write(core_.requests().reply(response{req.id, listen_closing_result(req.id)}, 0));
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "closing result not sent",
            {{"session_id", s->id()}, {"error", e.what()}});
  }
}

void server_engine::close_listens() {
  // Collected first: emitting may resume a stream, which leaves the table.
  for (auto* runner : core_.requests().close_listens()) runner->cancel();
}

std::string server_engine::client_principal() const {
  // State issued to one principal is refused to another. With OAuth that is
  // its identity (a refreshed token keeps it); otherwise the client's
  // credentials stand for it.
  if (const auto* who = session_->principal()) return who->identity();
  return std::string(session_->transport().headers.find("authorization").value_or(std::string_view{}));
}

json::object server_engine::finish_modern_result(const request& req, json::object result) const {
  return detail::finish_modern_result(req, std::move(result), behaviour_.modern_server_info());
}

message server_engine::input_required_reply(const request& req, const input_required& need,
                                            const input_round& round) const {
  json::object requests;
  for (const auto& [key, input] : need.requests)
    requests[key] = json::object{{"method", input.method}, {"params", input.params}};
  return response{req.id, rounds_.input_required(req, std::move(requests), round, client_principal(),
                                                 behaviour_.modern_server_info())};
}

}  // namespace mcp::detail
