#pragma once
// The params and results of the methods, as plain structs: with the things
// of types.hpp and lifecycle.hpp they are the types the method table names
// (methods.hpp: method::tools_list::result is list_tools_result). Their JSON
// form is declared in wire.hpp. Sub-objects this library passes through
// without reading them (a sampling message's content, a JSON Schema) stay JSON.
//
// This is the newest form of each. Members of the 2026-07-28 envelope
// (`_meta`, `inputResponses`, `requestState`, `resultType`) are not here: the
// protocol layer adds and reads them around every request.

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mcp {

namespace json = boost::json;

/// The params of a method that takes none, or the result of one that
/// answers nothing but success (EmptyResult).
struct empty_params {};
struct empty_result {};

/// A list request: the cursor of the page asked for (none: the first).
struct paginated_params {
  std::optional<std::string> cursor = {};
};

struct list_tools_result {
  std::vector<tool_info> tools;
  std::optional<std::string> next_cursor = {};
};

struct list_resources_result {
  std::vector<resource_info> resources;
  std::optional<std::string> next_cursor = {};
};

struct list_resource_templates_result {
  std::vector<resource_template_info> resource_templates;
  std::optional<std::string> next_cursor = {};
};

struct list_prompts_result {
  std::vector<prompt_info> prompts;
  std::optional<std::string> next_cursor = {};
};

struct call_tool_params {
  std::string name;
  json::object arguments = {};
};

/// resources/read, resources/subscribe and resources/unsubscribe.
struct resource_params {
  std::string uri;
};

struct read_resource_result {
  std::vector<resource_contents> contents;
};

struct get_prompt_params {
  std::string name;
  std::map<std::string, std::string> arguments = {};
};

/// What completion/complete completes: a prompt's argument
/// (`ref/prompt`, by name) or a resource template's (`ref/resource`, by URI).
struct completion_reference {
  std::string type;
  std::optional<std::string> name = {};
  std::optional<std::string> uri = {};
};

struct completion_argument {
  std::string name;
  std::string value;
};

/// Arguments already resolved, for completions that depend on them.
struct completion_request_context {
  std::map<std::string, std::string> arguments = {};
};

struct complete_params {
  completion_reference ref;
  completion_argument argument;
  std::optional<completion_request_context> context = {};
};

struct complete_result {
  mcp::completion completion;
};

struct set_level_params {
  logging_level level = logging_level::info;
};

/// The answer to server/discover (2026-07-28).
struct discover_result {
  std::vector<std::string> supported_versions;
  json::object capabilities;
  std::optional<std::string> instructions = {};
};

/// What a subscriptions/listen stream is to carry (2026-07-28); absent: not asked.
struct subscription_filter {
  std::optional<bool> tools_list_changed = {};
  std::optional<bool> prompts_list_changed = {};
  std::optional<bool> resources_list_changed = {};
  std::optional<std::vector<std::string>> resource_subscriptions = {};
};

struct listen_params {
  subscription_filter notifications;
};

struct sampling_message {
  std::string role;     ///< "user" or "assistant"
  json::value content;  ///< a content block, or an array of them
};

struct create_message_params {
  std::vector<sampling_message> messages;
  std::int64_t max_tokens = 0;
  std::optional<std::string> system_prompt = {};
  std::optional<std::string> include_context = {};  ///< "none", "thisServer", "allServers"
  std::optional<double> temperature = {};
  std::optional<std::vector<std::string>> stop_sequences = {};
  std::optional<json::object> model_preferences = {};
  std::optional<json::object> metadata = {};
  std::optional<json::array> tools = {};
  std::optional<json::object> tool_choice = {};
};

struct create_message_result {
  std::string role;
  json::value content;
  std::string model;
  std::optional<std::string> stop_reason = {};
};

/// elicitation/create: a form (`requested_schema`) or, from 2025-11-25, a URL to open.
struct elicit_params {
  std::optional<std::string> mode = {};  ///< "form" (the default) or "url"
  std::string message;
  std::optional<json::object> requested_schema = {};
  std::optional<std::string> url = {};
  std::optional<std::string> elicitation_id = {};
};

struct elicit_result {
  std::string action;  ///< "accept", "decline" or "cancel"
  std::optional<json::object> content = {};
};

struct list_roots_result {
  std::vector<root> roots;
};

struct cancelled_params {
  std::optional<mcp::request_id> request_id = {};  ///< required from 2026-07-28
  std::optional<std::string> reason = {};
};

struct progress_notification_params {
  std::variant<std::int64_t, std::string> progress_token;
  double progress = 0;
  std::optional<double> total = {};
  std::optional<std::string> message = {};
};

struct resource_updated_params {
  std::string uri;
};

struct elicitation_complete_params {
  std::string elicitation_id;
};

/// A task of the 2025-11-25 tasks utility (tasks/get answers one).
struct task {
  std::string task_id;
  std::string status;  ///< working, input_required, completed, failed, cancelled
  std::optional<std::string> status_message = {};
  std::string created_at;       ///< ISO 8601
  std::string last_updated_at;  ///< ISO 8601
  json::value ttl = nullptr;  ///< milliseconds, or null: unlimited
  std::optional<std::int64_t> poll_interval = {};
};

struct task_params {
  std::string task_id;
};

struct list_tasks_result {
  std::vector<task> tasks;
  std::optional<std::string> next_cursor = {};
};

}  // namespace mcp
