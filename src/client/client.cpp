#include <mcp/client/client.hpp>
#include <mcp/log.hpp>

#include "client_impl.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

namespace mcp {

namespace {

[[noreturn]] void throw_not_connected() {
  throw boost::system::system_error(asio::error::not_connected, "mcp client");
}

progress_update to_progress(const json::object& params) {
  progress_update update;
  if (const auto* p = params.if_contains("progress"); p && p->is_number())
    update.progress = p->to_number<double>();
  if (const auto* t = params.if_contains("total"); t && t->is_number())
    update.total = t->to_number<double>();
  if (const auto* m = params.if_contains("message"); m && m->is_string())
    update.message = std::string(m->get_string());
  return update;
}

}  // namespace

client::impl::impl(asio::any_io_executor ex, client_options opts)
    : executor(ex), options(std::move(opts)), reader_done(ex) {
  reader_done.expires_at(std::chrono::steady_clock::time_point::max());
}

detail::call_settings client::impl::settings(const call_options& call) const {
  detail::call_settings s{call.timeout.value_or(options.request_timeout), options.max_request_timeout, {}};
  if (call.on_progress)
    s.on_progress = [cb = call.on_progress](const json::object& params) { cb(to_progress(params)); };
  return s;
}

json::object client::impl::declared_capabilities() const {
  json::object capabilities = options.capabilities;
  if (on_sampling && !capabilities.contains("sampling")) capabilities["sampling"] = json::object();
  // Form and URL mode (2025-11-25); older servers read `{}` and ignore the keys.
  if (on_elicitation && !capabilities.contains("elicitation"))
    capabilities["elicitation"] = json::object{{"form", json::object()}, {"url", json::object()}};
  if (roots && !capabilities.contains("roots")) capabilities["roots"] = json::object{{"listChanged", true}};
  return capabilities;
}

asio::awaitable<void> client::impl::read_loop() {
  try {
    while (auto frame = co_await transport->read_frame()) {
      if (frame->oversized) {
        sdk_log(log_level::warn, "server sent a message over the size limit; dropped");
        continue;
      }
      for (auto& item : parse_frame(frame->text).items) co_await handle(std::move(item));
    }
  } catch (const std::exception& e) {
    sdk_log(log_level::debug, std::string("client read ended: ") + e.what());
  }
  state = connection_state::disconnected;
  peer->shutdown();  // waiting calls fail with connection_aborted
  reading = false;
  reader_done.cancel();
}

asio::awaitable<void> client::impl::handle(frame_item item) {
  if (auto* bad = std::get_if<invalid_message>(&item)) {
    sdk_log(log_level::warn, "server sent an invalid message: " + bad->reply.error.message);
    std::string frame = serialize(bad->reply);
    co_await peer->send(std::move(frame));
    co_return;
  }
  auto& msg = std::get<message>(item);
  if (auto* n = std::get_if<notification>(&msg)) {
    handle_notification(*n);
  } else if (auto* req = std::get_if<mcp::request>(&msg)) {
    // Answered on the side: a handler waiting for its user must not stop the reading.
    asio::co_spawn(executor, answer_server_request(std::move(*req)), asio::detached);
  } else if (!peer->deliver(std::move(msg))) {
    sdk_log(log_level::debug, "dropping a late or unknown response");
  }
}

namespace {

template <class Callback, class... Args>
void run_callback(const Callback& callback, std::string_view what, Args&&... args) {
  if (!callback) return;
  try {
    callback(std::forward<Args>(args)...);
  } catch (const std::exception& e) {
    sdk_log(log_level::warn, std::string(what) + " callback threw: " + e.what());
  }
}

}  // namespace

void client::impl::handle_notification(const notification& n) {
  const std::string_view method = n.method;
  if (method == "notifications/progress") {
    peer->on_progress(n.params);
  } else if (method == "notifications/cancelled") {
    cancel_server_request(n.params);
  } else if (method == "notifications/message") {
    log_message message;
    if (const auto* level = n.params.if_contains("level"); level && level->is_string())
      message.level = parse_logging_level(level->get_string()).value_or(logging_level::info);
    if (const auto* logger = n.params.if_contains("logger"); logger && logger->is_string())
      message.logger = std::string(logger->get_string());
    if (const auto* data = n.params.if_contains("data")) message.data = *data;
    run_callback(on_log, "on_log", message);
  } else if (method.starts_with("notifications/") && method.ends_with("/list_changed")) {
    const auto what = method.substr(14, method.size() - 14 - 13);
    if (what == "tools") output_schemas.reset();  // listed again when next needed
    run_callback(on_list_changed, "on_list_changed", what);
  } else if (method == "notifications/resources/updated") {
    if (const auto* uri = n.params.if_contains("uri"); uri && uri->is_string())
      run_callback(on_resource_updated, "on_resource_updated", std::string(uri->get_string()));
  }
  run_callback(on_notification, "on_notification", n);
}

asio::awaitable<void> client::impl::shut_down() {
  if (!transport) co_return;
  state = connection_state::disconnected;
  peer->shutdown();
  co_await peer->drained();
  co_await transport->close();
  while (reading) co_await reader_done.async_wait(asio::as_tuple(asio::use_awaitable));
}

client::client(asio::any_io_executor ex) : client(ex, client_options{}) {}

client::client(asio::any_io_executor ex, client_options options)
    : impl_(std::make_shared<impl>(ex, std::move(options))) {}

client::~client() {
  if (impl_->transport && impl_->state != connection_state::disconnected) {
    auto self = impl_;
    asio::co_spawn(self->executor, [self]() { return self->shut_down(); }, asio::detached);
  }
}

connection_state client::state() const noexcept { return impl_->state; }

const initialize_result& client::server() const {
  if (!impl_->server) throw_not_connected();
  return *impl_->server;
}


asio::awaitable<initialize_result> client::connect(std::unique_ptr<message_transport> transport) {
  auto& d = *impl_;
  if (d.state != connection_state::disconnected || d.reading)
    throw boost::system::system_error(asio::error::already_connected, "mcp client");
  d.state = connection_state::connecting;
  d.transport = std::move(transport);
  d.peer.emplace(*d.transport, detail::peer_limits{d.options.max_queued_bytes, d.options.write_timeout});
  d.peer->start(impl_);
  d.reading = true;
  asio::co_spawn(d.executor, [self = impl_]() { return self->read_loop(); }, asio::detached);

  d.state = connection_state::initializing;
  try {
    const auto newest = *std::ranges::max_element(d.options.versions);
    const initialize_request hello{std::string(to_string(newest)), d.declared_capabilities(),
                                   d.options.client_info};
    json::object params = to_json(hello);
    auto settings = d.settings({});
    const auto result = co_await d.peer->call("initialize", std::move(params), std::move(settings));
    d.server = parse_initialize_result(result, d.options.versions);
    d.transport->set_protocol_version(to_string(d.server->version));
    std::string initialized = serialize(notification{"notifications/initialized", {}});
    co_await d.peer->send(std::move(initialized));
  } catch (...) {
    // The spec: a client that cannot accept the server's version disconnects.
    d.server.reset();
    asio::co_spawn(d.executor, [self = impl_]() { return self->shut_down(); }, asio::detached);
    throw;
  }
  d.state = connection_state::ready;
  sdk_log(log_level::info, "connected to " + d.server->server_info.name + ", protocol " +
                               std::string(to_string(d.server->version)));
  co_return *d.server;
}

asio::awaitable<json::object> client::request(std::string method, json::object params,
                                              call_options options) {
  if (impl_->state != connection_state::ready) throw_not_connected();
  auto keep = impl_;  // the client may be destroyed while we wait
  auto settings = keep->settings(options);
  co_return co_await keep->peer->call(std::move(method), std::move(params), std::move(settings));
}

asio::awaitable<void> client::notify(std::string method, json::object params) {
  if (impl_->state != connection_state::ready) throw_not_connected();
  auto keep = impl_;
  std::string frame = serialize(notification{std::move(method), std::move(params)});
  co_await keep->peer->send(std::move(frame));
}

asio::awaitable<json::object> client::request(std::string method, json::object params) {
  call_options defaults;
  co_return co_await request(std::move(method), std::move(params), std::move(defaults));
}

asio::awaitable<void> client::ping() {
  call_options defaults;
  co_await ping(std::move(defaults));
}

asio::awaitable<void> client::ping(call_options options) {
  co_await request("ping", json::object{}, std::move(options));
}

asio::awaitable<void> client::close() {
  auto keep = impl_;
  co_await keep->shut_down();
}

}  // namespace mcp
