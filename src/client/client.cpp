#include <mcp/client/client.hpp>
#include <mcp/log.hpp>

#include "../detail/rpc_peer.hpp"

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

struct client::impl : std::enable_shared_from_this<impl> {
  impl(asio::any_io_executor ex, client_options opts)
      : executor(ex), options(std::move(opts)), reader_done(ex) {
    reader_done.expires_at(std::chrono::steady_clock::time_point::max());
  }

  asio::awaitable<void> read_loop();
  asio::awaitable<void> handle(frame_item item);
  asio::awaitable<void> shut_down();

  detail::call_settings settings(const call_options& call) const {
    detail::call_settings s{call.timeout.value_or(options.request_timeout),
                            options.max_request_timeout, {}};
    if (call.on_progress)
      s.on_progress = [cb = call.on_progress](const json::object& params) { cb(to_progress(params)); };
    return s;
  }

  asio::any_io_executor executor;
  client_options options;
  std::unique_ptr<message_transport> transport;
  std::optional<detail::rpc_peer> peer;
  connection_state state = connection_state::disconnected;
  std::optional<initialize_result> server;
  std::function<void(const notification&)> on_notification;
  bool reading = false;
  asio::steady_timer reader_done;  // an event: cancelled when the reader stops
};

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
    if (n->method == "notifications/progress") peer->on_progress(n->params);
    if (on_notification) {
      try {
        on_notification(*n);
      } catch (const std::exception& e) {
        sdk_log(log_level::warn, std::string("notification callback threw: ") + e.what());
      }
    }
  } else if (auto* req = std::get_if<mcp::request>(&msg)) {
    const message reply = req->method == "ping"
                              ? message{response{req->id, json::object{}}}
                              : message{make_error(req->id, errc::method_not_found,
                                                   "Method not found: " + req->method)};
    std::string frame = serialize(reply);
    co_await peer->send(std::move(frame));
  } else if (!peer->deliver(std::move(msg))) {
    sdk_log(log_level::debug, "dropping a late or unknown response");
  }
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

void client::on_notification(std::function<void(const notification&)> handler) {
  impl_->on_notification = std::move(handler);
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
    const initialize_request hello{std::string(to_string(newest)), d.options.capabilities,
                                   d.options.client_info};
    json::object params = to_json(hello);
    auto settings = d.settings({});
    const auto result = co_await d.peer->call("initialize", std::move(params), std::move(settings));
    d.server = parse_initialize_result(result, d.options.versions);
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

asio::awaitable<json::object> client::list_tools(std::optional<std::string> cursor) {
  call_options defaults;
  co_return co_await list_tools(std::move(cursor), std::move(defaults));
}

asio::awaitable<json::object> client::list_tools(std::optional<std::string> cursor,
                                                 call_options options) {
  json::object params;
  if (cursor) params["cursor"] = *cursor;
  co_return co_await request("tools/list", std::move(params), std::move(options));
}

asio::awaitable<json::object> client::call_tool(std::string name, json::object arguments) {
  call_options defaults;
  co_return co_await call_tool(std::move(name), std::move(arguments), std::move(defaults));
}

asio::awaitable<json::object> client::call_tool(std::string name, json::object arguments,
                                                call_options options) {
  // Built outside the co_await: g++ 12 miscompiles braced JSON initializers there.
  json::object params{{"name", std::move(name)}, {"arguments", std::move(arguments)}};
  co_return co_await request("tools/call", std::move(params), std::move(options));
}

asio::awaitable<void> client::close() {
  auto keep = impl_;
  co_await keep->shut_down();
}

}  // namespace mcp
