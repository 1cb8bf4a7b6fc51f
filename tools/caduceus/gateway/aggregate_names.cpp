#include "aggregate_names.hpp"

#include <mcp/protocol/methods.hpp>

#include <algorithm>

namespace caduceus::gateway {

namespace {

constexpr std::string_view uri_mark = "+";
// Where a message says which task it belongs to.
constexpr std::string_view related_task = "io.modelcontextprotocol/related-task";

json::object* object_at(json::object& holder, std::string_view key) {
  auto* value = holder.if_contains(key);
  return value ? value->if_object() : nullptr;
}

}  // namespace

aggregate_names::aggregate_names(std::vector<std::string> upstreams, std::string separator)
    : upstreams_(std::move(upstreams)), separator_(std::move(separator)) {}

std::string aggregate_names::name(std::size_t upstream, std::string_view own) const {
  std::string out = upstreams_[upstream];
  out += separator_;
  out += own;
  return out;
}

std::string aggregate_names::uri(std::size_t upstream, std::string_view own) const {
  std::string out = upstreams_[upstream];
  out += uri_mark;
  out += own;
  return out;
}

namespace {

std::optional<aggregate_names::routed> route(const std::vector<std::string>& upstreams, std::string_view mark,
                                             std::string_view text) {
  // Names hold no separator (the command line checks), so at most one matches.
  for (std::size_t i = 0; i < upstreams.size(); ++i) {
    const auto& prefix = upstreams[i];
    if (text.size() > prefix.size() + mark.size() && text.starts_with(prefix) &&
        text.substr(prefix.size()).starts_with(mark))
      return aggregate_names::routed{i, std::string(text.substr(prefix.size() + mark.size()))};
  }
  return std::nullopt;
}

}  // namespace

std::optional<aggregate_names::routed> aggregate_names::route_name(std::string_view name) const {
  return route(upstreams_, separator_, name);
}

std::optional<aggregate_names::routed> aggregate_names::route_uri(std::string_view uri) const {
  return route(upstreams_, uri_mark, uri);
}

void aggregate_names::rename_field(std::size_t upstream, json::value* holder, std::string_view key) const {
  auto* object = holder ? holder->if_object() : nullptr;
  auto* field = object ? object->if_contains(key) : nullptr;
  if (field && field->is_string()) *field = uri(upstream, field->get_string());
}

void aggregate_names::rename_content(std::size_t upstream, json::value& block) const {
  auto* object = block.if_object();
  const auto* type = object ? object->if_contains("type") : nullptr;
  if (!type || !type->is_string()) return;
  if (type->get_string() == "resource_link") rename_field(upstream, &block, "uri");
  if (type->get_string() == "resource") rename_field(upstream, object->if_contains("resource"), "uri");
}

void aggregate_names::rename_task(std::size_t upstream, json::object* task) const {
  auto* id = task ? task->if_contains("taskId") : nullptr;
  if (id && id->is_string()) *id = name(upstream, id->get_string());
}

void aggregate_names::rename(std::size_t upstream, std::string_view method, json::object& result) const {
  auto each = [&](std::string_view list, auto&& rename) {
    if (auto* items = result.if_contains(list); items && items->is_array())
      for (auto& item : items->get_array()) rename(item);
  };
  namespace m = mcp::methods;
  if (method == m::resources_list) {
    each("resources", [&](json::value& r) { rename_field(upstream, &r, "uri"); });
  } else if (method == m::resources_templates_list) {
    each("resourceTemplates", [&](json::value& t) { rename_field(upstream, &t, "uriTemplate"); });
  } else if (method == m::resources_read) {
    each("contents", [&](json::value& c) { rename_field(upstream, &c, "uri"); });
  } else if (method == m::tools_call || method == m::tasks_result) {
    each("content", [&](json::value& block) { rename_content(upstream, block); });
    rename_task(upstream, object_at(result, "task"));  // 2025-11-25: the call became this task
    if (const auto* kind = result.if_contains("resultType"); kind && *kind == "task") rename_task(upstream, &result);
    if (auto* meta = object_at(result, "_meta")) rename_task(upstream, object_at(*meta, related_task));
  } else if (method == m::prompts_get) {
    each("messages", [&](json::value& message) {
      if (auto* object = message.if_object(); object && object->contains("content"))
        rename_content(upstream, object->at("content"));
    });
  } else if (method == m::notifications_resources_updated) {
    if (auto* field = result.if_contains("uri"); field && field->is_string()) *field = uri(upstream, field->get_string());
  } else if (method == m::tasks_get || method == m::tasks_cancel || method == m::tasks_update ||
             method == m::notifications_tasks_status || method == m::notifications_tasks) {
    rename_task(upstream, &result);
  } else if (method == m::tasks_list) {
    each("tasks", [&](json::value& task) { rename_task(upstream, task.if_object()); });
  }
}

bool tool_filter::allows(std::string_view tool) const {
  auto matched = [tool](const std::string& pattern) { return matches_pattern(pattern, tool); };
  if (!allow_.empty() && std::none_of(allow_.begin(), allow_.end(), matched)) return false;
  return std::none_of(deny_.begin(), deny_.end(), matched);
}

bool matches_pattern(std::string_view pattern, std::string_view text) {
  // Greedy with backtracking to the last `*`: linear for patterns of one star.
  std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace caduceus::gateway
