// The high-level server: registries, and the request handlers of every
// server feature. Results are built for the newest revision and shaped for
// the session's (shaping.hpp).

#include <mcp/error.hpp>
#include <mcp/json/validate.hpp>
#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>
#include <mcp/server/server.hpp>
#include <mcp/uri_template.hpp>

#include <boost/asio/thread_pool.hpp>

#include "../protocol/invalid_params.hpp"
#include "../protocol/modern_era.hpp"
#include "../protocol/read_params.hpp"
#include "../protocol/shaping.hpp"
#include "../protocol/x_mcp_header.hpp"
#include "component_telemetry.hpp"
#include "list_pages.hpp"
#include "log_bridge.hpp"
#include "registry.hpp"
#include "skills_catalog.hpp"
#include "tasks/task_manager.hpp"
#include "tasks/task_wire.hpp"

#include <atomic>
#include <mutex>
#include <set>

namespace mcp {

namespace {

constexpr std::size_t max_completion_values = 100;  // the spec's bound per response

struct tool_entry {
  tool_info info;
  tool_handler handler;
  detail::tool_handler_at_once at_once;  // empty unless the handler finishes without waiting
  std::shared_ptr<const schema_validator> input_validator;
  std::shared_ptr<const schema_validator> output_validator;  // null without outputSchema
  std::vector<detail::mirrored_param> mirrored;  // x-mcp-header arguments
  const std::string& key() const { return info.name; }
};

std::shared_ptr<const schema_validator> compile_schema(const std::string& tool, std::string_view which,
                                                        const json::object& schema) {
  auto validator = std::make_shared<const schema_validator>(schema);
  for (const auto& keyword : validator->unsupported_keywords())
    sdk_log(log_category::server, log_level::warn, "a schema keyword is not checked by the validator",
            {{"tool", tool}, {"schema", which}, {"keyword", keyword}});
  return validator;
}

tool_entry make_tool_entry(tool_info info, tool_handler handler, detail::tool_handler_at_once at_once = {}) {
  auto input = compile_schema(info.name, "inputSchema", info.input_schema);
  auto output = info.output_schema ? compile_schema(info.name, "outputSchema", *info.output_schema)
                                   : nullptr;
  // Clients drop a tool whose annotations break the rules: refuse it here.
  std::string why;
  auto mirrored = detail::mirrored_params(info.input_schema, why);
  if (!mirrored) throw mcp::invalid_argument("tool " + info.name + ": " + why);
  return {std::move(info), std::move(handler), std::move(at_once), std::move(input), std::move(output),
          std::move(*mirrored)};
}

std::string describe(const std::vector<validation_error>& errors) {
  std::string text;
  for (const auto& e : errors) {
    if (!text.empty()) text += "; ";
    text += e.to_string();
  }
  return text;
}

struct resource_entry {
  resource_info info;
  resource_handler handler;
  const std::string& key() const { return info.uri; }
};

struct template_entry {
  resource_template_info info;
  uri_template pattern;
  resource_template_handler handler;
  const std::string& key() const { return info.uri_template; }
};

struct prompt_entry {
  prompt_info info;
  prompt_handler handler;
  const std::string& key() const { return info.name; }
};

struct completion_entry {
  std::string id;  // completion_key(...)
  completion_handler handler;
  const std::string& key() const { return id; }
};

std::string completion_key(std::string_view kind, std::string_view target, std::string_view argument) {
  std::string key(kind);
  key += '\n';
  key += target;
  key += '\n';
  key += argument;
  return key;
}

// What a single session sees in addition to (or instead of) the global
// registries. (Not described: it stays with the server that made it.)
struct session_registries {
  detail::registry<tool_entry> tools;
  detail::registry<resource_entry> resources;
  detail::registry<prompt_entry> prompts;
};

// A session's own entries first, then the global ones it does not hide.
template <class Entry>
std::vector<std::shared_ptr<const Entry>> own_then_global(const detail::registry<Entry>* own,
                                                          const detail::registry<Entry>& global) {
  const auto mine = own ? own->snapshot() : nullptr;
  std::vector<std::shared_ptr<const Entry>> all;
  if (mine) all.assign(mine->begin(), mine->end());
  for (const auto& e : *global.snapshot())
    if (!mine || std::ranges::none_of(*mine, [&](const auto& o) { return o->key() == e->key(); }))
      all.push_back(e);
  return all;
}

template <class Entry>
std::shared_ptr<const Entry> own_or_global(const detail::registry<Entry>* own, const detail::registry<Entry>& global,
                                           std::string_view key) {
  if (own)
    if (auto found = own->find(key)) return found;
  return global.find(key);
}

// A 2026-07-28 tools/call over HTTP: its Mcp-Param-* headers must match the
// arguments they mirror (streamable-http, "Server Behavior for Custom Headers").
void check_mirrored_headers(const tool_entry& tool, const json::object& arguments, request_context& ctx) {
  if (tool.mirrored.empty() || !detail::mirrors_arguments_in_headers(dialect_of(ctx.version()))) return;
  const auto& transport = ctx.session().transport();
  if (transport.kind != "http") return;  // only HTTP carries headers
  const auto header = [&](std::string_view name) { return transport.headers.find(name); };
  if (auto mismatch = detail::mirrored_mismatch(tool.mirrored, arguments, header))
    throw protocol_error(errc::header_mismatch, std::move(*mismatch));
}

using detail::invalid_params;
using detail::paginate;
using detail::put_cache_hint;
using detail::read_params_of;

// tools/call's params (call_tool_params), read without a copy of their
// `arguments`: those are the tool's to read, where the request holds them
// (its inputSchema checks them next, a typed tool's Args read them there).
// The copy cost 1,550 instructions a call, 8% of a whole stdio request.
struct tool_call_name {
  std::string name;
};
BOOST_DESCRIBE_STRUCT(tool_call_name, (), (name))

struct tool_call_params {
  std::string name;
  const json::value* arguments;  // the request's own object
};

tool_call_params read_tool_call(const json::object& params) {
  static const json::value no_arguments = json::object();
  tool_call_params read{detail::read_params<tool_call_name>(params).name, &no_arguments};
  // (call_tool_params's form: an object, left out when empty; null reads as absent.)
  if (const auto* given = params.if_contains("arguments"); given && !given->is_null()) {
    if (!given->is_object()) invalid_params("/params/arguments must be an object");
    read.arguments = given;
  }
  return read;
}

// `fallback`: the server's hint, on a 2026-07-28 request (null before it).
// (Each item is narrowed to the request's revision as it is written, so a
// page is built here rather than as its declared list_*_result.)
template <class Item, class Render>
json::object list_page(const std::vector<Item>& items, const paginated_params& params,
                       std::size_t page_size, std::string_view key, Render render,
                       const cache_hint* fallback) {
  const auto p = paginate(items.size(), params.cursor, page_size);
  json::array out;
  out.reserve(p.end - p.begin);
  for (auto i = p.begin; i < p.end; ++i) out.push_back(render(items[i]));
  json::object result{{key, std::move(out)}};
  if (p.next_cursor) result["nextCursor"] = *p.next_cursor;
  if (fallback) {
    // A page is as fresh as its stalest item, and shared only if all may be.
    auto hint = p.begin < p.end ? items[p.begin]->info.cache.value_or(*fallback) : *fallback;
    for (auto i = p.begin; i < p.end; ++i) {
      const auto own = items[i]->info.cache.value_or(*fallback);
      hint.ttl = std::min(hint.ttl, own.ttl);
      hint.shared = hint.shared && own.shared;
    }
    put_cache_hint(result, hint);
  }
  return result;
}

// {"name": true, ...}: a capability's flags.
json::object flags_on(std::initializer_list<std::string_view> names) {
  json::object flags;
  flags.reserve(names.size());
  for (const auto name : names) flags.emplace(name, true);
  return flags;
}

}  // namespace

std::vector<prompt_argument> detail::prompt_arguments_from_schema(const std::string& prompt,
                                                                  const json::object& schema) {
  std::vector<prompt_argument> arguments;
  const auto* required = schema.if_contains("required");
  const auto* properties = schema.if_contains("properties");
  if (!properties) return arguments;
  for (const auto& [name, property] : properties->as_object()) {
    const auto& p = property.as_object();
    if (const auto* type = p.if_contains("type"); !type || *type != "string")
      throw mcp::invalid_argument("prompt " + prompt + ": argument " + std::string(name) +
                                  " must be a string (prompt arguments are strings)");
    prompt_argument argument{std::string(name)};
    if (const auto* d = p.if_contains("description")) argument.description = std::string(d->as_string());
    if (const auto* t = p.if_contains("title")) argument.title = std::string(t->as_string());
    argument.required = required && std::ranges::find(required->as_array(), json::value(name)) !=
                                        required->as_array().end();
    arguments.push_back(std::move(argument));
  }
  return arguments;
}

struct server::state {
  state(implementation i, server_options s)
      : info(std::move(i)), modern_info(detail::modern_server_info(info)), settings(std::move(s)),
        tasks(settings.tasks) {}
  ~state() {
    if (workers) workers->join();
  }

  implementation info;
  json::object modern_info;  // (built once: every 2026-07-28 result carries it)
  server_options settings;
  detail::registry<tool_entry> tools;
  detail::registry<resource_entry> resources;
  detail::registry<template_entry> templates;
  detail::registry<prompt_entry> prompts;
  detail::registry<completion_entry> completions;

  // Whether a kind was ever registered: its capability stays declared.
  std::atomic<bool> has_tools{false}, has_resources{false}, has_prompts{false};
  // Whether a tool that may run as a task was: tasks are served from then on.
  std::atomic<bool> has_task_tools{false};
  detail::task_manager tasks;

  std::once_flag workers_started;
  std::unique_ptr<asio::thread_pool> workers;

  // The SDK's log lines to the clients (settings.log_to_clients).
  std::unique_ptr<detail::log_bridge> log_bridge =
      settings.log_to_clients ? std::make_unique<detail::log_bridge>() : nullptr;

  std::mutex sessions_mutex;  // guards the two maps below
  std::map<const session*, std::weak_ptr<session>> sessions;
  std::map<std::string, std::set<const session*>, std::less<>> subscriptions;

  // In a cluster: the bus that carries the changes of the whole server to
  // every server (each tells its own sessions), and this one's subscription.
  std::shared_ptr<message_bus> bus;  // under sessions_mutex
  std::unique_ptr<message_bus::subscription> cluster_subscription;

  // A change every session hears of: `method` is a list_changed notification.
  void broadcast(std::string_view method) { publish_or_deliver(method, {}); }
  // A resource changed: its subscribers hear of it.
  void resource_updated(std::string_view uri) { publish_or_deliver(methods::notifications_resources_updated, uri); }

  // In a cluster every server delivers it, this one too, once the bus brings it back.
  void publish_or_deliver(std::string_view method, std::string_view uri) {
    {
      std::lock_guard lock(sessions_mutex);
      if (bus) {
        bus->publish(std::string(cluster_channel), std::string(method) + "\n" + std::string(uri));
        return;
      }
    }
    deliver(method, uri);
  }

  void deliver(std::string_view method, std::string_view uri) {
    std::lock_guard lock(sessions_mutex);
    if (method != methods::notifications_resources_updated) {
      // Each server's copy of a session would say the same: only the one
      // that reaches the client does.
      for (const auto& [_, weak] : sessions)
        if (auto s = weak.lock()) s->post_broadcast(std::string(method));
      return;
    }
    // The copy that took the subscription tells the client, wherever its stream is.
    const auto it = subscriptions.find(uri);
    if (it == subscriptions.end()) return;
    for (const auto* subscriber : it->second)
      if (auto s = sessions[subscriber].lock())
        s->post_notification(methods::notifications_resources_updated, {{"uri", uri}});
  }

  // notifications/tasks (the tasks extension) to the listen streams that
  // asked for the task and may see it.
  void notify_task(const task_record& task) {
    std::vector<std::shared_ptr<session>> listening;
    {
      std::lock_guard lock(sessions_mutex);
      for (const auto& [key, weak] : sessions)
        if (auto s = weak.lock(); s && std::ranges::find(s->task_subscriptions(), task.id) != s->task_subscriptions().end())
          listening.push_back(std::move(s));
    }
    for (const auto& s : listening)
      if (detail::task_manager::visible_to(task, *s))
        s->post_notification(methods::notifications_tasks, detail::detailed_task_json(task));
  }

  static constexpr std::string_view cluster_channel = "server";

  // What a session sees: its own entries first, then the global ones it does not hide.
  static const session_registries* own(session& s) { return s.find_state<session_registries>(); }
  std::vector<std::shared_ptr<const tool_entry>> tools_of(session& s) const {
    const auto* mine = own(s);
    return own_then_global(mine ? &mine->tools : nullptr, tools);
  }
  std::vector<std::shared_ptr<const resource_entry>> resources_of(session& s) const {
    const auto* mine = own(s);
    return own_then_global(mine ? &mine->resources : nullptr, resources);
  }
  std::vector<std::shared_ptr<const prompt_entry>> prompts_of(session& s) const {
    const auto* mine = own(s);
    return own_then_global(mine ? &mine->prompts : nullptr, prompts);
  }
  std::shared_ptr<const tool_entry> find_tool(session& s, std::string_view name) const {
    const auto* mine = own(s);
    return own_or_global(mine ? &mine->tools : nullptr, tools, name);
  }
  std::shared_ptr<const resource_entry> find_resource(session& s, std::string_view uri) const {
    const auto* mine = own(s);
    return own_or_global(mine ? &mine->resources : nullptr, resources, uri);
  }
  std::shared_ptr<const prompt_entry> find_prompt(session& s, std::string_view name) const {
    const auto* mine = own(s);
    return own_or_global(mine ? &mine->prompts : nullptr, prompts, name);
  }

  // A tools/call is served in three steps: the tool and its arguments, the
  // handler (at once or awaited), and the checked, shaped result.
  struct tool_call {
    std::shared_ptr<const tool_entry> tool;
    const json::object* arguments = nullptr;  // the request's own, or a task's copy of it
    std::optional<json::object> refusal;      // a tool error result for invalid arguments
  };
  // `arguments`: an object, held as a json::value because that is what the
  // schema validator reads (an object given it would be copied into one).
  static tool_call prepare_call(std::shared_ptr<const tool_entry> tool, const json::value& arguments,
                                protocol_version version);
  static json::object finish_call(const tool_call& call, call_tool_result result, protocol_version version);
  // The handler of a checked call, and its result shaped (what it threw: a tool error).
  static asio::awaitable<json::object> run_tool(tool_call call, request_context& ctx);
  std::optional<json::object> call_tool_at_once(const json::object& params, request_context& ctx) const;
  asio::awaitable<json::object> call_tool(const json::object& params, request_context& ctx);
  asio::awaitable<json::object> read_resource(const json::object& params, request_context& ctx);
  asio::awaitable<json::object> get_prompt(const json::object& params, request_context& ctx);
  asio::awaitable<json::object> complete(const json::object& params, request_context& ctx);
  json::object subscribe(const resource_params& params, session& s, bool on);
};

server::server(implementation info) : server(std::move(info), server_options{}) {}

server::server(implementation info, server_options settings)
    : state_(std::make_shared<state>(std::move(info), std::move(settings))) {
  std::weak_ptr<state> weak = state_;
  state_->tasks.on_change([weak](const task_record& task) {
    if (const auto st = weak.lock()) st->notify_task(task);
  });
}

server::~server() = default;

void server::add_tool(tool_info info, tool_handler handler) {
  add_tool(std::move(info), std::move(handler), nullptr);
}

void server::add_tool(tool_info info, tool_handler handler, detail::tool_handler_at_once at_once) {
  auto name = info.name;
  if (info.task_support != task_support::forbidden) state_->has_task_tools = true;
  state_->tools.put(std::move(name), make_tool_entry(std::move(info), std::move(handler), std::move(at_once)));
  state_->has_tools = true;
  state_->broadcast(methods::notifications_tools_list_changed);
}

bool server::remove_tool(std::string_view name) {
  if (!state_->tools.remove(name)) return false;
  state_->broadcast(methods::notifications_tools_list_changed);
  return true;
}

void server::notify_tools_changed() { state_->broadcast(methods::notifications_tools_list_changed); }

void server::notify_prompts_changed() { state_->broadcast(methods::notifications_prompts_list_changed); }

void server::notify_resources_changed() { state_->broadcast(methods::notifications_resources_list_changed); }

void server::add_tool(session& s, tool_info info, tool_handler handler) {
  auto name = info.name;
  if (info.task_support != task_support::forbidden) state_->has_task_tools = true;
  s.state<session_registries>().tools.put(std::move(name), make_tool_entry(std::move(info), std::move(handler)));
  state_->has_tools = true;
  s.post_notification(methods::notifications_tools_list_changed);
}

bool server::remove_tool(session& s, std::string_view name) {
  if (!s.state<session_registries>().tools.remove(name)) return false;
  s.post_notification(methods::notifications_tools_list_changed);
  return true;
}

void server::add_resource(session& s, resource_info info, resource_handler handler) {
  auto uri = info.uri;
  s.state<session_registries>().resources.put(std::move(uri), {std::move(info), std::move(handler)});
  state_->has_resources = true;
  s.post_notification(methods::notifications_resources_list_changed);
}

bool server::remove_resource(session& s, std::string_view uri) {
  if (!s.state<session_registries>().resources.remove(uri)) return false;
  s.post_notification(methods::notifications_resources_list_changed);
  return true;
}

void server::add_prompt(session& s, prompt_info info, prompt_handler handler) {
  auto name = info.name;
  s.state<session_registries>().prompts.put(std::move(name), {std::move(info), std::move(handler)});
  state_->has_prompts = true;
  s.post_notification(methods::notifications_prompts_list_changed);
}

bool server::remove_prompt(session& s, std::string_view name) {
  if (!s.state<session_registries>().prompts.remove(name)) return false;
  s.post_notification(methods::notifications_prompts_list_changed);
  return true;
}

void server::add_resource(resource_info info, resource_handler handler) {
  auto uri = info.uri;
  state_->resources.put(std::move(uri), {std::move(info), std::move(handler)});
  state_->has_resources = true;
  state_->broadcast(methods::notifications_resources_list_changed);
}

bool server::remove_resource(std::string_view uri) {
  if (!state_->resources.remove(uri)) return false;
  state_->broadcast(methods::notifications_resources_list_changed);
  return true;
}

void server::add_resource_template(resource_template_info info, resource_template_handler handler) {
  uri_template pattern(info.uri_template);  // throws on a malformed template
  auto key = info.uri_template;
  state_->templates.put(std::move(key), {std::move(info), std::move(pattern), std::move(handler)});
  state_->has_resources = true;
  state_->broadcast(methods::notifications_resources_list_changed);
}

bool server::remove_resource_template(std::string_view uri_template) {
  if (!state_->templates.remove(uri_template)) return false;
  state_->broadcast(methods::notifications_resources_list_changed);
  return true;
}

void server::notify_resource_updated(std::string_view uri) { state_->resource_updated(uri); }

void server::leave_cluster() {
  std::unique_ptr<message_bus::subscription> subscription;
  {
    std::lock_guard lock(state_->sessions_mutex);
    subscription = std::move(state_->cluster_subscription);
    state_->bus.reset();
  }
  // (Dropped without the lock: a bus may deliver under its own.)
  state_->tasks.leave_cluster();
}

void server::share_task_store(std::shared_ptr<task_store> store) { state_->tasks.use_store(std::move(store)); }

asio::awaitable<void> server::join_cluster(std::shared_ptr<message_bus> bus) {
  auto tasks_bus = bus;
  co_await state_->tasks.join_cluster(std::move(tasks_bus));
  std::weak_ptr<state> weak = state_;
  message_bus::handler on_message = [weak](std::string_view text) {
    const auto st = weak.lock();
    const auto cut = text.find('\n');
    if (!st || cut == std::string_view::npos) return;
    const auto method = text.substr(0, cut);
    const bool known = method == methods::notifications_resources_updated ||
                       method == methods::notifications_tools_list_changed ||
                       method == methods::notifications_prompts_list_changed ||
                       method == methods::notifications_resources_list_changed;
    if (known) st->deliver(method, text.substr(cut + 1));
  };
  // (Changes published while the bus reconnects are lost, as notifications may be.)
  std::function<void()> no_recovery;
  auto channel = std::string(state::cluster_channel);
  auto subscription = co_await bus->subscribe(std::move(channel), std::move(on_message), std::move(no_recovery));
  std::lock_guard lock(state_->sessions_mutex);
  state_->cluster_subscription = std::move(subscription);
  state_->bus = std::move(bus);
}

void server::add_prompt(prompt_info info, prompt_handler handler) {
  auto name = info.name;
  state_->prompts.put(std::move(name), {std::move(info), std::move(handler)});
  state_->has_prompts = true;
  state_->broadcast(methods::notifications_prompts_list_changed);
}

bool server::remove_prompt(std::string_view name) {
  if (!state_->prompts.remove(name)) return false;
  state_->broadcast(methods::notifications_prompts_list_changed);
  return true;
}

void server::add_prompt_completion(std::string prompt, std::string argument,
                                   completion_handler handler) {
  auto key = completion_key("prompt", prompt, argument);
  state_->completions.put(key, {key, std::move(handler)});
}

void server::add_template_completion(std::string uri_template, std::string variable,
                                     completion_handler handler) {
  auto key = completion_key("template", uri_template, variable);
  state_->completions.put(key, {key, std::move(handler)});
}

asio::any_io_executor server::worker_executor() {
  std::call_once(state_->workers_started, [&] {
    state_->workers = std::make_unique<asio::thread_pool>(std::max<std::size_t>(1, state_->settings.worker_threads));
  });
  return state_->workers->get_executor();
}

implementation server::server_info() const { return state_->info; }

json::object server::modern_server_info() const { return state_->modern_info; }

std::optional<std::string> server::instructions() const { return state_->settings.instructions; }

std::span<const protocol_version> server::supported_versions() const {
  return state_->settings.protocol_versions;
}

json::object server::capabilities() const {
  // (Built with emplace: a braced initializer list of value_refs cost twice
  // the object it made, and this runs for every initialize and server/discover.)
  json::object caps;
  caps.reserve(6 + state_->settings.capabilities.size());
  caps.emplace("logging", json::object());
  if (state_->has_tools) caps.emplace("tools", flags_on({"listChanged"}));
  if (state_->has_resources) caps.emplace("resources", flags_on({"subscribe", "listChanged"}));
  if (state_->has_prompts) caps.emplace("prompts", flags_on({"listChanged"}));
  if (state_->has_prompts || !state_->templates.empty()) caps.emplace("completions", json::object());
  if (state_->has_task_tools) state_->tasks.add_capabilities(caps);
  detail::declare_skills(*skills_, caps);
  for (const auto& [key, value] : state_->settings.capabilities) caps[key] = value;
  return caps;
}

void server::init(session& s) {
  if (state_->log_bridge) state_->log_bridge->add(s);
  std::lock_guard lock(state_->sessions_mutex);
  state_->sessions[&s] = s.weak_from_this();
  // A subscriptions/listen stream subscribes as it opens.
  for (const auto& uri : s.resource_subscriptions()) state_->subscriptions[uri].insert(&s);
}

void server::terminate(session& s) {
  if (state_->log_bridge) state_->log_bridge->remove(s);
  std::lock_guard lock(state_->sessions_mutex);
  state_->sessions.erase(&s);
  for (auto it = state_->subscriptions.begin(); it != state_->subscriptions.end();) {
    it->second.erase(&s);
    it = it->second.empty() ? state_->subscriptions.erase(it) : std::next(it);
  }
}

std::optional<json::object> server::handle_request_at_once(const request& req, request_context& ctx) {
  auto& st = *state_;
  const auto& d = dialect_of(ctx.version());
  const auto page_size = st.settings.page_size;
  const auto* cache = detail::carries_cache_hints(d) ? &st.settings.cache : nullptr;
  if (auto served = detail::serve_skills_at_once(*skills_, req, ctx, page_size, cache)) return served;
  const auto& m = req.method;
  if (m == methods::tools_call) {
    if (!telemetry::listening(telemetry::event::tool_call)) return st.call_tool_at_once(req.params, ctx);
    return detail::reported_at_once(telemetry::event::tool_call, req, ctx,
                                    [&] { return st.call_tool_at_once(req.params, ctx); });
  }
  if (m == methods::tools_list) {
    const auto asked = read_params_of<method::tools_list>(req.params);
    return list_page(st.tools_of(ctx.session()), asked, page_size, "tools",
                     [&](const auto& t) { return detail::shape_tool(t->info.to_json(), d); }, cache);
  }
  if (m == methods::resources_list) {
    const auto asked = read_params_of<method::resources_list>(req.params);
    return list_page(st.resources_of(ctx.session()), asked, page_size, "resources",
                     [&](const auto& r) { return detail::shape_listing(r->info.to_json(), d); }, cache);
  }
  if (m == methods::resources_templates_list) {
    const auto asked = read_params_of<method::resources_templates_list>(req.params);
    return list_page(*st.templates.snapshot(), asked, page_size, "resourceTemplates",
                     [&](const auto& r) { return detail::shape_listing(r->info.to_json(), d); }, cache);
  }
  if (m == methods::resources_subscribe)
    return st.subscribe(read_params_of<method::resources_subscribe>(req.params), ctx.session(), true);
  if (m == methods::resources_unsubscribe)
    return st.subscribe(read_params_of<method::resources_unsubscribe>(req.params), ctx.session(), false);
  if (m == methods::prompts_list) {
    const auto asked = read_params_of<method::prompts_list>(req.params);
    return list_page(st.prompts_of(ctx.session()), asked, page_size, "prompts",
                     [&](const auto& p) { return detail::shape_listing(p->info.to_json(), d); }, cache);
  }
  if (m == methods::logging_set_level) {
    ctx.session().set_log_level(read_params_of<method::logging_set_level>(req.params).level);
    return json::object{};
  }
  return std::nullopt;
}

asio::awaitable<json::object> server::handle_request(const request& req, request_context& ctx) {
  auto& st = *state_;
  const auto& m = req.method;
  // Methods whose handlers may wait; the rest are served at once.
  using telemetry::event;
  if (m == methods::tools_call) {
    if (!telemetry::listening(event::tool_call)) co_return co_await st.call_tool(req.params, ctx);
    co_return co_await detail::reported(event::tool_call, req, ctx, st.call_tool(req.params, ctx));
  }
  if (m == methods::resources_read) {
    if (!telemetry::listening(event::resource_read)) co_return co_await st.read_resource(req.params, ctx);
    co_return co_await detail::reported(event::resource_read, req, ctx, st.read_resource(req.params, ctx));
  }
  if (m == methods::prompts_get) {
    if (!telemetry::listening(event::prompt_get)) co_return co_await st.get_prompt(req.params, ctx);
    co_return co_await detail::reported(event::prompt_get, req, ctx, st.get_prompt(req.params, ctx));
  }
  if (m == methods::completion_complete) co_return co_await st.complete(req.params, ctx);
  if (st.has_task_tools && detail::task_manager::is_tasks_method(m)) co_return co_await st.tasks.handle(req, ctx);
  if (auto served = handle_request_at_once(req, ctx)) co_return std::move(*served);
  throw protocol_error(errc::method_not_found, "Method not found: " + m);
}

server::state::tool_call server::state::prepare_call(std::shared_ptr<const tool_entry> tool,
                                                      const json::value& arguments, protocol_version version) {
  tool_call call{std::move(tool), &arguments.get_object(), std::nullopt};
  // Bad arguments are the model's to fix: a tool error it can read, not a protocol error.
  if (auto errors = call.tool->input_validator->validate(arguments); !errors.empty()) {
    auto refusal = call_tool_result::error("Invalid arguments: " + describe(errors));
    call.refusal = detail::shape_call_tool_result(std::move(refusal).to_json(), dialect_of(version));
  }
  return call;
}

json::object server::state::finish_call(const tool_call& call, call_tool_result result,
                                        protocol_version version) {
  const auto& tool = *call.tool;
  const auto& name = tool.info.name;
  if (tool.output_validator && !result.is_error) {
    if (!result.structured_content)
      throw protocol_error(errc::internal_error, "Tool " + name +
                                                     " declares an outputSchema but returned no structured content");
    if (auto errors = tool.output_validator->validate(*result.structured_content); !errors.empty())
      throw protocol_error(errc::internal_error, "Tool " + name +
                                                     " returned structured content that does not match "
                                                     "its outputSchema: " + describe(errors));
  }
  return detail::shape_call_tool_result(std::move(result).to_json(), dialect_of(version));
}

std::optional<json::object> server::state::call_tool_at_once(const json::object& request_params,
                                                             request_context& ctx) const {
  const auto params = read_tool_call(request_params);
  // Anything but a tool that runs at once goes to call_tool (which also
  // says what is wrong with an unknown name).
  auto tool = find_tool(ctx.session(), params.name);
  // (A tool that may run as a task is decided on in call_tool.)
  if (!tool || !tool->at_once || tool->info.task_support != task_support::forbidden) return std::nullopt;
  ctx.require_scopes(tool->info.required_scopes);
  auto call = prepare_call(std::move(tool), *params.arguments, ctx.version());
  check_mirrored_headers(*call.tool, *call.arguments, ctx);
  if (call.refusal) return std::move(*call.refusal);
  call_tool_result result;
  try {
    result = call.tool->at_once(*call.arguments, ctx);
  } catch (const protocol_error&) {
    throw;
  } catch (const std::exception& e) {
    result = call_tool_result::error(e.what());
  }
  return finish_call(call, std::move(result), ctx.version());
}

asio::awaitable<json::object> server::state::call_tool(const json::object& request_params,
                                                       request_context& ctx) {
  const auto params = read_tool_call(request_params);
  const auto& name = params.name;
  auto tool = find_tool(ctx.session(), name);
  if (!tool) invalid_params("Unknown tool: " + name, json::object{{"name", name}});
  ctx.require_scopes(tool->info.required_scopes);
  auto call = prepare_call(std::move(tool), *params.arguments, ctx.version());
  check_mirrored_headers(*call.tool, *call.arguments, ctx);
  if (call.refusal) co_return std::move(*call.refusal);
  if (!tasks.runs_as_task(call.tool->info.task_support, name, ctx)) co_return co_await run_tool(call, ctx);
  // The task's own copy of the request gives the arguments from now on.
  detail::task_body body = [tool = call.tool](const json::object& arguments,
                                              request_context& c) -> asio::awaitable<json::object> {
    tool_call on_copy{tool, &arguments, std::nullopt};
    co_return co_await run_tool(std::move(on_copy), c);
  };
  co_return co_await tasks.call(ctx, std::move(body));
}

asio::awaitable<json::object> server::state::run_tool(tool_call call, request_context& ctx) {
  call_tool_result result;
  try {
    result = co_await call.tool->handler(*call.arguments, ctx);
  } catch (const protocol_error&) {
    throw;
  } catch (const std::exception& e) {
    if (ctx.cancelled()) throw;  // no reply goes out anyway
    result = call_tool_result::error(e.what());
  }
  co_return finish_call(call, std::move(result), ctx.version());
}

asio::awaitable<json::object> server::state::read_resource(const json::object& params,
                                                           request_context& ctx) {
  const auto uri = read_params_of<method::resources_read>(params).uri;
  std::vector<resource_contents> contents;
  std::optional<cache_hint> hint;
  if (const auto resource = find_resource(ctx.session(), uri)) {
    hint = resource->info.cache;
    ctx.require_scopes(resource->info.required_scopes);
    contents = co_await resource->handler(uri, ctx);
  } else {
    const auto all = templates.snapshot();
    std::shared_ptr<const template_entry> matched;
    std::optional<uri_variables> variables;
    for (const auto& t : *all) {
      if ((variables = t->pattern.match(uri))) {
        matched = t;
        break;
      }
    }
    if (!matched)
      throw protocol_error(detail::resource_not_found_code(dialect_of(ctx.version())), "Resource not found: " + uri,
                           json::object{{"uri", uri}});
    hint = matched->info.cache;
    ctx.require_scopes(matched->info.required_scopes);
    contents = co_await matched->handler(uri, *variables, ctx);
  }
  json::array out;
  for (const auto& c : contents) out.push_back(c.to_json());
  json::object result{{"contents", std::move(out)}};
  if (detail::carries_cache_hints(dialect_of(ctx.version()))) put_cache_hint(result, hint.value_or(settings.cache));
  co_return result;
}

asio::awaitable<json::object> server::state::get_prompt(const json::object& request_params,
                                                        request_context& ctx) {
  auto params = read_params_of<method::prompts_get>(request_params);
  const auto& name = params.name;
  const auto prompt = find_prompt(ctx.session(), name);
  if (!prompt) invalid_params("Unknown prompt: " + name, json::object{{"name", name}});
  ctx.require_scopes(prompt->info.required_scopes);
  const prompt_arguments args(std::make_move_iterator(params.arguments.begin()),
                              std::make_move_iterator(params.arguments.end()));
  for (const auto& declared : prompt->info.arguments)
    if (declared.required && !args.contains(declared.name))
      invalid_params("missing required argument " + declared.name);
  get_prompt_result result;
  try {
    result = co_await prompt->handler(args, ctx);
  } catch (const conversion_error& e) {
    invalid_params(e.what());
  }
  co_return detail::shape_prompt_result(to_json_value(std::move(result)).as_object(),
                                        dialect_of(ctx.version()));
}

asio::awaitable<json::object> server::state::complete(const json::object& request_params,
                                                      request_context& ctx) {
  auto params = read_params_of<method::completion_complete>(request_params);
  const auto& ref = params.ref;
  completion_request request{std::move(params.argument.name), std::move(params.argument.value), {}};
  if (params.context)
    for (auto& [name, value] : params.context->arguments) request.context.emplace(name, std::move(value));
  std::string key;
  if (ref.type == "ref/prompt") {
    if (!ref.name) invalid_params("/params/ref/name is required for ref/prompt");
    if (!find_prompt(ctx.session(), *ref.name)) invalid_params("Unknown prompt: " + *ref.name);
    key = completion_key("prompt", *ref.name, request.argument);
  } else if (ref.type == "ref/resource") {
    if (!ref.uri) invalid_params("/params/ref/uri is required for ref/resource");
    if (!templates.find(*ref.uri) && !find_resource(ctx.session(), *ref.uri))
      invalid_params("Unknown resource: " + *ref.uri);
    key = completion_key("template", *ref.uri, request.argument);
  } else {
    invalid_params("/params/ref/type must be ref/prompt or ref/resource");
  }

  std::vector<std::string> values;
  if (const auto completer = completions.find(key)) values = co_await completer->handler(request, ctx);
  const auto total = values.size();
  values.resize(std::min(total, max_completion_values));
  const bool more = total > max_completion_values;
  complete_result result{completion{std::move(values), static_cast<std::int64_t>(total), more}};
  co_return to_json_value(std::move(result)).as_object();
}

json::object server::state::subscribe(const resource_params& params, session& s, bool on) {
  const auto& uri = params.uri;
  std::lock_guard lock(sessions_mutex);
  if (on) {
    subscriptions[uri].insert(&s);
  } else if (const auto it = subscriptions.find(uri); it != subscriptions.end()) {
    it->second.erase(&s);
    if (it->second.empty()) subscriptions.erase(it);
  }
  return {};
}

}  // namespace mcp
