#include "aggregate_server.hpp"

#include "own_copy.hpp"
#include "relay_server.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/versions.hpp>
#include <mcp/version.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <future>

namespace caduceus::gateway {

namespace {

using namespace std::chrono_literals;
namespace methods = mcp::methods;

// How often an upstream that is up is looked at, and how a retry of one that
// is down backs off.
constexpr auto look_interval = 1s;
constexpr auto first_retry = 1s;
constexpr auto last_retry = 30s;
// The pages of an upstream's list taken at most (against one that never ends it).
constexpr int max_pages = 100;
// The 2026-07-28 tasks extension, which the aggregate routes as it routes 2025-11-25's tasks.
constexpr std::string_view tasks_extension = "io.modelcontextprotocol/tasks";

// What capabilities say of the tasks extension, when they offer it.
const json::value* tasks_extension_in(const json::object& capabilities) {
  const auto* extensions = capabilities.if_contains("extensions");
  return extensions && extensions->is_object() ? extensions->get_object().if_contains(tasks_extension) : nullptr;
}

// Whether capabilities learnt at 2026-07-28 (or before) offer `capability`:
// tasks are offered by the extension there.
bool offers(const json::object& capabilities, std::string_view capability) {
  return capabilities.contains(capability) || (capability == "tasks" && tasks_extension_in(capabilities));
}

// Adds to `into` what `offered` has that it lacks (one level deep).
void merge_capability(json::value& into, const json::value& offered) {
  if (!into.is_object() || !offered.is_object()) return;
  for (const auto& [key, value] : offered.get_object())
    if (!into.get_object().contains(key)) into.get_object()[key] = value;
}

// The list a list method answers with, and the capability that offers it.
std::pair<std::string_view, std::string_view> list_of_method(std::string_view method) {
  if (method == methods::tools_list) return {"tools", "tools"};
  if (method == methods::prompts_list) return {"prompts", "prompts"};
  if (method == methods::tasks_list) return {"tasks", "tasks"};
  if (method == methods::resources_list) return {"resources", "resources"};
  return {"resourceTemplates", "resources"};
}

// The request for coroutines that may run at once (each copies the params it sends).
mcp::request on_heap(const mcp::request& req) { return mcp::request{req.id, req.method, own_copy(req.params)}; }

std::string_view string_param(const json::object& params, std::string_view key) {
  const auto* value = params.if_contains(key);
  if (!value || !value->is_string())
    throw mcp::protocol_error(mcp::errc::invalid_params, "the request needs a string '" + std::string(key) + "'");
  return value->get_string();
}

}  // namespace

struct aggregate_server::member {
  member(std::size_t index, aggregate_upstream u, const aggregate_names& names, asio::any_io_executor on)
      : index(index),
        name(std::move(u.name)),
        links(index, renaming(index, std::move(u.upstream), names)),
        tools(std::move(u.tools)),
        strand(std::move(on)),
        pause(strand) {}

  // Its resource updates name the URIs as the clients know them.
  static upstream_options renaming(std::size_t index, upstream_options options, const aggregate_names& names) {
    options.settings.rename = [index, &names](mcp::notification& n) { names.rename(index, n.method, n.params); };
    return options;
  }

  json::object capabilities() const {
    std::lock_guard lock(learnt_mutex);
    return learnt.capabilities;
  }

  const std::size_t index;  // among the upstreams
  const std::string name;
  upstream_links links;
  const tool_filter tools;
  asio::any_io_executor strand;  // where it is watched
  asio::steady_timer pause;      // between looks
  bool stopping = false;         // (on the strand)
  std::promise<void> first_look;
  std::atomic<bool> up{false};
  mutable std::mutex learnt_mutex;
  mcp::initialize_result learnt;  // what it said of itself when last up
};

aggregate_server::aggregate_server(aggregate_options options)
    : separator_(options.separator),
      tool_scopes_(std::move(options.tool_scopes)),
      served_versions_(std::move(options.served_versions)),
      names_(
          [&] {
            std::vector<std::string> names;
            for (const auto& u : options.upstreams) names.push_back(u.name);
            return names;
          }(),
          options.separator) {
  for (auto& u : options.upstreams)
    members_.push_back(std::make_unique<member>(members_.size(), std::move(u), names_, options.new_strand()));
}

aggregate_server::~aggregate_server() = default;

void aggregate_server::start(std::chrono::steady_clock::duration limit) {
  std::vector<std::future<void>> looked;
  for (auto& each : members_) {
    auto& m = *each;
    looked.push_back(m.first_look.get_future());
    asio::co_spawn(m.strand, watch(m), asio::detached);
  }
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (auto& f : looked) f.wait_until(deadline);
}

void aggregate_server::stop() {
  for (auto& each : members_) {
    auto& m = *each;
    asio::post(m.strand, [&m] {
      m.stopping = true;
      m.pause.cancel();
    });
    m.links.close_shared_link();
  }
}

asio::awaitable<void> aggregate_server::watch(member& m) {
  auto backoff = first_retry;
  bool first = true;
  while (!m.stopping) {
    auto link = m.links.shared_link();  // made anew when gone: the retry
    std::optional<mcp::initialize_result> learnt;
    std::string why;
    try {
      learnt = co_await asio::co_spawn(link->get_executor(), link->handshake(), asio::use_awaitable);
    } catch (const std::exception& e) {
      why = e.what();
    }
    if (m.stopping) break;
    const bool now_up = learnt.has_value();
    if (now_up != m.up || first) {
      json::object capabilities;
      {
        std::lock_guard lock(m.learnt_mutex);
        if (learnt) m.learnt = std::move(*learnt);
        capabilities = m.learnt.capabilities;
      }
      const bool changed = now_up != m.up;
      m.up = now_up;
      if (now_up)
        mcp::sdk_log(mcp::log_category::server, mcp::log_level::info, "gateway: upstream up", {{"upstream", m.name}});
      else
        mcp::sdk_log(mcp::log_category::server, mcp::log_level::warn, "gateway: upstream unavailable, retrying",
                     {{"upstream", m.name}, {"error", why}});
      if (changed) announce(capabilities);
    }
    if (first) m.first_look.set_value();
    first = false;
    m.pause.expires_after(now_up ? look_interval : backoff);
    backoff = now_up ? first_retry : std::min(backoff * 2, std::chrono::duration_cast<decltype(backoff)>(last_retry));
    co_await m.pause.async_wait(asio::as_tuple(asio::use_awaitable));
  }
  if (first) m.first_look.set_value();
}

void aggregate_server::announce(const json::object& capabilities) {
  // Its tools, prompts and resources came or went: the lists changed.
  std::vector<std::string_view> changed;
  if (capabilities.contains("tools")) changed.push_back(methods::notifications_tools_list_changed);
  if (capabilities.contains("prompts")) changed.push_back(methods::notifications_prompts_list_changed);
  if (capabilities.contains("resources")) changed.push_back(methods::notifications_resources_list_changed);
  std::lock_guard lock(sessions_mutex_);
  std::erase_if(sessions_, [](const auto& s) { return s.expired(); });
  for (const auto& weak : sessions_)
    if (auto session = weak.lock())
      for (const auto method : changed) session->post_notification(std::string(method));
}

mcp::implementation aggregate_server::server_info() const { return {"caduceus-gateway", mcp::version_string}; }

json::object aggregate_server::capabilities() const {
  // Whatever its upstreams offer now or later: an upstream that comes back
  // adds to the lists, and the clients are told so.
  json::object capabilities{{"tools", {{"listChanged", true}}},
                            {"prompts", {{"listChanged", true}}},
                            {"resources", {{"subscribe", true}, {"listChanged", true}}},
                            {"logging", json::object()},
                            {"completions", json::object()}};
  // Tasks, as the upstreams that are up offer them (in either era), together.
  for (const auto& m : members_) {
    if (!m->up) continue;
    const auto offered = m->capabilities();
    if (const auto* tasks = offered.if_contains("tasks"))
      merge_capability(capabilities.emplace("tasks", json::object()).first->value(), *tasks);
    if (const auto* extension = tasks_extension_in(offered)) {
      auto& ours = capabilities.emplace("extensions", json::object()).first->value().get_object();
      merge_capability(ours.emplace(tasks_extension, json::object()).first->value(), *extension);
      // What it said, it said at 2026-07-28 (the watch's handshake): its
      // 2025-11-25 tasks are taken to be there too, as a server of both eras
      // has them. A session's own link asks it anew; a call it does not make a
      // task is answered as it comes.
      merge_capability(capabilities.emplace("tasks", json::object()).first->value(),
                       json::object{{"list", json::object()},
                                    {"cancel", json::object()},
                                    {"requests", {{"tools", {{"call", json::object()}}}}}});
    }
  }
  return capabilities;
}

std::optional<std::string> aggregate_server::instructions() const {
  std::string text;
  for (const auto& each : members_) {
    const auto& m = *each;
    std::lock_guard lock(m.learnt_mutex);
    if (!m.up || !m.learnt.instructions || m.learnt.instructions->empty()) continue;
    if (!text.empty()) text += "\n\n";
    text += m.name + " (its tools and prompts are named " + m.name + separator_ + "...): " + *m.learnt.instructions;
  }
  if (text.empty()) return std::nullopt;
  return text;
}

void aggregate_server::init(mcp::session& s) {
  {
    std::lock_guard lock(sessions_mutex_);
    std::erase_if(sessions_, [](const auto& w) { return w.expired(); });
    sessions_.push_back(s.weak_from_this());
  }
  // An upstream that is down gets its link at the session's first request to it.
  for (auto& m : members_) m->links.open_session(s, m->up);
}

void aggregate_server::terminate(mcp::session& s) {
  for (auto& m : members_) m->links.close_session(s);
}

asio::awaitable<json::object> aggregate_server::handle_request(const mcp::request& req, mcp::request_context& ctx) {
  ctx.require_scopes(tool_scopes_of(tool_scopes_, req));  // refused as our servers refuse a tool's required_scopes
  const auto& method = req.method;
  if (method == methods::tools_list || method == methods::prompts_list || method == methods::resources_list ||
      method == methods::resources_templates_list || method == methods::tasks_list)
    co_return co_await list(req, ctx);
  if (method == methods::tasks_get || method == methods::tasks_result || method == methods::tasks_cancel ||
      method == methods::tasks_update)
    co_return co_await call_task(req, ctx);
  if (method == methods::tools_call || method == methods::prompts_get) co_return co_await call_named(req, ctx);
  if (method == methods::resources_read || method == methods::resources_subscribe || method == methods::resources_unsubscribe)
    co_return co_await call_by_uri(req, ctx);
  if (method == methods::completion_complete) co_return co_await complete(req, ctx);
  if (method == methods::logging_set_level) co_return co_await set_level(req, ctx);
  throw mcp::protocol_error(mcp::errc::method_not_found,
                            "Method not found: the gateway serves no " + method + " for several upstreams");
}

asio::awaitable<void> aggregate_server::handle_notification(const mcp::notification& n, mcp::session& s) {
  for (auto& m : members_)
    if (m->up) m->links.forward(n, s);
  co_return;
}

asio::awaitable<std::vector<json::array>> aggregate_server::each_member(
    std::function<asio::awaitable<json::array>(member&)> per_member) {
  auto ex = co_await asio::this_coro::executor;
  using operation = decltype(asio::co_spawn(ex, per_member(*members_.front()), asio::deferred));
  std::vector<operation> operations;
  for (auto& m : members_) operations.push_back(asio::co_spawn(ex, per_member(*m), asio::deferred));
  auto group = asio::experimental::make_parallel_group(std::move(operations));
  auto [order, failures, results] =
      co_await group.async_wait(asio::experimental::wait_for_all(), asio::use_awaitable);
  co_return std::move(results);
}

asio::awaitable<json::object> aggregate_server::list(const mcp::request& req, mcp::request_context& ctx) {
  if (req.params.contains("cursor"))
    throw mcp::protocol_error(mcp::errc::invalid_params,
                              "the gateway lists everything in one page: it gave no cursor to continue from");
  const auto key = list_of_method(req.method).first;
  const auto request = on_heap(req);
  std::function<asio::awaitable<json::array>(member&)> list_one = [&](member& m) { return list_of(m, request, ctx); };
  auto lists = co_await each_member(std::move(list_one));
  json::array all;
  for (auto& list : lists)
    for (auto& item : list) all.push_back(std::move(item));
  co_return json::object{{key, std::move(all)}};
}

asio::awaitable<json::array> aggregate_server::list_of(member& m, const mcp::request& req, mcp::request_context& ctx) {
  const auto [key, capability] = list_of_method(req.method);
  json::array items;
  if (!m.up || !offers(m.capabilities(), capability)) co_return items;
  const auto index = m.index;
  auto page = req;
  try {
    for (int taken = 0; taken < max_pages; ++taken) {
      auto result = co_await m.links.serve(page, ctx);
      names_.rename(index, req.method, result);
      if (auto* listed = result.if_contains(key); listed && listed->is_array()) {
        for (auto& item : listed->get_array()) {
          if (req.method == methods::tools_list || req.method == methods::prompts_list) {
            auto* entry = item.if_object();
            auto* name = entry ? entry->if_contains("name") : nullptr;
            if (!name || !name->is_string()) continue;
            if (req.method == methods::tools_list && !m.tools.allows(name->get_string())) continue;
            *name = names_.name(index, name->get_string());
          }
          items.push_back(std::move(item));
        }
      }
      const auto* next = result.if_contains("nextCursor");
      if (!next || !next->is_string()) break;
      page.params["cursor"] = *next;
    }
  } catch (const std::exception& e) {
    // The others' are listed still: an upstream that fails is left out.
    mcp::sdk_log(mcp::log_category::server, mcp::log_level::warn, "gateway: an upstream's list left out",
                 {{"upstream", m.name}, {"method", req.method}, {"error", e.what()}});
  }
  co_return items;
}

aggregate_server::member& aggregate_server::available(std::size_t index) {
  auto& m = *members_[index];
  if (!m.up)
    throw mcp::protocol_error(mcp::errc::internal_error,
                              "the upstream server " + m.name + " is unavailable (the gateway is retrying it)");
  return m;
}

asio::awaitable<json::object> aggregate_server::call_named(const mcp::request& req, mcp::request_context& ctx) {
  const auto name = string_param(req.params, "name");
  const bool tool = req.method == methods::tools_call;
  const auto routed = names_.route_name(name);
  if (!routed || (tool && !members_[routed->upstream]->tools.allows(routed->own)))
    throw mcp::protocol_error(mcp::errc::invalid_params, (tool ? "Unknown tool: " : "Unknown prompt: ") + std::string(name));
  co_return co_await serve_routed(*routed, "name", req, ctx);
}

asio::awaitable<json::object> aggregate_server::serve_routed(const aggregate_names::routed& routed,
                                                             std::string_view key, const mcp::request& req,
                                                             mcp::request_context& ctx) {
  auto& m = available(routed.upstream);
  auto sub = req;
  sub.params[key] = routed.own;
  auto result = co_await m.links.serve(sub, ctx);
  names_.rename(routed.upstream, req.method, result);
  co_return result;
}

asio::awaitable<json::object> aggregate_server::call_by_uri(const mcp::request& req, mcp::request_context& ctx) {
  const auto uri = string_param(req.params, "uri");
  const auto routed = names_.route_uri(uri);
  if (!routed) {
    // As a server says of a resource it does not have, in the session's revision.
    const auto code = mcp::is_modern(ctx.session().version()) ? mcp::errc::invalid_params : mcp::errc::resource_not_found;
    throw mcp::protocol_error(code, "Resource not found: " + std::string(uri));
  }
  co_return co_await serve_routed(*routed, "uri", req, ctx);
}

asio::awaitable<json::object> aggregate_server::call_task(const mcp::request& req, mcp::request_context& ctx) {
  const auto id = string_param(req.params, "taskId");
  const auto routed = names_.route_name(id);
  if (!routed) throw mcp::protocol_error(mcp::errc::invalid_params, "Unknown task: " + std::string(id));
  co_return co_await serve_routed(*routed, "taskId", req, ctx);
}

asio::awaitable<json::object> aggregate_server::complete(const mcp::request& req, mcp::request_context& ctx) {
  const auto* ref = req.params.if_contains("ref");
  if (!ref || !ref->is_object()) throw mcp::protocol_error(mcp::errc::invalid_params, "completion/complete needs a ref");
  const bool prompt = ref->get_object().contains("name");
  const auto named = string_param(ref->get_object(), prompt ? "name" : "uri");
  const auto routed = prompt ? names_.route_name(named) : names_.route_uri(named);
  if (!routed) throw mcp::protocol_error(mcp::errc::invalid_params, "the gateway serves no " + std::string(named));
  auto& m = available(routed->upstream);
  if (!m.capabilities().contains("completions"))  // it offers none: there are none
    co_return json::object{{"completion", {{"values", json::array()}, {"hasMore", false}}}};
  auto sub = req;
  sub.params["ref"].get_object()[prompt ? "name" : "uri"] = routed->own;
  co_return co_await m.links.serve(sub, ctx);
}

asio::awaitable<json::object> aggregate_server::set_level(const mcp::request& req, mcp::request_context& ctx) {
  const auto request = on_heap(req);
  std::function<asio::awaitable<json::array>(member&)> set_one = [&](member& m) -> asio::awaitable<json::array> {
    if (!m.up || !m.capabilities().contains("logging")) co_return json::array();
    try {
      co_await m.links.serve(request, ctx);
    } catch (const std::exception& e) {
      mcp::sdk_log(mcp::log_category::server, mcp::log_level::debug, "gateway: an upstream's log level not set",
                   {{"upstream", m.name}, {"error", e.what()}});
    }
    co_return json::array();
  };
  co_await each_member(std::move(set_one));
  co_return json::object();
}

}  // namespace caduceus::gateway
