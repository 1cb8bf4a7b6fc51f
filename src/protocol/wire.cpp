// The to_json() members of the listed protocol types: their declared JSON
// form (mcp/protocol/wire.hpp). The results' own, with their value rules,
// are in server/content.cpp, next to the content blocks they build.

#include <mcp/protocol/wire.hpp>

#include "tool_execution.hpp"

#include <boost/describe/enum_to_string.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

namespace mcp {

namespace {

json::object write_object(const auto& value) { return to_json_value(value).as_object(); }

}  // namespace

json::object tool_annotations::to_json() const { return write_object(*this); }
json::object tool_info::to_json() const {
  auto tool = write_object(*this);
  if (task_support != mcp::task_support::forbidden) tool["execution"] = to_json_value(detail::tool_execution{task_support});
  return tool;
}
json::object resource_info::to_json() const { return write_object(*this); }
json::object resource_template_info::to_json() const { return write_object(*this); }
json::object prompt_info::to_json() const { return write_object(*this); }

std::string_view to_string(logging_level level) noexcept {
  const char* name = boost::describe::enum_to_string(level, nullptr);
  return name != nullptr ? name : "";
}

std::string_view to_string(task_status status) noexcept {
  const char* name = boost::describe::enum_to_string(status, nullptr);
  return name != nullptr ? name : "";
}

std::optional<logging_level> parse_logging_level(std::string_view text) noexcept {
  // (Boost 1.81's enum_from_string takes only a C string.)
  std::optional<logging_level> level;
  boost::mp11::mp_for_each<boost::describe::describe_enumerators<logging_level>>([&](auto D) {
    if (text == D.name) level = D.value;
  });
  return level;
}

}  // namespace mcp
