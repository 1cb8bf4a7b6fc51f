// The client in the 2026-07-28 era: the `server/discover` probe that picks
// the era of a connection, the envelope every request carries, multi-round
// requests answered through the same handlers that answer a legacy
// server's requests, and the subscriptions/listen stream that brings
// change notifications.

#include "client_impl.hpp"
#include "task_reading.hpp"

#include "../detail/json_members.hpp"
#include "../protocol/client_session.hpp"
#include "../protocol/modern_era.hpp"
#include "../protocol/task_rules.hpp"

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/methods.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

namespace mcp {

namespace {

// A legacy server may ignore the probe altogether (basic/transports/stdio,
// "Backward Compatibility"): it is given this long before the handshake.
constexpr std::chrono::milliseconds probe_timeout{10'000};
// A listen stream is asked again after this long, in case it went quiet.
constexpr std::chrono::hours listen_renewal{24};

// The request declares the tasks extension itself (call_tool_as_task): its
// caller takes a CreateTaskResult as it is.
bool declares_tasks_extension_itself(const json::object& params) {
  const auto* caps = detail::object_at(params, {"_meta", meta_key::client_capabilities});
  return caps && detail::declares_tasks_extension(*caps);
}

}  // namespace

json::object client::impl::envelope(protocol_version version) const {
  auto capabilities = declared_capabilities();
  capabilities.erase("tasks");  // the 2025-11-25 capability: the modern era has the extension instead
  return client_envelope(version, options.client_info, std::move(capabilities), log_level);
}

std::shared_ptr<const std::string> client::impl::envelope_members(protocol_version version) {
  envelope_text wanted{version, log_level, static_cast<bool>(on_sampling), static_cast<bool>(on_elicitation),
                       roots.has_value() || on_roots, nullptr};
  if (envelope_cache && envelope_cache->same_as(wanted)) return envelope_cache->members;
  auto text = json::serialize(envelope(version));
  wanted.members = std::make_shared<const std::string>(text.substr(1, text.size() - 2));  // without its braces
  envelope_cache = std::move(wanted);
  return envelope_cache->members;
}

void client::impl::attach_envelope(const client_link& on, std::string_view method, json::object& params,
                                   detail::call_settings& settings) {
  const auto* fields = detail::object_at(params, {"_meta"});
  const bool sets_its_own = fields && (fields->contains(meta_key::protocol_version) ||
                                       fields->contains(meta_key::client_info) ||
                                       fields->contains(meta_key::client_capabilities) ||
                                       fields->contains(meta_key::log_level));
  if (sets_its_own && settings.pass_input_rounds) {
    settings.meta_members.reset();
    keep_relayed_envelope(params);
  } else if (sets_its_own) {
    settings.meta_members.reset();
    add_envelope(params);
  } else {
    settings.meta_members = envelope_members(*modern);
  }
  describe_request(on, method, params, to_string(*modern), settings);
}

void client::impl::keep_relayed_envelope(json::object& params) const {
  // The relayed client's info, capabilities and log level stand; the
  // protocol version is this connection's, and what the relayed envelope
  // lacks is ours.
  auto& fields = params["_meta"].get_object();
  for (auto& [key, value] : envelope(*modern))
    if (key == meta_key::protocol_version || !fields.contains(key)) fields[key] = std::move(value);
}

void client::impl::add_envelope(json::object& params) const {
  auto& meta = params["_meta"];
  if (!meta.is_object()) meta = json::object{};
  auto& fields = meta.get_object();
  // Capabilities a request declares for itself (an extension for this call
  // only, say) join those of the client.
  json::object own;
  if (auto* given = fields.if_contains(meta_key::client_capabilities); given && given->is_object())
    own = std::move(given->get_object());
  for (auto& [key, value] : envelope(*modern)) fields[key] = std::move(value);
  if (own.empty()) return;
  auto& slot = fields[meta_key::client_capabilities];
  if (!slot.is_object()) slot = json::object{};
  auto& declared = slot.get_object();
  for (auto& [key, value] : own) {
    auto* both = declared.if_contains(key);
    if (both && both->is_object() && value.is_object())
      for (auto& [inner, setting] : value.get_object()) both->get_object()[inner] = std::move(setting);
    else
      declared[key] = std::move(value);
  }
}

asio::awaitable<bool> client::impl::discover(std::shared_ptr<client_link> on) {
  const detail::version_choice versions(options.versions);
  auto version = versions.newest_modern();
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
      version = versions.offered_instead(e.error());
      continue;
    } catch (const boost::system::system_error& e) {
      if (e.code() != asio::error::timed_out) throw;
      co_return false;  // a legacy server that does not answer before initialize
    }
    auto found = versions.read_discover_result(result);
    if (!found) co_return false;
    modern = found->version;
    server = std::move(found);
    co_return true;
  }
  co_return false;
}

asio::awaitable<json::object> client::impl::call_modern(std::shared_ptr<client_link> on, std::string method,
                                                        json::object params, detail::call_settings settings) {
  auto self = shared_from_this();  // the client may be destroyed while we wait
  const bool asks_for_task_itself = declares_tasks_extension_itself(params);
  attach_envelope(*on, method, params, settings);
  detail::request_rounds rounds(method);
  bool version_retried = false;
  for (;;) {
    // Constructed from the reply, not assigned: assigning would copy a tree
    // parsed into its own arena (parse_json) into the default storage.
    std::optional<json::object> answered;
    try {
      answered = co_await on->peer.call(method, params, settings);
    } catch (const protocol_error& e) {
      // The server stopped speaking our version (a new deployment behind the
      // same URL): once, the version it names instead.
      const auto instead = detail::version_choice(options.versions).offered_instead(e.error());
      if (version_retried || !instead || instead == modern) throw;
      version_retried = true;
      modern = instead;
      server->version = *instead;
      attach_envelope(*on, method, params, settings);
      continue;
    }
    auto& result = *answered;
    if (settings.pass_input_rounds && detail::result_type_of(result) == "input_required") co_return std::move(result);
    auto asked = rounds.input_asked(result);
    if (!asked) {
      // A task the caller did not ask to see (the client declared the tasks
      // extension for every request): the call waits for its result.
      if (detail::result_type_of(result) == "task" && !asks_for_task_itself) {
        task_wait_options wait;
        wait.timeout = settings.max_total;
        auto task = detail::read_task(result, true);
        const auto deadline = std::chrono::steady_clock::now() + settings.max_total;
        co_return co_await poll_task(std::move(task), std::move(wait), deadline);
      }
      co_return std::move(result);
    }
    // Answered one after the other, in the order asked, by the handlers that
    // answer a legacy server's requests.
    json::object answers;
    for (auto& input : asked->requests) answers[input.key] = co_await serve_server_request(input.req);
    detail::request_rounds::next_round(params, std::move(answers), std::move(asked->request_state));
  }
}

void client::impl::restart_listen(std::shared_ptr<client_link> on) {
  if (listen_stop) listen_stop->emit(asio::cancellation_type::terminal);
  listen_stop.reset();
  listen_acknowledged = false;
  const auto& caps = server->capabilities;
  subscription_filter wanted;
  const bool wants_lists = on_list_changed || on_notification;
  if (wants_lists && declares_feature(caps, "tools", "listChanged")) wanted.tools_list_changed = true;
  if (wants_lists && declares_feature(caps, "prompts", "listChanged")) wanted.prompts_list_changed = true;
  if (wants_lists && declares_feature(caps, "resources", "listChanged")) wanted.resources_list_changed = true;
  if (!subscriptions.empty() && declares_feature(caps, "resources", "subscribe"))
    wanted.resource_subscriptions.emplace(subscriptions.begin(), subscriptions.end());
  auto filter = to_json_value(std::move(wanted)).as_object();
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
      sdk_log(log_category::client, log_level::debug, "subscriptions/listen ended", {{"error", e.what()}});
      co_return;
    }
  }
}

}  // namespace mcp
