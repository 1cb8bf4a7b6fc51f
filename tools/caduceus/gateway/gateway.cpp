#include "gateway.hpp"

#include "../connection.hpp"
#include "../failure.hpp"
#include "../http_listener.hpp"
#include "../otlp_tracing.hpp"
#include "../sign_in.hpp"
#include "aggregate_server.hpp"
#include "relay_server.hpp"

#include <demo_stores.hpp>
#include <mcp/auth/introspection_verifier.hpp>
#include <mcp/auth/jwt_verifier.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/version.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_future.hpp>

#include <algorithm>
#include <deque>
#include <future>
#include <thread>

namespace caduceus {

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

// How long the upstream has to answer its first handshake before the gateway gives up.
constexpr auto startup_limit = 60s;
// How long the children get to end once the gateway stops serving (each:
// stdin closed, 2 s, SIGTERM, 2 s, SIGKILL).
constexpr auto children_limit = 10s;

// The threads that run the upstream links, apart from the server's: a link
// goes on closing its child after its session has ended.
class upstream_threads {
 public:
  explicit upstream_threads(unsigned count) : work_(asio::make_work_guard(io_)) {
    for (unsigned i = 0; i < std::max(count, 1u); ++i) threads_.emplace_back([this] { io_.run(); });
  }
  ~upstream_threads() { finish(std::chrono::seconds(0)); }

  asio::any_io_executor new_strand() { return asio::make_strand(io_); }

  /// Lets what runs end (children closing) within `limit`, then stops.
  void finish(std::chrono::steady_clock::duration limit) {
    if (threads_.empty()) return;
    work_.reset();
    std::promise<void> done;
    auto ended = done.get_future();
    std::thread watchdog([this, &ended, limit] {
      if (ended.wait_for(limit) != std::future_status::ready) io_.stop();
    });
    for (auto& t : threads_) t.join();
    threads_.clear();
    done.set_value();
    watchdog.join();
  }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
};

gateway::link_settings link_settings_for(const invocation& inv) {
  gateway::link_settings settings;
  settings.versions.assign(mcp::all_versions().begin(), mcp::all_versions().end());
  if (inv.timeout) settings.request_timeout = *inv.timeout;
  return settings;
}

// The shared link speaks for the gateway itself. It relays what the upstream
// asks to the client whose request is in flight (a 2026-07-28 client in its
// next round), so it declares all that a client may be asked; a client that
// lacks what is asked refuses it.
gateway::link_identity shared_identity() {
  json::object capabilities{{"sampling", json::object()},
                            {"elicitation", {{"form", json::object()}, {"url", json::object()}}},
                            {"roots", {{"listChanged", true}}}};
  return {{"caduceus-gateway", mcp::version_string}, std::move(capabilities), {}};
}

// --auth-*: the gateway's endpoint as an OAuth 2.1 resource server; nullopt
// when none is asked for. JWT access tokens checked with the issuer's keys,
// or tokens introspected (RFC 7662).
std::optional<mcp::http_auth_options> auth_options_for(const invocation& inv) {
  const auto& asked = inv.auth;
  if (asked.issuer.empty()) return std::nullopt;
  mcp::http_auth_options auth;
  auth.resource = asked.resource;
  auth.authorization_servers = {asked.issuer};
  auth.required_scopes = asked.scopes;
  // The metadata names every scope a caller may need, the tools' too.
  auth.scopes_supported = asked.scopes;
  for (const auto& [tool, scopes] : asked.tool_scopes)
    for (const auto& scope : scopes)
      if (std::find(auth.scopes_supported.begin(), auth.scopes_supported.end(), scope) == auth.scopes_supported.end())
        auth.scopes_supported.push_back(scope);
  if (asked.introspection.empty()) {
    mcp::auth::jwt_verifier_options jwt;
    jwt.issuer = asked.issuer;
    jwt.audience = asked.resource;
    jwt.jwks_uri = asked.jwks;
    jwt.ca_file = asked.ca_file;
    jwt.allow_private_addresses = asked.private_network;
    // Made on the strand the endpoint verifies tokens on (the server runs on threads of its own).
    auth.make_verifier = [jwt](asio::any_io_executor on) { return mcp::auth::make_jwt_verifier(on, jwt); };
  } else {
    mcp::auth::introspection_verifier_options introspection;
    introspection.endpoint = asked.introspection;
    introspection.issuer = asked.issuer;
    introspection.audience = asked.resource;
    introspection.client_id = asked.client_id;
    introspection.client_secret = asked.client_secret;
    introspection.ca_file = asked.ca_file;
    introspection.allow_private_addresses = asked.private_network;
    auth.make_verifier = [introspection](asio::any_io_executor on) {
      return mcp::auth::make_introspection_verifier(on, introspection);
    };
  }
  return auth;
}

// --redis: the sessions shared with the other replicas, and the bus that
// relays a session's requests to the replica that holds its children.
std::function<mcp::shared_stores(asio::any_io_executor)> replica_stores(
    const invocation& inv, const std::shared_ptr<gateway::replica_relay>& replicas) {
  return [redis = demo::redis_stores(inv.redis_url), replicas](asio::any_io_executor ex) {
    auto stores = redis(ex);
    replicas->attach(stores);
    stores.close = [close = std::move(stores.close), replicas] {
      replicas->detach();
      if (close) close();
    };
    return stores;
  };
}

mcp::http_server_options http_options_for(const invocation& inv,
                                          const std::shared_ptr<gateway::replica_relay>& replicas) {
  mcp::http_server_options http;
  http.host = inv.http_host;
  http.port = *inv.http_port;
  http.threads = inv.threads;
  http.websocket = true;
  if (inv.max_sessions) http.max_sessions = *inv.max_sessions;
  if (inv.session_timeout) {
    http.idle_timeout = std::max(std::chrono::ceil<std::chrono::seconds>(*inv.session_timeout), 1s);
    // A client that vanished while it listened is found by the keep-alive
    // write that fails: soon enough that its session expires in time.
    http.keep_alive_interval = std::clamp(http.idle_timeout / 2, std::chrono::seconds(1), http.keep_alive_interval);
  }
  http.session.request_state_key = mcp::configured_request_state_key(inv.request_state_key_file);
  http.auth = auth_options_for(inv);
  if (replicas) http.make_stores = replica_stores(inv, replicas);
  return http;
}

// How the gateway reaches the upstream that `target` names (its --stdio or
// --url, and their options), with `warm` children started ahead for its
// sessions when it is a program.
gateway::upstream_options upstream_options_for(std::shared_ptr<const invocation> target, upstream_threads& threads,
                                               std::deque<gateway::warm_children>& warm,
                                               std::shared_ptr<gateway::replica_relay> replicas) {
  gateway::upstream_options options;
  options.open = [target](asio::any_io_executor ex) {
    return open_transport(std::move(ex), *target, nullptr);  // the children's stderr is ours
  };
  options.new_strand = [&threads] { return threads.new_strand(); };
  options.settings = link_settings_for(*target);
  options.shared = target->shared_upstream;
  options.shared_identity = shared_identity();
  options.replicas = std::move(replicas);
  if (!target->stdio.empty() && !target->shared_upstream && target->warm_children > 0) {
    auto start = [target](asio::any_io_executor strand) { return start_process(std::move(strand), *target, nullptr); };
    auto& children = warm.emplace_back(start, options.new_strand, target->warm_children);
    options.take_warm = [&children] { return children.take(); };
  }
  return options;
}

gateway::relay_options relay_options_for(const invocation& inv, upstream_threads& threads,
                                         std::deque<gateway::warm_children>& warm,
                                         std::shared_ptr<gateway::replica_relay> replicas) {
  gateway::relay_options options;
  options.upstream = upstream_options_for(std::make_shared<const invocation>(inv), threads, warm, std::move(replicas));
  if (!inv.served_versions.empty()) options.served_versions = inv.served_versions;
  options.tool_scopes = inv.auth.tool_scopes;
  return options;
}

// One of several upstreams as the gateway's own invocation, with the
// upstream's options in place of the gateway's (its --timeout the default).
invocation upstream_invocation(const invocation& inv, const invocation::gateway_upstream& u) {
  auto target = inv;
  target.upstreams.clear();
  target.stdio = u.stdio;
  target.url = u.url;
  target.headers = u.headers;
  if (u.timeout) target.timeout = u.timeout;
  target.token_file = u.token_file;
  target.client_id = u.client_id;
  target.client_secret = u.client_secret;
  return target;
}

gateway::aggregate_options aggregate_options_for(const invocation& inv, upstream_threads& threads,
                                                 std::deque<gateway::warm_children>& warm,
                                                 const std::shared_ptr<gateway::replica_relay>& replicas) {
  gateway::aggregate_options options;
  for (const auto& u : inv.upstreams) {
    auto target = std::make_shared<const invocation>(upstream_invocation(inv, u));
    auto upstream = upstream_options_for(std::move(target), threads, warm, replicas);
    upstream.replace_gone_links = true;  // one upstream's child that died is started again
    options.upstreams.push_back({u.name, std::move(upstream), gateway::tool_filter(u.allow_tools, u.deny_tools)});
  }
  options.separator = inv.name_separator;
  if (!inv.served_versions.empty()) options.served_versions = inv.served_versions;
  options.tool_scopes = inv.auth.tool_scopes;
  options.new_strand = [&threads] { return threads.new_strand(); };
  return options;
}

// A protected --url that the kept token cannot open: the gateway signs in
// before it serves, as `caduceus login` would (the authorization URL on
// stderr and the browser opened; --headless follows it without one), and its
// connections take the token kept, refreshing it. Blocks.
void sign_in_first(const invocation& target) {
  if (!target.url.starts_with("http://") && !target.url.starts_with("https://")) return;
  asio::io_context io;
  auto signing_in = asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        if (!co_await sign_in_needed(target)) co_return;
        co_await sign_in(target);
        mcp::sdk_log(mcp::log_category::client, mcp::log_level::info, "gateway: signed in", {{"url", target.url}});
      },
      asio::use_future);
  io.run();
  signing_in.get();
}

int serve(mcp::server_behaviour& server, const invocation& inv,
          const std::shared_ptr<gateway::replica_relay>& replicas) {
  if (!inv.http_port) return mcp::run_stdio_server(server);
  return serve_http(server, http_options_for(inv, replicas), inv);
}

// The longest a relayed call may wait between two signs of its holder's
// life: the longest upstream deadline, and some.
std::chrono::milliseconds relayed_call_limit(const invocation& inv) {
  auto longest = link_settings_for(inv).request_timeout;
  for (const auto& u : inv.upstreams)
    if (u.timeout) longest = std::max(longest, *u.timeout);
  return longest + std::chrono::milliseconds(30'000);
}

}  // namespace

int run_gateway(const invocation& inv) {
  upstream_threads threads(inv.threads ? inv.threads : std::thread::hardware_concurrency());
  std::deque<gateway::warm_children> warm;
  std::shared_ptr<gateway::replica_relay> replicas;
  if (!inv.redis_url.empty())
    replicas = std::make_shared<gateway::replica_relay>(threads.new_strand(), relayed_call_limit(inv));
  std::optional<otlp_tracing> tracing;  // (made before the server: it sends the spans left at exit)
  std::optional<gateway::relay_server> relay;
  std::optional<gateway::aggregate_server> aggregate;
  auto end_children = [&] {
    for (auto& children : warm) children.clear();
    if (relay) relay->close_shared_link();
    if (aggregate) aggregate->stop();
    if (replicas) replicas->stop();
    threads.finish(children_limit);
  };
  try {
    if (inv.upstreams.empty()) sign_in_first(inv);
    for (const auto& u : inv.upstreams) sign_in_first(upstream_invocation(inv, u));
    // One upstream is served as itself; several, under their names.
    if (inv.upstreams.empty()) {
      relay.emplace(relay_options_for(inv, threads, warm, replicas));
      relay->start(startup_limit);
    } else {
      aggregate.emplace(aggregate_options_for(inv, threads, warm, replicas));
      aggregate->start(startup_limit);
    }
    mcp::server_behaviour& server = relay ? static_cast<mcp::server_behaviour&>(*relay) : *aggregate;
    // A span of every request, whose trace each upstream call continues (its `_meta`).
    if (auto exporting = otlp_tracing_options(inv, "caduceus-gateway")) {
      tracing.emplace(std::move(*exporting));
      server.middleware().use(tracing->server_link());
    }
    const int code = serve(server, inv, replicas);
    end_children();
    return code;
  } catch (...) {
    end_children();
    return report_failure(std::current_exception());
  }
}

}  // namespace caduceus
