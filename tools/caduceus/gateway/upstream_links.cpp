#include "upstream_links.hpp"

#include "rounds.hpp"

#include <mcp/protocol/versions.hpp>

#include <random>
#include <sstream>

namespace caduceus::gateway {

namespace {

// A session's own links, by the place of their upstream among the gateway's.
struct session_links {
  std::vector<std::shared_ptr<upstream_link>> links;
  bool relayed = false;  // another replica opened it, and holds its links

  std::shared_ptr<upstream_link>& at(std::size_t index) {
    if (links.size() <= index) links.resize(index + 1);
    return links[index];
  }
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

}  // namespace

upstream_links::upstream_links(std::size_t index, upstream_options options)
    : index_(index), options_(std::move(options)), shared_(start_gateway_link(false)), held_prefix_(process_nonce()) {
  // Other replicas that take a retry of a call held here have its rounds served here.
  if (options_.replicas)
    options_.replicas->find_held_calls(index_, [this](const std::string& id) -> std::shared_ptr<held_call> {
      std::lock_guard lock(held_mutex_);
      const auto found = held_.find(id);
      return found == held_.end() ? nullptr : found->second;
    });
}

std::shared_ptr<upstream_link> upstream_links::start_link(link_settings settings, link_identity identity,
                                                          bool warm) const {
  auto started = warm && options_.take_warm ? options_.take_warm() : std::nullopt;
  auto strand = started ? started->strand : options_.new_strand();
  auto link = std::make_shared<upstream_link>(std::move(strand), options_.open, std::move(settings), std::move(identity));
  link->start(started ? std::move(started->transport) : nullptr);
  return link;
}

std::shared_ptr<upstream_link> upstream_links::start_gateway_link(bool warm) const {
  return start_link(options_.settings, options_.shared_identity, warm);
}

void upstream_links::open_session(mcp::session& s, bool start_own_link) {
  if (options_.shared || mcp::is_modern(s.version())) {
    auto listener = s.shared_from_this();
    std::lock_guard lock(shared_mutex_);
    std::erase_if(listeners_, [](const auto& l) { return l.expired(); });
    listeners_.push_back(listener);
    shared_->add_listener(listener);
    return;
  }
  auto& own = s.state<session_links>();
  if (options_.replicas && replica_relay::adopted(s)) {
    own.relayed = true;
    options_.replicas->adopt(s.id(), s.weak_from_this());
    return;
  }
  if (start_own_link) own.at(index_) = open_link(s);
}

std::shared_ptr<upstream_link> upstream_links::open_link(mcp::session& s) {
  link_identity identity{s.client_info(), s.client_capabilities(), s.weak_from_this()};
  auto settings = settings_for(s.version());
  if (options_.replicas)  // the session may live on in other gateways after its copy here ends
    settings.orphaned = [replicas = options_.replicas, id = s.id()](const mcp::notification& n) {
      replicas->broadcast(id, n);
    };
  auto link = start_link(std::move(settings), std::move(identity), true);
  if (options_.replicas) options_.replicas->hold(s.id(), index_, link);
  return link;
}

void upstream_links::close_session(mcp::session& s) {
  auto* own = s.find_state<session_links>();
  if (!own || own->links.size() <= index_ || !own->links[index_]) return;
  // A session of replicas may live on in another: its links end when it does.
  if (options_.replicas) options_.replicas->release(s.id(), index_);
  else own->links[index_]->close();
}

asio::awaitable<json::object> upstream_links::serve(const mcp::request& req, mcp::request_context& ctx) {
  if (ctx.session().per_request()) {
    // Both eras stateless: the rounds pass through. Else the call is held.
    if (auto link = shared_link(); link->modern()) co_return co_await serve_rounds(*link, req, ctx);
    co_return co_await serve_held(req, ctx);
  }
  if (relayed(ctx.session())) co_return co_await options_.replicas->call(index_, req, ctx);
  auto link = link_of(ctx.session());
  co_return co_await link->forward(req, ctx);
}

void upstream_links::forward(const mcp::notification& n, mcp::session& s) {
  if (relayed(s)) return options_.replicas->notify(s.id(), index_, n);
  link_of(s)->forward(n);
}

asio::awaitable<json::object> upstream_links::serve_held(const mcp::request& req, mcp::request_context& ctx) {
  std::shared_ptr<held_call> call;
  if (const auto id = held_call_of(ctx); !id.empty()) {
    // A call another replica holds: its id begins with that replica's name.
    const auto holder = id.substr(0, id.find('/'));
    if (options_.replicas && holder != id && holder != options_.replicas->node())
      co_return co_await options_.replicas->relay_round(holder, index_, id, ctx);
    std::lock_guard lock(held_mutex_);
    if (const auto found = held_.find(id); found != held_.end()) call = found->second;
    if (!call)
      throw mcp::protocol_error(mcp::errc::invalid_params,
                                "the gateway holds no upstream call " + id +
                                    ": it ended, the client came back too late, or another gateway holds it");
  } else {
    // The upstream's asks name no call: a held call takes the shared link
    // only when no other has it, else a link of its own (a child started
    // ahead, when there is one) that ends with it. So no client is asked
    // what another's call asks, nor answers it.
    auto link = shared_link();
    const bool shared = link->try_claim();
    if (!shared) link = start_gateway_link(true);
    // Entered before the call can end (and take itself out) on the link's thread.
    std::lock_guard lock(held_mutex_);
    auto fresh = (options_.replicas ? options_.replicas->node() + "/" : std::string()) + held_prefix_ +
                 std::to_string(++held_count_);
    auto forget = [this, fresh, link, shared] {
      {
        std::lock_guard lock(held_mutex_);
        held_.erase(fresh);
      }
      if (shared) link->release_claim();
      else link->close();
    };
    call = link->hold(req, ctx, fresh, std::move(forget));
    held_.emplace(std::move(fresh), call);
  }
  co_return co_await call->serve_round(ctx);
}

link_settings upstream_links::settings_for(mcp::protocol_version downstream) const {
  // The upstream is offered the session's own revision (and accepted an
  // older one), so that what it answers has the shape that revision knows.
  auto settings = options_.settings;
  settings.versions.clear();
  for (const auto v : mcp::legacy_versions())
    if (v <= downstream) settings.versions.push_back(v);
  return settings;
}

bool upstream_links::relayed(const mcp::session& s) const {
  const auto* own = s.find_state<session_links>();
  return own && own->relayed;
}

std::shared_ptr<upstream_link> upstream_links::link_of(mcp::session& s) {
  if (options_.shared || mcp::is_modern(s.version())) return shared_link();
  auto& own = s.state<session_links>().at(index_);
  if (!own || (options_.replace_gone_links && own->gone())) {
    if (own) own->close();
    own = open_link(s);
  }
  return own;
}

void upstream_links::close_shared_link() {
  std::lock_guard lock(shared_mutex_);
  shared_->close();
}

std::shared_ptr<upstream_link> upstream_links::shared_link() {
  std::lock_guard lock(shared_mutex_);
  if (shared_->gone()) {
    shared_ = start_gateway_link(false);
    std::erase_if(listeners_, [](const auto& l) { return l.expired(); });
    for (const auto& weak : listeners_)
      if (auto listener = weak.lock()) shared_->add_listener(listener);
  }
  return shared_;
}

}  // namespace caduceus::gateway
