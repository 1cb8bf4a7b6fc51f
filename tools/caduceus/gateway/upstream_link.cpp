#include "upstream_link.hpp"

#include "own_copy.hpp"
#include "request_relay.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/versions.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

namespace caduceus::gateway {

namespace {

mcp::client_options upstream_client_options(const link_settings& settings, const link_identity& identity) {
  mcp::client_options options;
  options.client_info = identity.client_info;
  // (Tasks the upstream has the client run are the client's: their
  // requests, tasks/* among them, are relayed to it as any other.)
  options.capabilities = identity.capabilities;
  options.versions = settings.versions;
  options.request_timeout = settings.request_timeout;
  options.max_request_timeout = std::max(options.max_request_timeout, settings.request_timeout);
  // One connection of its own: a link that ends is not dialled again.
  options.reconnect.max_attempts = 0;
  return options;
}

// Takes `keys` out of the params' `_meta`, and `_meta` itself once empty;
// whether any of them was there.
bool erase_meta(json::object& params, std::initializer_list<std::string_view> keys) {
  auto* meta = params.if_contains("_meta");
  if (!meta || !meta->is_object()) return false;
  bool erased = false;
  for (const auto key : keys) erased = meta->get_object().erase(key) || erased;
  if (meta->get_object().empty()) params.erase("_meta");
  return erased;
}

// How the upstream call of a request is made: it asks for progress (with a
// token of the client's, in place of the request's) when the request did,
// the updates going to `on_progress`; and it continues the request's trace,
// the span a tracing link made for it when there is one (not the client's,
// which the request's `_meta` carries), so that the upstream's spans are
// its children.
mcp::call_options upstream_call_options(json::object& params, const mcp::request_context& ctx,
                                        std::function<void(const mcp::progress_update&)> on_progress) {
  mcp::call_options options;
  if (erase_meta(params, {"progressToken"})) options.on_progress = std::move(on_progress);
  options.trace = ctx.trace();
  if (!options.trace.empty()) erase_meta(params, {"traceparent", "tracestate", "baggage"});
  return options;
}

// Notifications the link answers itself rather than relays: progress goes
// to the call it belongs to, cancellation to the request it cancels.
bool relayed(std::string_view method) {
  return method != mcp::methods::notifications_progress && method != mcp::methods::notifications_cancelled;
}

}  // namespace

upstream_link::upstream_link(asio::any_io_executor executor, upstream_opener open, link_settings settings,
                             link_identity identity)
    : executor_(std::move(executor)),
      open_(std::move(open)),
      settings_(std::move(settings)),
      identity_(std::move(identity)),
      client_(executor_, upstream_client_options(settings_, identity_)),
      serves_one_session_(identity_.session.lock() != nullptr),
      settled_(executor_, asio::steady_timer::time_point::max()) {}

upstream_link::~upstream_link() = default;

void upstream_link::start(std::unique_ptr<mcp::message_transport> started) {
  std::weak_ptr<upstream_link> weak = weak_from_this();
  client_.on_notification([weak](const mcp::notification& n) {
    if (auto self = weak.lock()) self->relay_notification(n);
  });
  // What the upstream asks is relayed only when the client declared it may
  // be asked: the client's capabilities are the link's.
  auto relay_request = [weak](std::string method) {
    return [weak, method](json::object params) { return relay_ask(weak, method, std::move(params)); };
  };
  const auto& declared = identity_.capabilities;
  if (declared.contains("sampling")) client_.on_sampling(relay_request(std::string(mcp::methods::sampling_create_message)));
  if (declared.contains("elicitation")) client_.on_elicitation(relay_request(std::string(mcp::methods::elicitation_create)));
  if (declared.contains("roots")) client_.on_roots(relay_request(std::string(mcp::methods::roots_list)));
  client_.on_server_request([weak](std::string method, json::object params) {
    return relay_ask(weak, std::move(method), std::move(params));
  });
  // A connection that ended by itself (the child exited) is closed here too,
  // so that the child is reaped now rather than when the session ends.
  client_.on_state_change([weak](mcp::connection_state now) {
    auto self = weak.lock();
    if (!self || now != mcp::connection_state::disconnected || self->state_ != state::ready) return;
    self->failure_ = "the upstream server is gone";
    self->state_ = state::failed;
    self->gone_ = true;
    self->close();
  });
  state_ = state::connecting;
  asio::co_spawn(executor_, connect(std::move(started)), asio::detached);
}

asio::awaitable<void> upstream_link::connect(std::unique_ptr<mcp::message_transport> started) {
  auto self = shared_from_this();
  try {
    bool connected = false;
    if (started) {
      try {
        co_await client_.connect(std::move(started));
        connected = true;
      } catch (const std::exception& e) {  // it ended while it waited: start one now
        mcp::sdk_log(mcp::log_category::client, mcp::log_level::debug, "gateway: a child started ahead failed",
                     {{"error", e.what()}});
      }
    }
    if (!connected && state_ == state::connecting) {
      auto transport = co_await open_(executor_);
      if (state_ == state::connecting) co_await client_.connect(std::move(transport));
    }
    if (state_ == state::connecting) {
      modern_ = mcp::is_modern(client_.server().version);
      state_ = state::ready;
    }
  } catch (const std::exception& e) {
    if (state_ == state::connecting) {
      state_ = state::failed;
      gone_ = true;
      failure_ = std::string("the upstream server is unavailable: ") + e.what();
      mcp::sdk_log(mcp::log_category::client, mcp::log_level::warn, "gateway: upstream not connected",
                   {{"error", e.what()}});
    }
  }
  settled_.cancel();
}

asio::awaitable<void> upstream_link::until_connected() {
  while (state_ == state::connecting) {
    co_await settled_.async_wait(asio::as_tuple(asio::use_awaitable));
    if (state_ == state::connecting) throw mcp::error(asio::error::operation_aborted);  // we were cancelled
  }
  if (state_ == state::failed) throw mcp::protocol_error(mcp::errc::internal_error, failure_);
  if (state_ != state::ready)
    throw mcp::protocol_error(mcp::errc::internal_error, "the gateway's connection to the upstream server has ended");
}

asio::awaitable<mcp::initialize_result> upstream_link::handshake() {
  co_await until_connected();
  co_return client_.server();
}

asio::awaitable<json::object> upstream_link::forward(const mcp::request& req, mcp::request_context& ctx) {
  co_return co_await relay_call(req.method, req.params, ctx, false);
}

asio::awaitable<json::object> upstream_link::forward_round(std::string method, json::object params,
                                                           mcp::request_context& ctx) {
  co_return co_await relay_call(std::move(method), params, ctx, true);
}

asio::awaitable<json::object> upstream_link::relay_call(std::string method, const json::object& downstream,
                                                        mcp::request_context& ctx, bool pass_rounds) {
  auto params = own_copy(downstream);
  auto relay = std::make_shared<request_relay>(ctx);
  auto options = upstream_call_options(params, ctx, [relay](const mcp::progress_update& update) { relay->push(update); });
  // A session's request is asked what the upstream asks meanwhile; a
  // 2026-07-28 round is asked only through its InputRequiredResult.
  asker from{pass_rounds ? nullptr : &ctx, ctx.session().get_executor(), nullptr, relay, nullptr};
  auto call_upstream = call(std::move(method), std::move(params), std::move(options), from, pass_rounds);
  std::exception_ptr failure;
  json::object result;
  try {
    result = co_await asio::co_spawn(executor_, std::move(call_upstream), asio::use_awaitable);
  } catch (...) {
    failure = std::current_exception();
  }
  if (failure) {
    relay->abandon();
    std::rethrow_exception(failure);
  }
  co_await relay->finish();
  co_return result;
}

asio::awaitable<json::object> upstream_link::call(std::string method, json::object params,
                                                  mcp::call_options options, asker from, bool pass_rounds) {
  auto self = shared_from_this();
  co_await until_connected();
  in_flight_.push_back(from);
  struct leave {
    upstream_link& link;
    const asker& from;
    ~leave() {
      std::erase_if(link.in_flight_, [this](const asker& a) {
        return a.ctx == from.ctx && a.held == from.held && a.relay == from.relay && a.remote == from.remote;
      });
    }
  } on_exit{*this, from};
  try {
    if (pass_rounds) co_return co_await client_.relay_request(std::move(method), std::move(params), std::move(options));
    co_return co_await client_.request(std::move(method), std::move(params), std::move(options));
  } catch (const mcp::protocol_error&) {
    throw;  // the upstream's own answer
  } catch (const std::exception& e) {
    fail_call(e);
  }
}

void upstream_link::fail_call(const std::exception& e) const {
  const auto* code = dynamic_cast<const boost::system::system_error*>(&e);
  if (code && code->code() == asio::error::operation_aborted) throw;  // the downstream cancelled it
  if (code && code->code() == asio::error::timed_out)
    throw mcp::protocol_error(mcp::errc::internal_error, "the upstream server did not answer in time");
  if (client_.state() != mcp::connection_state::ready)
    throw mcp::protocol_error(mcp::errc::internal_error, "the upstream server is gone: " + std::string(e.what()));
  throw mcp::protocol_error(mcp::errc::internal_error, "the upstream call failed: " + std::string(e.what()));
}

std::shared_ptr<held_call> upstream_link::hold(const mcp::request& req, mcp::request_context& ctx, std::string id,
                                               std::function<void()> on_end) {
  auto held = std::make_shared<held_call>(std::move(id), executor_, settings_.ask_timeout, std::move(on_end));
  auto params = own_copy(req.params);
  // A 2026-07-28 request's envelope a session-based upstream must not see:
  // the link's own connection says who the client is.
  if (!modern())
    erase_meta(params, {mcp::meta_key::protocol_version, mcp::meta_key::client_info,
                        mcp::meta_key::client_capabilities, mcp::meta_key::log_level});
  auto options = upstream_call_options(params, ctx, [weak = std::weak_ptr(held)](const mcp::progress_update& update) {
    if (auto call = weak.lock()) call->progress(update);
  });
  auto upstream_call = call(req.method, std::move(params), std::move(options), asker{nullptr, {}, held, nullptr, nullptr}, false);
  asio::post(executor_, [held, upstream_call = std::move(upstream_call)]() mutable { held->start(std::move(upstream_call)); });
  return held;
}

asio::awaitable<json::object> upstream_link::serve_remote(std::string method, json::object params,
                                                          std::shared_ptr<remote_asker> remote) {
  mcp::call_options options;
  if (erase_meta(params, {"progressToken"})) options.on_progress = remote->progress;
  asker from{nullptr, {}, nullptr, nullptr, std::move(remote)};
  co_return co_await call(std::move(method), std::move(params), std::move(options), std::move(from), false);
}

void upstream_link::forward(mcp::notification n) {
  asio::post(executor_, [self = shared_from_this(), n = std::move(n)]() mutable {
    if (self->state_ != state::ready) return;
    asio::co_spawn(
        self->executor_,
        [self, n = std::move(n)]() mutable -> asio::awaitable<void> {
          try {
            co_await self->client_.notify(std::move(n.method), std::move(n.params));
          } catch (const std::exception& e) {
            mcp::sdk_log(mcp::log_category::client, mcp::log_level::debug, "gateway: notification not relayed",
                         {{"error", e.what()}});
          }
        },
        asio::detached);
  });
}

void upstream_link::add_listener(const std::shared_ptr<mcp::session>& listener) {
  asio::post(executor_, [self = shared_from_this(), weak = std::weak_ptr<mcp::session>(listener)] {
    std::erase_if(self->listeners_, [](const auto& l) { return l.expired(); });
    self->listeners_.push_back(weak);
  });
}

void upstream_link::relay_notification(const mcp::notification& n) {
  if (!relayed(n.method)) return;
  if (settings_.rename) {
    auto renamed = n;
    settings_.rename(renamed);
    relay_renamed(renamed);
  } else {
    relay_renamed(n);
  }
}

void upstream_link::relay_renamed(const mcp::notification& n) {
  // A log message is taken to belong to the newest call, as an ask is: it
  // goes on that request's stream, before its answer. The rest concern the
  // session.
  if (n.method == mcp::methods::notifications_message && !in_flight_.empty()) {
    if (const auto relay = in_flight_.back().relay_now()) {
      relay->push(n);
      return;
    }
  }
  if (auto session = identity_.session.lock()) session->post_notification(n.method, n.params);
  else if (settings_.orphaned) settings_.orphaned(n);
  std::erase_if(listeners_, [](const auto& l) { return l.expired(); });
  for (const auto& weak : listeners_)
    if (auto listener = weak.lock()) listener->post_notification(n.method, n.params);
}

asio::awaitable<json::object> upstream_link::relay_ask(std::weak_ptr<upstream_link> weak, std::string method,
                                                       json::object params) {
  auto self = weak.lock();
  if (!self) throw mcp::protocol_error(mcp::errc::internal_error, "the gateway's session has ended");
  co_return co_await self->ask_downstream(std::move(method), std::move(params));
}

asio::awaitable<json::object> upstream_link::ask_downstream(std::string method, json::object params) {
  // The newest request in flight is the likeliest to have caused the ask; a
  // link of one session has only that session's requests. A shared link
  // with requests of several clients in flight cannot tell whose question
  // it is: it refuses it rather than ask, and tell, the wrong client.
  if (!serves_one_session_ && clients_in_flight() > 1)
    throw mcp::protocol_error(mcp::errc::method_not_found,
                              "the gateway cannot tell which of the clients sharing its upstream connection " + method +
                                  " is for (the upstream names no request): refused");
  const auto from = in_flight_.empty() ? asker{} : in_flight_.back();
  if (from.held) co_return co_await from.held->ask(std::move(method), std::move(params));
  if (from.remote) co_return co_await from.remote->ask(std::move(method), std::move(params));
  auto session = identity_.session.lock();
  auto ask = [&, timeout = settings_.ask_timeout]() -> asio::awaitable<json::object> {
    if (from.ctx) co_return co_await from.ctx->request(method, params, timeout);
    co_return co_await session->request(method, params, timeout);
  };
  if (!from.ctx && !session)
    throw mcp::protocol_error(mcp::errc::method_not_found,
                              "the gateway has no client request in flight to relay " + method + " to");
  auto where = from.ctx ? from.executor : session->get_executor();
  auto asking = ask();
  try {
    co_return co_await asio::co_spawn(where, std::move(asking), asio::use_awaitable);
  } catch (const mcp::capability_error& e) {
    throw mcp::protocol_error(mcp::errc::method_not_found, e.what());
  } catch (const mcp::input_required&) {  // (not a std::exception)
    throw mcp::protocol_error(mcp::errc::method_not_found, "the client's request cannot be asked " + method);
  }
}

std::size_t upstream_link::clients_in_flight() const {
  std::vector<const void*> clients;
  for (const auto& a : in_flight_) {
    const void* client = a.held ? static_cast<const void*>(a.held.get())
                         : a.remote ? static_cast<const void*>(a.remote.get())
                                    : static_cast<const void*>(a.ctx ? &a.ctx->session() : nullptr);
    if (std::find(clients.begin(), clients.end(), client) == clients.end()) clients.push_back(client);
  }
  return clients.size();
}

void upstream_link::close() {
  asio::post(executor_, [self = shared_from_this()] {
    if (self->closing_) return;
    self->closing_ = true;
    if (self->state_ != state::failed) self->state_ = state::closed;  // (a failure keeps its reason)
    self->gone_ = true;
    self->settled_.cancel();
    asio::co_spawn(
        self->executor_,
        [self]() -> asio::awaitable<void> {
          try {
            co_await self->client_.close();
          } catch (const std::exception&) {
            // already closed
          }
        },
        asio::detached);
  });
}

}  // namespace caduceus::gateway
