#include "replica_relay.hpp"

#include "own_copy.hpp"

#include <mcp/log.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <deque>

namespace caduceus::gateway {

namespace {

using namespace std::chrono_literals;
using clock = std::chrono::steady_clock;

// Every replica hears the calls: the one that holds the session's link answers.
constexpr std::string_view calls_channel = "caduceus-gateway:calls";
// How long a call waits for a holder to take it, how often a holder's (or a
// caller's) life is checked while its answer is awaited, and how often the
// links of sessions whose copy here ended are looked at.
constexpr auto accept_limit = 3s;
constexpr auto liveness_interval = 2s;
constexpr auto sweep_interval = 5s;

std::string direct_channel(std::string_view node) { return "caduceus-gateway:node:" + std::string(node); }

std::string text_of(const json::object& message, std::string_view key) {
  const auto* value = message.if_contains(key);
  return value && value->is_string() ? std::string(value->get_string()) : std::string();
}

std::uint64_t number_of(const json::object& message, std::string_view key) {
  const auto* value = message.if_contains(key);
  return value && value->is_number() ? value->to_number<std::uint64_t>() : 0;
}

json::object object_of(const json::object& message, std::string_view key) {
  const auto* value = message.if_contains(key);
  return value && value->is_object() ? value->get_object() : json::object();
}

int code_of(const json::object& message) {
  const auto* value = message.if_contains("code");
  return value && value->is_number() ? static_cast<int>(value->to_number<std::int64_t>()) : mcp::errc::internal_error;
}

json::object error_reply(std::uint64_t to, const mcp::rpc_error& error) {
  return {{"kind", "error"}, {"to", to}, {"code", error.code}, {"message", error.message}, {"data", error.data}};
}

// The JSON-RPC error an error_reply carries.
mcp::protocol_error error_in(const json::object& message) {
  const auto* data = message.if_contains("data");
  return {code_of(message), text_of(message, "message"), data ? *data : json::value()};
}

mcp::rpc_error error_of(const std::exception& e) {
  if (const auto* rpc = dynamic_cast<const mcp::protocol_error*>(&e)) return rpc->error();
  return {mcp::errc::internal_error, e.what(), nullptr};
}

mcp::protocol_error holder_gone(std::string_view why) {
  return {mcp::errc::internal_error,
          "the gateway replica that holds this session's connection to the upstream server " + std::string(why) +
              ": start a new session"};
}

}  // namespace

// A wait of this replica for another's messages, on the executor of the
// coroutine that waits.
struct replica_relay::waiter {
  explicit waiter(asio::any_io_executor executor) : wake(std::move(executor), clock::time_point::max()) {}
  asio::steady_timer wake;
  std::deque<json::object> inbox;
};

replica_relay::replica_relay(asio::any_io_executor strand, std::chrono::milliseconds call_timeout)
    : strand_(std::move(strand)), call_timeout_(call_timeout), sweep_pause_(strand_) {}

bool replica_relay::adopted(const mcp::session& s) {
  // The session's first request here named it: `initialize` was served elsewhere.
  return s.transport().headers.contains("mcp-session-id");
}

void replica_relay::attach(const mcp::shared_stores& stores) {
  {
    std::lock_guard lock(stores_mutex_);
    bus_ = stores.bus;
    sessions_ = stores.sessions;
    node_ = bus_->node_id();
  }
  asio::co_spawn(strand_, join(stores.bus), asio::detached);
}

void replica_relay::detach() {
  std::unique_ptr<mcp::message_bus::subscription> calls, direct;
  std::lock_guard lock(stores_mutex_);
  calls = std::move(calls_);
  direct = std::move(direct_);
  bus_.reset();
  sessions_.reset();
}

std::shared_ptr<mcp::message_bus> replica_relay::bus() const {
  std::lock_guard lock(stores_mutex_);
  return bus_;
}

asio::awaitable<void> replica_relay::join(std::shared_ptr<mcp::message_bus> bus) {
  auto self = shared_from_this();
  std::weak_ptr<replica_relay> weak = self;
  auto on = [weak](void (replica_relay::*handle)(json::object)) {
    return [weak, handle](std::string_view text) {
      auto relay = weak.lock();
      if (!relay) return;
      boost::system::error_code ec;
      auto message = json::parse(text, ec);
      if (ec || !message.is_object()) return;
      asio::post(relay->strand_, [relay, handle, m = std::move(message.get_object())]() mutable {
        ((*relay).*handle)(std::move(m));
      });
    };
  };
  try {
    auto calls = co_await bus->subscribe(std::string(calls_channel), on(&replica_relay::on_call), nullptr);
    auto direct = co_await bus->subscribe(direct_channel(node_), on(&replica_relay::on_direct), nullptr);
    std::lock_guard lock(stores_mutex_);
    if (!bus_) co_return;  // detached meanwhile: they end here
    calls_ = std::move(calls);
    direct_ = std::move(direct);
  } catch (const std::exception& e) {
    mcp::sdk_log(mcp::log_category::server, mcp::log_level::error, "gateway: the replicas' bus is unreachable",
                 {{"error", e.what()}});
    co_return;
  }
  bus.reset();
  co_await sweep();
}

void replica_relay::stop() {
  asio::post(strand_, [self = shared_from_this()] {
    self->stopped_ = true;
    self->sweep_pause_.cancel();
    for (auto& [key, held] : self->held_) held.link->close();
    self->held_.clear();
  });
}

void replica_relay::hold(const std::string& session, std::size_t index, std::shared_ptr<upstream_link> link) {
  asio::post(strand_, [self = shared_from_this(), key = std::pair(session, index), link = std::move(link)]() mutable {
    if (self->stopped_) return link->close();
    self->held_[key] = {std::move(link), false};
  });
}

void replica_relay::release(const std::string& session, std::size_t index) {
  asio::post(strand_, [self = shared_from_this(), key = std::pair(session, index)] {
    if (const auto it = self->held_.find(key); it != self->held_.end()) it->second.released = true;
  });
}

asio::awaitable<void> replica_relay::sweep() {
  // The links of sessions that ended everywhere end too.
  while (!stopped_) {
    sweep_pause_.expires_after(sweep_interval);
    co_await sweep_pause_.async_wait(asio::as_tuple(asio::use_awaitable));
    std::vector<std::pair<std::string, std::size_t>> released;
    for (const auto& [key, held] : held_)
      if (held.released || held.link->gone()) released.push_back(key);
    std::shared_ptr<mcp::session_store> store;
    {
      std::lock_guard lock(stores_mutex_);
      store = sessions_;
    }
    for (const auto& key : released) {
      bool alive = store != nullptr;  // (none: the server is closing, and so is this)
      try {
        alive = alive && !held_.at(key).link->gone() && co_await store->alive(key.first);
      } catch (const std::exception&) {  // the store is unreachable: looked at again later
      }
      if (const auto it = held_.find(key); it != held_.end() && !alive) {
        it->second.link->close();
        held_.erase(it);
      }
    }
  }
}

replica_relay::registered_wait::~registered_wait() {
  std::lock_guard lock(relay.waiters_mutex_);
  relay.waiters_.erase(id);
}

replica_relay::registered_wait replica_relay::wait_here(asio::any_io_executor executor) {
  auto w = std::make_shared<waiter>(std::move(executor));
  std::lock_guard lock(waiters_mutex_);
  const auto id = ++next_id_;
  waiters_[id] = w;
  return registered_wait{*this, id, std::move(w)};
}

void replica_relay::publish_to(const std::string& node, json::object message) {
  if (auto bus = this->bus()) bus->publish(direct_channel(node), json::serialize(message));
}

asio::awaitable<json::object> replica_relay::next_message(waiter& w, const std::string& peer,
                                                          std::chrono::milliseconds first) {
  // Each message is a sign of life: the deadline counts from the last one.
  const auto deadline = clock::now() + call_timeout_;
  for (;;) {
    if (!w.inbox.empty()) {
      auto message = std::move(w.inbox.front());
      w.inbox.pop_front();
      co_return message;
    }
    if (clock::now() >= deadline) throw holder_gone("did not answer in time");
    w.wake.expires_after(peer.empty() ? std::chrono::milliseconds(first) : liveness_interval);
    const auto [ec] = co_await w.wake.async_wait(asio::as_tuple(asio::use_awaitable));
    if (!w.inbox.empty()) continue;
    if (ec == asio::error::operation_aborted) throw mcp::error(asio::error::operation_aborted);  // the request was cancelled
    if (peer.empty()) throw holder_gone("is gone (it stopped, or was stopped)");
    auto bus = this->bus();
    if (!bus) throw holder_gone("cannot be reached: this gateway is stopping");
    bool alive = true;
    try {
      alive = co_await bus->node_alive(peer);
    } catch (const std::exception&) {  // the bus is unreachable: its verdict comes later
    }
    if (!alive) throw holder_gone("is gone (it stopped, or was stopped)");
  }
}

asio::awaitable<json::object> replica_relay::call(std::size_t index, const mcp::request& req,
                                                  mcp::request_context& ctx) {
  auto bus = this->bus();
  if (!bus) throw mcp::protocol_error(mcp::errc::internal_error, "the gateway is not joined to its replicas");
  const auto waiting = wait_here(co_await asio::this_coro::executor);
  const auto id = waiting.id;
  auto& w = waiting.wait;
  json::object call{{"kind", "call"}, {"from", node_}, {"id", id}, {"session", ctx.session().id()},
                    {"upstream", index}, {"method", req.method}, {"params", req.params}};
  bus->publish(std::string(calls_channel), json::serialize(call));
  bus.reset();
  std::string holder;
  try {
    for (;;) {
      auto message = co_await next_message(*w, holder, accept_limit);
      const auto kind = text_of(message, "kind");
      if (kind == "accepted") {
        holder = text_of(message, "node");
      } else if (kind == "progress") {
        const auto update = object_of(message, "update");
        std::optional<double> total;
        if (const auto* t = update.if_contains("total"); t && t->is_number()) total = t->to_number<double>();
        const auto* done = update.if_contains("progress");
        co_await ctx.progress(done && done->is_number() ? done->to_number<double>() : 0, total,
                              text_of(update, "message"));
      } else if (kind == "ask") {
        json::object answer{{"kind", "answer"}, {"to", number_of(message, "reply_to")}};
        try {
          answer["value"] = co_await ctx.request(text_of(message, "method"), object_of(message, "params"));
        } catch (const mcp::protocol_error& e) {
          answer = error_reply(number_of(message, "reply_to"), e.error());
        }
        publish_to(holder, std::move(answer));
      } else if (kind == "result") {
        co_return object_of(message, "value");
      } else if (kind == "error") {
        throw error_in(message);
      }
    }
  } catch (const mcp::protocol_error&) {
    throw;
  } catch (const boost::system::system_error& e) {
    // Cancelled: so is the call, where it runs.
    if (e.code() == asio::error::operation_aborted && !holder.empty())
      publish_to(holder, {{"kind", "cancel"}, {"from", node_}, {"id", id}});
    throw;
  }
}

void replica_relay::notify(const std::string& session, std::size_t index, const mcp::notification& n) {
  auto bus = this->bus();
  if (!bus) return;
  json::object message{{"kind", "notify"}, {"session", session}, {"upstream", index}, {"method", n.method},
                       {"params", n.params}};
  bus->publish(std::string(calls_channel), json::serialize(message));
}

void replica_relay::adopt(const std::string& session, std::weak_ptr<mcp::session> s) {
  std::lock_guard lock(adopted_mutex_);
  std::erase_if(adopted_, [](const auto& entry) { return entry.second.expired(); });
  adopted_[session] = std::move(s);
}

void replica_relay::broadcast(const std::string& session, const mcp::notification& n) {
  auto bus = this->bus();
  if (!bus) return;
  json::object message{{"kind", "session-notification"}, {"session", session}, {"method", n.method},
                       {"params", n.params}};
  bus->publish(std::string(calls_channel), json::serialize(message));
}

void replica_relay::on_call(json::object message) {
  if (text_of(message, "kind") == "session-notification") {
    std::shared_ptr<mcp::session> copy;
    {
      std::lock_guard lock(adopted_mutex_);
      if (const auto it = adopted_.find(text_of(message, "session")); it != adopted_.end()) copy = it->second.lock();
    }
    // Each copy offers it; only the one that reaches the client sends it.
    if (copy) copy->post_broadcast(text_of(message, "method"), object_of(message, "params"));
    return;
  }
  const auto key = std::pair(text_of(message, "session"), static_cast<std::size_t>(number_of(message, "upstream")));
  const auto it = held_.find(key);
  if (it == held_.end() || it->second.link->gone()) return;  // another replica's, or none's
  auto link = it->second.link;
  if (text_of(message, "kind") == "notify") {
    link->forward(mcp::notification{text_of(message, "method"), object_of(message, "params")});
    return;
  }
  const auto from = text_of(message, "from");
  const auto id = number_of(message, "id");
  publish_to(from, {{"kind", "accepted"}, {"to", id}, {"node", node_}});
  auto signal = std::make_shared<asio::cancellation_signal>();
  running_[{from, id}] = {signal, link->get_executor()};
  auto done = [self = shared_from_this(), key = std::pair(from, id), signal](std::exception_ptr) {
    asio::post(self->strand_, [self, key] { self->running_.erase(key); });
  };
  asio::co_spawn(link->get_executor(),
                 run_call(link, from, id, text_of(message, "method"), object_of(message, "params")),
                 asio::bind_cancellation_slot(signal->slot(), std::move(done)));
}

void replica_relay::on_direct(json::object message) {
  if (text_of(message, "kind") == "round") return on_round(std::move(message));
  if (text_of(message, "kind") == "cancel") {
    const auto it = running_.find({text_of(message, "from"), number_of(message, "id")});
    if (it != running_.end())
      asio::post(it->second.executor, [signal = it->second.signal] { signal->emit(asio::cancellation_type::terminal); });
    return;
  }
  std::shared_ptr<waiter> w;
  {
    std::lock_guard lock(waiters_mutex_);
    if (const auto it = waiters_.find(number_of(message, "to")); it != waiters_.end()) w = it->second.lock();
  }
  if (!w) return;  // a wait that ended (a late answer)
  asio::post(w->wake.get_executor(), [w, m = std::move(message)]() mutable {
    w->inbox.push_back(std::move(m));
    w->wake.cancel();
  });
}

asio::awaitable<void> replica_relay::run_call(std::shared_ptr<upstream_link> link, std::string from, std::uint64_t id,
                                              std::string method, json::object params) {
  auto self = shared_from_this();
  auto remote = std::make_shared<remote_asker>();
  remote->progress = [self, from, id](const mcp::progress_update& u) {
    json::object update{{"progress", u.progress}, {"message", u.message}};
    if (u.total) update["total"] = *u.total;
    self->publish_to(from, {{"kind", "progress"}, {"to", id}, {"update", std::move(update)}});
  };
  remote->ask = [self, from, id](std::string method, json::object params) -> asio::awaitable<json::object> {
    json::object ask{{"method", std::move(method)}, {"params", std::move(params)}};
    auto answer = co_await self->ask_remote(from, id, std::move(ask));
    if (!answer)  // (a call's ask is answered now, or refused: a later round is a held call's)
      throw mcp::protocol_error(mcp::errc::internal_error, "the client's request gave no answer");
    co_return std::move(*answer);
  };
  json::object reply;
  try {
    auto result = co_await link->serve_remote(std::move(method), std::move(params), std::move(remote));
    reply = {{"kind", "result"}, {"to", id}, {"value", std::move(result)}};
  } catch (const std::exception& e) {
    reply = error_reply(id, error_of(e));
  }
  publish_to(from, std::move(reply));
}

asio::awaitable<std::optional<json::object>> replica_relay::ask_remote(std::string caller, std::uint64_t to,
                                                                      json::object ask) {
  const auto waiting = wait_here(co_await asio::this_coro::executor);
  ask["kind"] = "ask";
  ask["to"] = to;
  ask["reply_to"] = waiting.id;
  publish_to(caller, std::move(ask));
  auto answer = co_await next_message(*waiting.wait, caller, liveness_interval);
  if (text_of(answer, "kind") == "error") throw error_in(answer);
  if (answer.contains("later")) co_return std::nullopt;
  co_return object_of(answer, "value");
}

void replica_relay::find_held_calls(std::size_t index,
                                    std::function<std::shared_ptr<held_call>(const std::string& id)> find) {
  held_calls_[index] = std::move(find);
}

asio::awaitable<json::object> replica_relay::relay_round(const std::string& holder, std::size_t index,
                                                         const std::string& held, mcp::request_context& ctx) {
  const auto waiting = wait_here(co_await asio::this_coro::executor);
  publish_to(holder, {{"kind", "round"}, {"from", node_}, {"id", waiting.id}, {"upstream", index}, {"held", held},
                      {"capabilities", ctx.session().client_capabilities()}});
  for (;;) {
    auto message = co_await next_message(*waiting.wait, holder, accept_limit);
    const auto kind = text_of(message, "kind");
    if (kind == "result") co_return object_of(message, "value");
    if (kind == "error") throw error_in(message);
    if (kind != "ask") continue;
    // Put to the client as the holder would: the answer now, or in its next round.
    const auto key = text_of(message, "key");
    const auto reply_to = number_of(message, "reply_to");
    ctx.carry(json::object{{held_call_key, held}});
    mcp::input_requests asked;
    asked.emplace(key, mcp::input_request{text_of(message, "method"), object_of(message, "params")});
    json::object answer{{"kind", "answer"}, {"to", reply_to}};
    try {
      auto answers = co_await ctx.ask(std::move(asked));
      answer["value"] = own_copy(answers.at(key));
    } catch (const mcp::input_required&) {  // (not a std::exception)
      answer["later"] = true;
      publish_to(holder, std::move(answer));
      throw;
    } catch (const std::exception& e) {
      publish_to(holder, error_reply(reply_to, error_of(e)));
      throw;
    }
    publish_to(holder, std::move(answer));
  }
}

void replica_relay::on_round(json::object message) {
  const auto from = text_of(message, "from");
  const auto id = number_of(message, "id");
  const auto held = text_of(message, "held");
  const auto finder = held_calls_.find(static_cast<std::size_t>(number_of(message, "upstream")));
  auto call = finder == held_calls_.end() ? nullptr : finder->second(held);
  if (!call) {
    publish_to(from, error_reply(id, {mcp::errc::invalid_params,
                                      "the gateway holds no upstream call " + held +
                                          ": it ended, or the client came back too late",
                                      nullptr}));
    return;
  }
  asio::co_spawn(strand_, run_round(std::move(call), from, id, object_of(message, "capabilities")), asio::detached);
}

asio::awaitable<void> replica_relay::run_round(std::shared_ptr<held_call> call, std::string from, std::uint64_t id,
                                               json::object capabilities) {
  auto self = shared_from_this();
  held_call::remote_round round;
  round.client_capabilities = std::move(capabilities);
  round.ask = [self, from, id](std::string key, mcp::input_request ask) {
    json::object put{{"key", std::move(key)}, {"method", std::move(ask.method)}, {"params", std::move(ask.params)}};
    return self->ask_remote(from, id, std::move(put));
  };
  json::object reply;
  try {
    auto result = co_await call->serve_remote_round(std::move(round));
    if (!result) co_return;  // the round ended on an ask: the client answers it in its next
    reply = {{"kind", "result"}, {"to", id}, {"value", std::move(*result)}};
  } catch (const std::exception& e) {
    reply = error_reply(id, error_of(e));
  }
  publish_to(from, std::move(reply));
}


}  // namespace caduceus::gateway
