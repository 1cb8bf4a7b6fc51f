// The client in the 2026-07-28 era: the `server/discover` probe that picks
// the era of a connection, the envelope every request carries, multi-round
// requests answered through the same handlers that answer a legacy
// server's requests, and the subscriptions/listen stream that brings
// change notifications.

#include "client_impl.hpp"

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/methods.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

namespace mcp {

namespace {

// A server that keeps asking is refused after this many rounds of one request.
constexpr int max_input_rounds = 16;
// A legacy server may ignore the probe altogether (basic/transports/stdio,
// "Backward Compatibility"): it is given this long before the handshake.
constexpr std::chrono::milliseconds probe_timeout{10'000};
// A listen stream is asked again after this long, in case it went quiet.
constexpr std::chrono::hours listen_renewal{24};

bool is_modern(protocol_version v) { return dialect_of(v).era == protocol_era::modern; }

// The newest of `offered` (version names) that we speak too.
std::optional<protocol_version> newest_shared(const json::value* offered,
                                              const std::vector<protocol_version>& ours) {
  std::optional<protocol_version> best;
  if (!offered || !offered->is_array()) return best;
  for (const auto& name : offered->get_array()) {
    const auto v = name.is_string() ? parse_protocol_version(name.get_string()) : std::nullopt;
    if (v && is_modern(*v) && std::ranges::find(ours, *v) != ours.end() && (!best || *v > *best)) best = v;
  }
  return best;
}

}  // namespace

json::object client::impl::envelope(protocol_version version) const {
  json::object meta{{meta_key::protocol_version, to_string(version)},
                    {meta_key::client_info, to_json(options.client_info, dialect_of(version))},
                    {meta_key::client_capabilities, declared_capabilities()}};
  if (log_level) meta[meta_key::log_level] = to_string(*log_level);
  return meta;
}

void client::impl::add_envelope(json::object& params) const {
  auto& meta = params["_meta"];
  if (!meta.is_object()) meta = json::object{};
  for (auto& [key, value] : envelope(*modern)) meta.get_object()[key] = std::move(value);
}

std::optional<protocol_version> client::impl::offered_instead(const protocol_error& e) const {
  if (e.code() != errc::unsupported_protocol_version) return std::nullopt;
  // (Over HTTP the server's data arrives as data.serverData: a 400.)
  const auto* data = e.error().data.if_object();
  const auto* supported = data ? data->if_contains("supported") : nullptr;
  if (const auto* server_data = data ? data->if_contains("serverData") : nullptr; !supported && server_data)
    supported = server_data->is_object() ? server_data->get_object().if_contains("supported") : nullptr;
  return newest_shared(supported, options.versions);
}

asio::awaitable<bool> client::impl::discover(std::shared_ptr<client_link> on) {
  std::optional<protocol_version> version;
  for (const auto v : options.versions)
    if (is_modern(v) && (!version || v > *version)) version = v;
  // A -32022 names what the server speaks: one more try with that.
  for (int attempt = 0; version && attempt < 2; ++attempt) {
    json::object params{{"_meta", envelope(*version)}};
    detail::call_settings probe;
    probe.timeout = std::min(options.request_timeout, probe_timeout);
    json::object result;
    try {
      result = co_await on->peer.call(methods::server_discover, std::move(params), std::move(probe));
    } catch (const protocol_error& e) {
      if (e.code() != errc::unsupported_protocol_version) co_return false;
      version = offered_instead(e);
      continue;
    } catch (const boost::system::system_error& e) {
      if (e.code() != asio::error::timed_out) throw;
      co_return false;  // a legacy server that does not answer before initialize
    }
    const auto chosen = newest_shared(result.if_contains("supportedVersions"), options.versions);
    if (!chosen) co_return false;
    initialize_result found{*chosen, {}, {"unknown", ""}, std::nullopt};
    if (const auto* caps = result.if_contains("capabilities"); caps && caps->is_object())
      found.capabilities = caps->get_object();
    if (const auto* meta = result.if_contains("_meta"); meta && meta->is_object())
      if (const auto* info = meta->get_object().if_contains(meta_key::server_info))
        found.server_info = parse_implementation(*info, "/result/_meta/io.modelcontextprotocol~1serverInfo");
    if (const auto* text = result.if_contains("instructions"); text && text->is_string())
      found.instructions = std::string(text->get_string());
    server = std::move(found);
    modern = chosen;
    co_return true;
  }
  co_return false;
}

asio::awaitable<json::object> client::impl::call_modern(std::shared_ptr<client_link> on, std::string method,
                                                        json::object params, detail::call_settings settings) {
  add_envelope(params);
  bool version_retried = false;
  for (int round = 1;; ++round) {
    json::object result;
    try {
      result = co_await on->peer.call(method, params, settings);
    } catch (const protocol_error& e) {
      // The server stopped speaking our version (a new deployment behind the
      // same URL): once, the version it names instead.
      const auto instead = offered_instead(e);
      if (version_retried || !instead || instead == modern) throw;
      version_retried = true;
      modern = instead;
      server->version = *instead;
      add_envelope(params);
      --round;
      continue;
    }
    // A result without resultType is complete (servers before it existed).
    const auto* type = result.if_contains("resultType");
    if (!type || *type != "input_required") co_return result;
    if (round == max_input_rounds)
      throw protocol_error(errc::internal_error, "the server asked for input " + std::to_string(round) +
                                                     " times for one " + method + "; giving up");
    json::object answers;
    if (const auto* asked = result.if_contains("inputRequests"); asked && asked->is_object()) {
      for (const auto& [key, value] : asked->get_object()) {
        const auto* input = value.if_object();
        const auto* input_method = input ? input->if_contains("method") : nullptr;
        if (!input_method || !input_method->is_string())
          throw protocol_error(errc::invalid_params, "Malformed inputRequests entry " + std::string(key));
        mcp::request req{request_id{std::int64_t{0}}, std::string(input_method->get_string()), {}};
        if (const auto* p = input->if_contains("params"); p && p->is_object()) req.params = p->get_object();
        answers[key] = co_await serve_server_request(req);
      }
    }
    // The retry: the same params with the answers and, byte for byte, the
    // state; nothing of an earlier round stays behind.
    params.erase("inputResponses");
    params.erase("requestState");
    if (!answers.empty()) params["inputResponses"] = std::move(answers);
    if (const auto* state = result.if_contains("requestState")) params["requestState"] = *state;
  }
}

void client::impl::restart_listen(std::shared_ptr<client_link> on) {
  if (listen_stop) listen_stop->emit(asio::cancellation_type::terminal);
  listen_stop.reset();
  listen_acknowledged = false;
  const auto& caps = server->capabilities;
  json::object filter;
  const bool wants_lists = on_list_changed || on_notification;
  if (wants_lists && declares_feature(caps, "tools", "listChanged")) filter["toolsListChanged"] = true;
  if (wants_lists && declares_feature(caps, "prompts", "listChanged")) filter["promptsListChanged"] = true;
  if (wants_lists && declares_feature(caps, "resources", "listChanged")) filter["resourcesListChanged"] = true;
  if (!subscriptions.empty() && declares_feature(caps, "resources", "subscribe")) {
    json::array uris;
    for (const auto& uri : subscriptions) uris.emplace_back(uri);
    filter["resourceSubscriptions"] = std::move(uris);
  }
  if (filter.empty()) return;  // nothing to listen for
  listen_stop = std::make_shared<asio::cancellation_signal>();
  // The signal must outlive the coroutine its slot is bound to: it rides along.
  asio::co_spawn(executor,
                 [self = shared_from_this(), on, filter = std::move(filter), stop = listen_stop]() mutable {
                   return self->listen(std::move(on), std::move(filter));
                 },
                 asio::bind_cancellation_slot(listen_stop->slot(), asio::detached));
}

asio::awaitable<void> client::impl::listen_acknowledgement() {
  auto self = shared_from_this();
  asio::steady_timer deadline(executor, options.request_timeout);
  while (listen_stop && !listen_acknowledged && deadline.expiry() > std::chrono::steady_clock::now()) {
    using namespace asio::experimental::awaitable_operators;
    co_await (listen_changed.async_wait(asio::as_tuple(asio::use_awaitable)) ||
              deadline.async_wait(asio::as_tuple(asio::use_awaitable)));
    listen_changed.expires_at(asio::steady_timer::time_point::max());
  }
}

asio::awaitable<void> client::impl::listen(std::shared_ptr<client_link> on, json::object filter) {
  auto self = shared_from_this();
  // Asked again when the server ends it in order; over when the link ends.
  while (link == on && !closing) {
    json::object params{{"notifications", filter}};
    add_envelope(params);
    detail::call_settings forever;
    forever.timeout = forever.max_total = listen_renewal;
    try {
      co_await on->peer.call(methods::subscriptions_listen, std::move(params), std::move(forever));
    } catch (const std::exception& e) {
      sdk_log(log_level::debug, std::string("subscriptions/listen ended: ") + e.what());
      co_return;
    }
  }
}

}  // namespace mcp
