#include "relay_server.hpp"

#include "rounds.hpp"

#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/versions.hpp>

#include <random>
#include <sstream>

namespace caduceus::gateway {

namespace {

// A session's own upstream link, when it has one.
struct session_upstream {
  std::shared_ptr<upstream_link> link;
};

std::string process_nonce() {
  std::random_device random;
  std::ostringstream text;
  text << std::hex << random() << random() << '-';
  return text.str();
}

// The id of the held call a 2026-07-28 retry names, or empty.
std::string held_call_of(const mcp::request_context& ctx) {
  const auto* carried = ctx.carried().if_object();
  const auto* id = carried ? carried->if_contains(held_call_key) : nullptr;
  return id && id->is_string() ? std::string(id->get_string()) : std::string();
}

// The scopes --auth-tool-scope asks for a tools/call's tool, when it names some.
std::span<const std::string> tool_scopes_of(const relay_options& options, const mcp::request& req) {
  if (options.tool_scopes.empty() || req.method != mcp::methods::tools_call) return {};
  const auto* name = req.params.if_contains("name");
  if (!name || !name->is_string()) return {};
  const auto scoped = options.tool_scopes.find(name->get_string());
  return scoped == options.tool_scopes.end() ? std::span<const std::string>() : scoped->second;
}

}  // namespace

relay_server::relay_server(mcp::initialize_result upstream, relay_options options,
                           std::shared_ptr<upstream_link> shared)
    : upstream_(std::move(upstream)),
      options_(std::move(options)),
      shared_(std::move(shared)),
      held_prefix_(process_nonce()) {}

void relay_server::init(mcp::session& s) {
  // A 2026-07-28 `subscriptions/listen` stream, or a session of a shared
  // gateway, hears what the shared link hears.
  if (options_.shared || mcp::is_modern(s.version())) {
    shared_link()->add_listener(s.shared_from_this());
    return;
  }
  link_identity identity{s.client_info(), s.client_capabilities(), s.weak_from_this()};
  auto warm = options_.take_warm ? options_.take_warm() : std::nullopt;
  auto strand = warm ? warm->strand : options_.new_strand();
  auto link = std::make_shared<upstream_link>(std::move(strand), options_.open, settings_for(s.version()),
                                              std::move(identity));
  link->start(warm ? std::move(warm->transport) : nullptr);
  s.state<session_upstream>().link = std::move(link);
}

void relay_server::terminate(mcp::session& s) {
  if (auto* own = s.find_state<session_upstream>(); own && own->link) own->link->close();
}

asio::awaitable<json::object> relay_server::handle_request(const mcp::request& req, mcp::request_context& ctx) {
  ctx.require_scopes(tool_scopes_of(options_, req));  // refused as our servers refuse a tool's required_scopes
  if (ctx.session().per_request()) {
    // Both eras stateless: the rounds pass through. Else the call is held.
    if (auto link = shared_link(); link->modern()) co_return co_await serve_rounds(*link, req, ctx);
    co_return co_await serve_held(req, ctx);
  }
  auto link = link_of(ctx.session());
  co_return co_await link->forward(req, ctx);
}

asio::awaitable<void> relay_server::handle_notification(const mcp::notification& n, mcp::session& s) {
  link_of(s)->forward(n);
  co_return;
}

asio::awaitable<json::object> relay_server::serve_held(const mcp::request& req, mcp::request_context& ctx) {
  std::shared_ptr<held_call> call;
  if (const auto id = held_call_of(ctx); !id.empty()) {
    std::lock_guard lock(held_mutex_);
    if (const auto found = held_.find(id); found != held_.end()) call = found->second;
    if (!call)
      throw mcp::protocol_error(mcp::errc::invalid_params,
                                "the gateway holds no upstream call " + id +
                                    ": it ended, the client came back too late, or another gateway holds it");
  } else {
    auto link = shared_link();
    // Entered before the call can end (and take itself out) on the link's thread.
    std::lock_guard lock(held_mutex_);
    auto fresh = held_prefix_ + std::to_string(++held_count_);
    auto forget = [this, fresh] {
      std::lock_guard lock(held_mutex_);
      held_.erase(fresh);
    };
    call = link->hold(req, ctx, fresh, std::move(forget));
    held_.emplace(std::move(fresh), call);
  }
  co_return co_await call->serve_round(ctx);
}

link_settings relay_server::settings_for(mcp::protocol_version downstream) const {
  // The upstream is offered the session's own revision (and accepted an
  // older one), so that what it answers has the shape that revision knows.
  auto settings = options_.settings;
  settings.versions.clear();
  for (const auto v : mcp::legacy_versions())
    if (v <= downstream) settings.versions.push_back(v);
  return settings;
}

std::shared_ptr<upstream_link> relay_server::link_of(mcp::session& s) {
  if (auto* own = s.find_state<session_upstream>(); own && own->link) return own->link;
  return shared_link();
}

void relay_server::close_shared_link() {
  std::lock_guard lock(shared_mutex_);
  shared_->close();
}

std::shared_ptr<upstream_link> relay_server::shared_link() {
  std::lock_guard lock(shared_mutex_);
  if (shared_->gone()) shared_ = options_.make_shared_link();
  return shared_;
}

}  // namespace caduceus::gateway
