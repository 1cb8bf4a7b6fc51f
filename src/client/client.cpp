#include <mcp/client/client.hpp>
#include <mcp/error.hpp>
#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include "client_impl.hpp"
#include "../protocol/http_client_rules.hpp"
#include "../protocol/wire_readers.hpp"
#include "task_reading.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

namespace mcp {

namespace {

[[noreturn]] void throw_not_connected() {
  throw mcp::error(asio::error::not_connected, "mcp client");
}

// What a server's notification says; nothing when it is malformed, which is
// dropped as if it had not been sent (no request waits on it).
template <class Params>
std::optional<Params> read_notification(const json::object& params) {
  try {
    return detail::read_from_server<Params>(params, "notification");
  } catch (const malformed_result&) {
    return std::nullopt;
  }
}

void report_progress(const std::function<void(const progress_update&)>& report, const json::object& params) {
  auto given = read_notification<progress_notification_params>(params);
  if (!given) return;
  report(progress_update{given->progress, given->total, std::move(given->message).value_or("")});
}

}  // namespace

client_link::client_link(std::unique_ptr<message_transport> t, const client_options& options)
    : transport(std::move(t)),
      peer(*transport, detail::peer_limits{options.max_queued_bytes, options.write_timeout}),
      sessions_can_expire(transport->metadata().kind == "http"),
      reader_done(transport->get_executor()) {
  reader_done.expires_at(std::chrono::steady_clock::time_point::max());
}

client::impl::impl(asio::any_io_executor ex, client_options opts)
    : executor(ex), options(std::move(opts)), listen_changed(ex), state_changed(ex), backoff(ex), hosted(ex) {
  state_changed.expires_at(std::chrono::steady_clock::time_point::max());
  listen_changed.expires_at(std::chrono::steady_clock::time_point::max());
}

detail::call_settings client::impl::settings(const call_options& call) const {
  detail::call_settings s{call.timeout.value_or(options.request_timeout), options.max_request_timeout, {}};
  if (call.on_progress)
    s.on_progress = [cb = call.on_progress](const json::object& params) { report_progress(cb, params); };
  s.trace = call.trace;
  return s;
}

json::object client::impl::declared_capabilities() const {
  json::object capabilities = options.capabilities;
  if (on_sampling && !capabilities.contains("sampling")) capabilities["sampling"] = json::object();
  // Form and URL mode (2025-11-25); older servers read `{}` and ignore the keys.
  if (on_elicitation && !capabilities.contains("elicitation"))
    capabilities["elicitation"] = json::object{{"form", json::object()}, {"url", json::object()}};
  if ((roots || on_roots) && !capabilities.contains("roots")) capabilities["roots"] = json::object{{"listChanged", true}};
  if (options.host_tasks && !capabilities.contains("tasks")) capabilities["tasks"] = detail::hosted_tasks::capability();
  return capabilities;
}

asio::awaitable<void> client::impl::read_loop(std::shared_ptr<client_link> from) {
  try {
    while (auto frame = co_await from->transport->read_frame()) {
      auto cursor = core.receive(std::move(*frame));
      while (auto action = core.next(cursor)) {
        if (auto* answer = std::get_if<detail::outgoing_frame>(&*action))
          co_await from->peer.send(std::move(answer->frame));
        else
          perform(from, std::move(*action));
      }
    }
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "client read ended", {{"error", e.what()}});
  }
  from->peer.shutdown();  // waiting calls fail with connection_aborted
  from->reading = false;
  from->reader_done.cancel();
  if (from != link || reconnecting) co_return;  // an old link, or one that failed its handshake
  if (closing || !factory || options.reconnect.max_attempts == 0) {
    set_state(connection_state::disconnected);
    co_return;
  }
  co_await reconnect();
}

void client::impl::perform(const std::shared_ptr<client_link>& from,
                           detail::client_connection::action&& action) {
  using core_t = detail::client_connection;
  if (auto* progress = std::get_if<core_t::route_progress>(&action)) {
    from->peer.on_progress(progress->params);
  } else if (auto* n = std::get_if<core_t::deliver_notification>(&action)) {
    handle_notification(*n);
  } else if (auto* req = std::get_if<core_t::serve_server_request>(&action)) {
    // Answered on the side: a handler waiting for its user must not stop the reading.
    asio::co_spawn(executor, answer_server_request(from, std::move(req->req)), asio::detached);
  } else if (auto* reply = std::get_if<core_t::deliver_response>(&action)) {
    if (!from->peer.deliver(std::move(reply->reply)))
      sdk_log(log_category::protocol, log_level::debug, "dropping a late or unknown response");
  }
}

void client::impl::handle_notification(const detail::client_connection::deliver_notification& n) {
  using notice = detail::client_connection::notice;
  switch (n.kind) {
    case notice::cancelled:
      if (n.stop) n.stop->cancel();
      break;
    case notice::listen_acknowledged:
      listen_acknowledged = true;
      listen_changed.cancel();
      break;
    case notice::log_message:
      run_callback(on_log, "on_log", detail::read_log_message(n.note.params));
      break;
    case notice::list_changed:
      if (n.subject == "tools") output_schemas.reset();  // listed again when next needed
      run_callback(on_list_changed, "on_list_changed", n.subject);
      break;
    case notice::resource_updated:
      run_callback(on_resource_updated, "on_resource_updated", std::string(n.subject));
      break;
    case notice::other:
      if (n.note.method == methods::notifications_tasks_status && on_task_status)
        if (auto task = read_notification<mcp::task>(n.note.params))
          run_callback(on_task_status, "on_task_status", detail::task_info_of(std::move(*task)));
      break;
  }
  run_callback(on_notification, "on_notification", n.note);
}

asio::awaitable<void> client::impl::shut_down() {
  closing = true;
  if (listen_stop) listen_stop->emit(asio::cancellation_type::terminal);
  backoff.cancel();
  auto current = link;
  if (!current) co_return;
  set_state(connection_state::disconnected);
  co_await close_link(std::move(current));
}

asio::awaitable<void> client::impl::close_link(std::shared_ptr<client_link> ending) {
  ending->peer.shutdown();
  co_await ending->peer.drained();
  co_await ending->transport->close();
  while (ending->reading) co_await ending->reader_done.async_wait(asio::as_tuple(asio::use_awaitable));
}

void client::impl::describe_request(const client_link& on, std::string_view method, const json::object& params,
                                    std::string_view version, detail::call_settings& settings) {
  if (!on.sessions_can_expire) return;  // not HTTP: no transport asks
  sent_request request;
  request.opens_session = method == methods::initialize;
  request.routing_headers = detail::routing_headers(method, params, version);
  settings.request = std::move(request);
}

asio::awaitable<json::object> client::impl::call(std::string method, json::object params,
                                                 detail::call_settings settings) {
  // Without middleware, the send itself: no coroutine of its own in between.
  if (middleware.empty()) {
    continue_trace(params, settings.trace);
    return send_observed(std::move(method), std::move(params), std::move(settings));
  }
  return call_through_middleware(std::move(method), std::move(params), std::move(settings));
}

asio::awaitable<json::object> client::impl::call_through_middleware(std::string method, json::object params,
                                                                    detail::call_settings settings) {
  // Each link may rewrite the request; the last one hands it to the send.
  detail::client_chain chain{middleware.snapshot(), nullptr};
  chain.send = [self = shared_from_this(), &settings](outgoing_request req) {
    continue_trace(req.params, req.trace);
    return self->send_observed(std::move(req.method), std::move(req.params), settings);
  };
  outgoing_request first_request{std::move(method), std::move(params), std::move(settings.trace)};
  const auto first = chain.first();
  co_return co_await first(std::move(first_request));
}

asio::awaitable<json::object> client::impl::send_observed(std::string method, json::object params,
                                                          detail::call_settings settings) {
  // A coroutine of its own only when its events are wanted.
  if (!detail::client_call_report::wanted()) return send(std::move(method), std::move(params), std::move(settings));
  return send_reported(std::move(method), std::move(params), std::move(settings));
}

asio::awaitable<json::object> client::impl::send_reported(std::string method, json::object params,
                                                          detail::call_settings settings) {
  const auto trace = trace_of(params);
  const auto trace_id = trace.empty() ? std::string_view() : std::string_view(trace.traceparent).substr(3, 32);
  const auto transport = link ? link->transport->shared_metadata() : nullptr;
  const detail::client_call_report report(method, server ? server->server_info.name : std::string(),
                                          transport ? transport->kind : std::string(), trace_id);
  std::optional<json::object> result;  // constructed, not assigned: see call_modern
  try {
    result = co_await send(std::move(method), std::move(params), std::move(settings));
  } catch (...) {
    report.failed(std::current_exception());
    throw;
  }
  report.succeeded();
  co_return std::move(*result);
}

asio::awaitable<json::object> client::impl::send(std::string method, json::object params,
                                                 detail::call_settings settings) {
  // Ready in the modern era: the call itself, without a coroutine of its own in between.
  if (modern && state == connection_state::ready && link)
    return call_modern(link, std::move(method), std::move(params), std::move(settings));
  return send_when_ready(std::move(method), std::move(params), std::move(settings));
}

asio::awaitable<json::object> client::impl::send_when_ready(std::string method, json::object params,
                                                            detail::call_settings settings) {
  const auto deadline = std::chrono::steady_clock::now() + settings.timeout;
  auto self = shared_from_this();  // the client may be destroyed while we wait
  std::shared_ptr<client_link> on;
  if (state == connection_state::ready && link)
    on = link;  // without ready_link()'s coroutine (not in a conditional expression: docs/compilers.md)
  else
    on = co_await ready_link(deadline);
  if (modern) co_return co_await call_modern(std::move(on), std::move(method), std::move(params), std::move(settings));
  const auto generation = session_generation;
  describe_request(*on, method, params, {}, settings);
  if (!on->sessions_can_expire)
    co_return co_await on->peer.call(std::move(method), std::move(params), std::move(settings));
  // Kept to send again in a new session (the server never saw this one).
  auto again = std::make_tuple(method, params, settings);
  try {
    co_return co_await on->peer.call(std::move(method), std::move(params), std::move(settings));
  } catch (const protocol_error& e) {
    if (!detail::says_session_expired(e.error()) || closing) throw;
    sdk_log(log_category::client, log_level::info, "session expired", {{"method", std::get<0>(again)}, {"error", e.what()}});
    detail::report_retry(std::get<0>(again), "session_expired");
  }
  // Only the first call to see the expiry renews; the others wait for it.
  // The renewal runs on its own: cancelling this call must not cut it short.
  if (generation == session_generation && state == connection_state::ready && on == link) {
    set_state(connection_state::initializing);
    asio::co_spawn(executor, [self, on]() { return self->renew_session(on); }, asio::detached);
  }
  on = co_await ready_link(deadline);
  auto& [m, p, s] = again;
  co_return co_await on->peer.call(std::move(m), std::move(p), std::move(s));
}

asio::awaitable<void> client::impl::send_notification(std::string frame) {
  if (state != connection_state::ready) throw_not_connected();
  auto current = link;
  co_await current->peer.send(std::move(frame));
}

client::client(asio::any_io_executor ex) : client(ex, client_options{}) {}

client::client(asio::any_io_executor ex, client_options options)
    : impl_(std::make_shared<impl>(ex, std::move(options))) {}

client::~client() {
  if (impl_->link && !impl_->closing) {
    auto self = impl_;
    asio::co_spawn(self->executor, [self]() { return self->shut_down(); }, asio::detached);
  }
}

client::executor_type client::get_executor() const noexcept { return impl_->executor; }

connection_state client::state() const noexcept { return impl_->state; }

void client::on_state_change(std::function<void(connection_state)> handler) {
  impl_->on_state_change = std::move(handler);
}

const initialize_result& client::server() const {
  if (!impl_->server) throw_not_connected();
  return *impl_->server;
}

asio::awaitable<initialize_result> client::connect(std::unique_ptr<message_transport> transport) {
  auto self = impl_;
  auto& d = *self;
  if (d.state != connection_state::disconnected || (d.link && d.link->reading))
    throw mcp::error(asio::error::already_connected, "mcp client");
  d.closing = false;
  d.set_state(connection_state::connecting);
  auto link = d.install(std::move(transport));
  try {
    co_await d.open_session(link);
  } catch (...) {
    // The spec: a client that cannot accept the server's version disconnects.
    d.server.reset();
    d.link.reset();
    d.set_state(connection_state::disconnected);
    asio::co_spawn(d.executor, d.close_link(std::move(link)), asio::detached);
    throw;
  }
  d.set_state(connection_state::ready);
  co_return *d.server;
}

asio::awaitable<initialize_result> client::connect(transport_factory factory) {
  auto self = impl_;
  if (self->state != connection_state::disconnected || (self->link && self->link->reading))
    throw mcp::error(asio::error::already_connected, "mcp client");
  auto transport = co_await factory();
  self->factory = std::move(factory);  // kept for reconnecting
  co_return co_await connect(std::move(transport));
}

asio::awaitable<json::object> client::request(std::string method, json::object params,
                                              call_options options) {
  auto keep = impl_;  // the client may be destroyed while we wait
  auto settings = keep->settings(options);
  co_return co_await keep->call(std::move(method), std::move(params), std::move(settings));
}

asio::awaitable<json::object> client::relay_request(std::string method, json::object params,
                                                    call_options options) {
  auto keep = impl_;
  auto settings = keep->settings(options);
  settings.pass_input_rounds = true;
  co_return co_await keep->call(std::move(method), std::move(params), std::move(settings));
}

asio::awaitable<void> client::notify(std::string method, json::object params) {
  auto keep = impl_;
  std::string frame = serialize(notification{std::move(method), std::move(params)});
  co_await keep->send_notification(std::move(frame));
}

asio::awaitable<json::object> client::request(std::string method, json::object params) {
  // Not a coroutine: the request with default options is the awaitable itself.
  return request(std::move(method), std::move(params), call_options{});
}

asio::awaitable<void> client::ping() {
  call_options defaults;
  co_await ping(std::move(defaults));
}

asio::awaitable<void> client::ping(call_options options) {
  // The modern era has no ping: its probe says as much about the server.
  co_await request(impl_->modern ? methods::server_discover : methods::ping, json::object{}, std::move(options));
}

client_middleware_chain& client::middleware() noexcept { return impl_->middleware; }

void client::use(std::shared_ptr<client_middleware> link) { impl_->middleware.use(std::move(link)); }

bool client::remove_middleware(const std::shared_ptr<client_middleware>& link) {
  return impl_->middleware.remove(link);
}

asio::awaitable<void> client::close() {
  auto keep = impl_;
  co_await keep->shut_down();
}

}  // namespace mcp
