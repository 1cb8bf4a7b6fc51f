#pragma once
// What several upstreams have, named so that one endpoint can serve them all:
// a tool, a prompt or a task `github.create_issue` (the upstream's name, the
// separator, its own name or id), a resource `github+repo://x/y` (the
// upstream's name and `+` before the URI's scheme, so that the result is
// still a URI, and a template still a template). A name the client sends back
// is routed to its upstream by that prefix and given back its own name.

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caduceus::gateway {

namespace json = boost::json;

class aggregate_names {
 public:
  /// `upstreams`: their names, in the order the gateway keeps them.
  aggregate_names(std::vector<std::string> upstreams, std::string separator);

  /// A name an upstream's (its tools', its prompts', its tasks' ids), as the client sees it.
  std::string name(std::size_t upstream, std::string_view own) const;
  /// A URI (or URI template) of an upstream's, as the client sees it.
  std::string uri(std::size_t upstream, std::string_view own) const;

  /// What the client named: the upstream and the name it has there.
  struct routed {
    std::size_t upstream;
    std::string own;
  };
  /// Routes a tool's or prompt's name, or a task's id; nullopt when no upstream's prefix it bears.
  std::optional<routed> route_name(std::string_view name) const;
  /// Routes a resource URI; nullopt when no upstream's prefix it bears.
  std::optional<routed> route_uri(std::string_view uri) const;

  /// Renames what an upstream's result or notification names, as `method`
  /// has it: resource URIs (listed resources and templates, read contents,
  /// resource links and embedded resources in a tool's or prompt's content, a
  /// resource update's) and task ids (the task a call became, in both eras;
  /// listed tasks; a task's status, result and notifications).
  void rename(std::size_t upstream, std::string_view method, json::object& result) const;

 private:
  void rename_content(std::size_t upstream, json::value& block) const;
  void rename_field(std::size_t upstream, json::value* holder, std::string_view key) const;
  void rename_task(std::size_t upstream, json::object* task) const;

  std::vector<std::string> upstreams_;
  std::string separator_;
};

/// Which of an upstream's tools the gateway serves (--allow-tool, --deny-tool):
/// patterns where `*` stands for any characters.
class tool_filter {
 public:
  tool_filter(std::vector<std::string> allow, std::vector<std::string> deny)
      : allow_(std::move(allow)), deny_(std::move(deny)) {}
  /// Allowed when some allow pattern matches (or there are none) and no deny pattern does.
  bool allows(std::string_view tool) const;

 private:
  std::vector<std::string> allow_;
  std::vector<std::string> deny_;
};

/// Whether `text` matches `pattern`, where `*` stands for any characters.
bool matches_pattern(std::string_view pattern, std::string_view text);

}  // namespace caduceus::gateway
