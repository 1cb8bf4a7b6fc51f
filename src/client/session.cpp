// The life of a client's connection: the handshake, the state machine that
// calls wait on, a new session when the server forgets the old one, and
// reconnection through the transport factory.

#include "backoff.hpp"
#include "client_impl.hpp"

#include "../protocol/client_session.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <mcp/error.hpp>
#include <mcp/protocol/methods.hpp>

namespace mcp {

using namespace asio::experimental::awaitable_operators;

void client::impl::set_state(connection_state next) {
  if (state == next) return;
  state = next;
  state_changed.cancel();  // wakes the calls waiting in ready_link
  run_callback(on_state_change, "on_state_change", next);
}

asio::awaitable<std::shared_ptr<client_link>> client::impl::ready_link(
    std::chrono::steady_clock::time_point deadline) {
  auto self = shared_from_this();
  while (state != connection_state::ready) {
    if (closing || state == connection_state::disconnected)
      throw mcp::error(asio::error::not_connected, "mcp client");
    if (std::chrono::steady_clock::now() >= deadline)
      throw mcp::error(asio::error::timed_out, "mcp client: still reconnecting");
    asio::steady_timer timeout(executor, deadline);
    co_await (state_changed.async_wait(asio::as_tuple(asio::use_awaitable)) ||
              timeout.async_wait(asio::as_tuple(asio::use_awaitable)));
  }
  co_return link;
}

std::shared_ptr<client_link> client::impl::install(std::unique_ptr<message_transport> transport) {
  auto fresh = std::make_shared<client_link>(std::move(transport), options);
  fresh->peer.start(fresh);
  fresh->reading = true;
  link = fresh;
  asio::co_spawn(executor, [self = shared_from_this(), fresh]() { return self->read_loop(fresh); },
                 asio::detached);
  return fresh;
}

asio::awaitable<void> client::impl::open_session(std::shared_ptr<client_link> on) {
  set_state(connection_state::initializing);
  modern.reset();
  const bool speaks_modern = co_await discover(on);
  if (speaks_modern) {
    sdk_log(log_category::client, log_level::info, "connected (no session)",
            {{"server", server->server_info.name}, {"protocol", to_string(*modern)}});
    restart_listen(on);
    co_return;
  }
  co_await handshake(on);
}

asio::awaitable<void> client::impl::handshake(std::shared_ptr<client_link> on) {
  set_state(connection_state::initializing);
  const auto newest = detail::version_choice(options.versions).newest_legacy();
  if (!newest)
    throw mcp::error(asio::error::no_protocol_option,
                                      "mcp client: the server does not speak 2026-07-28, the only era allowed");
  const initialize_request hello{std::string(to_string(*newest)), declared_capabilities(), options.client_info};
  json::object params = to_json(hello);
  const call_options defaults;
  auto call = settings(defaults);
  const auto result = co_await on->peer.call(methods::initialize, std::move(params), std::move(call));
  server = parse_initialize_result(result, options.versions);
  on->transport->set_protocol_version(to_string(server->version));
  std::string initialized = serialize(notification{methods::notifications_initialized, {}});
  co_await on->peer.send(std::move(initialized));
  ++session_generation;
  sdk_log(log_category::client, log_level::info, "connected",
          {{"server", server->server_info.name}, {"protocol", to_string(server->version)}});
}

asio::awaitable<void> client::impl::restore_session_state(std::shared_ptr<client_link> on) {
  if (modern) co_return;  // no session: the envelope and the listen stream carry it all
  const call_options defaults;
  auto ask = [&](std::string method, json::object params) -> asio::awaitable<void> {
    try {
      auto call = settings(defaults);
      co_await on->peer.call(method, std::move(params), std::move(call));
    } catch (const std::exception& e) {
      sdk_log(log_category::client, log_level::warn, "the new session refused a request",
              {{"method", method}, {"error", e.what()}});
    }
  };
  for (const auto& uri : subscriptions) {
    json::object params{{"uri", uri}};
    co_await ask(methods::resources_subscribe, std::move(params));
  }
  if (log_level) {
    json::object params{{"level", to_string(*log_level)}};
    co_await ask(methods::logging_set_level, std::move(params));
  }
}

asio::awaitable<void> client::impl::renew_session(std::shared_ptr<client_link> on) {
  auto self = shared_from_this();
  bool renewed = false;
  try {
    co_await open_session(on);
    co_await restore_session_state(on);
    renewed = true;
  } catch (const std::exception& e) {
    sdk_log(log_category::client, log_level::warn, "could not start a new session", {{"error", e.what()}});
  }
  if (renewed) {
    set_state(connection_state::ready);
    co_return;
  }
  // The link is of no use: ending it reconnects through the factory, if any.
  set_state(connection_state::connecting);
  co_await close_link(std::move(on));
}

asio::awaitable<void> client::impl::reconnect() {
  auto self = shared_from_this();
  reconnecting = true;
  set_state(connection_state::connecting);
  detail::backoff_delays delays(options.reconnect);
  for (std::size_t attempt = 1; attempt <= options.reconnect.max_attempts && !closing; ++attempt) {
    const auto delay = delays.next();
    backoff.expires_after(delay);
    co_await backoff.async_wait(asio::as_tuple(asio::use_awaitable));
    if (closing) break;
    std::shared_ptr<client_link> fresh;
    std::string failure;
    try {
      auto transport = co_await factory();
      if (closing) {
        co_await transport->close();
        break;
      }
      fresh = install(std::move(transport));
      co_await open_session(fresh);
      co_await restore_session_state(fresh);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    if (failure.empty() && !closing) {
      reconnecting = false;
      detail::report_reconnect(attempt, delay, "connected", {});
      set_state(connection_state::ready);
      co_return;
    }
    sdk_log(log_category::client, log_level::warn, "reconnection attempt failed",
            {{"attempt", attempt}, {"error", failure}});
    detail::report_reconnect(attempt, delay, "failed", failure);
    if (!closing) set_state(connection_state::connecting);
    if (fresh) co_await close_link(std::move(fresh));
  }
  reconnecting = false;
  if (!closing) {
    detail::report_reconnect(options.reconnect.max_attempts, std::chrono::milliseconds(0), "gave_up", {});
    set_state(connection_state::disconnected);
  }
}

}  // namespace mcp
