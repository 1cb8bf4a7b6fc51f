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

#include <mcp/export.hpp>
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

/// The params of a method that takes none.
struct MCP_API empty_params {};
/// The result of a method that answers nothing but success (EmptyResult).
struct MCP_API empty_result {};

/// A list request: the cursor of the page asked for (none: the first).
struct MCP_API paginated_params {
  std::optional<std::string> cursor = {};  ///< opaque: the `nextCursor` of the page before
};

/// A page of `tools/list`.
struct MCP_API list_tools_result {
  std::vector<tool_info> tools;                 ///< the tools on this page
  std::optional<std::string> next_cursor = {};  ///< set: there may be more, asked for with it
};

/// A page of `resources/list`.
struct MCP_API list_resources_result {
  std::vector<resource_info> resources;         ///< the resources on this page
  std::optional<std::string> next_cursor = {};  ///< set: there may be more, asked for with it
};

/// A page of `resources/templates/list`.
struct MCP_API list_resource_templates_result {
  std::vector<resource_template_info> resource_templates;  ///< the templates on this page
  std::optional<std::string> next_cursor = {};  ///< set: there may be more, asked for with it
};

/// A page of `prompts/list`.
struct MCP_API list_prompts_result {
  std::vector<prompt_info> prompts;             ///< the prompts on this page
  std::optional<std::string> next_cursor = {};  ///< set: there may be more, asked for with it
};

/// The params of `tools/call`.
struct MCP_API call_tool_params {
  std::string name;             ///< the tool's name, as `tools/list` gives it
  json::object arguments = {};  ///< checked against the tool's inputSchema; left out when empty
};

/// resources/read, resources/subscribe and resources/unsubscribe.
struct MCP_API resource_params {
  std::string uri;  ///< the resource's URI
};

/// The result of `resources/read`.
struct MCP_API read_resource_result {
  std::vector<resource_contents> contents;  ///< text or blob items; a read may give several
};

/// The params of `prompts/get`.
struct MCP_API get_prompt_params {
  std::string name;  ///< the prompt's name, as `prompts/list` gives it
  /// Values for its arguments, by name, to fill its template; left out when empty.
  std::map<std::string, std::string> arguments = {};
};

/// What completion/complete completes: a prompt's argument
/// (`ref/prompt`, by name) or a resource template's (`ref/resource`, by URI).
struct MCP_API completion_reference {
  std::string type;                      ///< "ref/prompt" or "ref/resource"
  std::optional<std::string> name = {};  ///< ref/prompt: the prompt's name
  std::optional<std::string> uri = {};   ///< ref/resource: the resource template (or a resource's URI)
};

/// The argument being completed.
struct MCP_API completion_argument {
  std::string name;   ///< a prompt argument's name, or a template variable's
  std::string value;  ///< what has been typed so far: the text completions match
};

/// Arguments already resolved, for completions that depend on them (2025-06-18 on).
struct MCP_API completion_request_context {
  std::map<std::string, std::string> arguments = {};  ///< their values, by name; left out when empty
};

/// The params of `completion/complete`.
struct MCP_API complete_params {
  completion_reference ref;      ///< whose argument it is
  completion_argument argument;  ///< the argument and its partial value
  std::optional<completion_request_context> context = {};  ///< the other arguments' values, if given
};

/// The result of `completion/complete`.
struct MCP_API complete_result {
  mcp::completion completion;  ///< the suggested values
};

/// The params of `logging/setLevel` (legacy revisions).
struct MCP_API set_level_params {
  /// The least severe level the client wants: it gets this one and the more
  /// severe ones as `notifications/message`.
  logging_level level = logging_level::info;
};

/// The answer to server/discover (2026-07-28).
struct MCP_API discover_result {
  std::vector<std::string> supported_versions;  ///< revision names; the client picks one of them
  json::object capabilities;                    ///< the ServerCapabilities object
  /// How to use the server: a hint for the model (a client may put it in a
  /// system prompt).
  std::optional<std::string> instructions = {};
};

/// The `data` of a -32022 refusal (errc::unsupported_protocol_version,
/// 2026-07-28): what the server speaks instead of what was asked.
struct MCP_API unsupported_version_data {
  std::vector<std::string> supported;  ///< revision names; the client may retry with one of them
  std::string requested;               ///< the revision the request named
};

/// What a subscriptions/listen stream is to carry (2026-07-28); absent: not asked.
struct MCP_API subscription_filter {
  std::optional<bool> tools_list_changed = {};      ///< true: `notifications/tools/list_changed`
  std::optional<bool> prompts_list_changed = {};    ///< true: `notifications/prompts/list_changed`
  std::optional<bool> resources_list_changed = {};  ///< true: `notifications/resources/list_changed`
  /// `notifications/resources/updated` for these resource URIs (what
  /// `resources/subscribe` did before).
  std::optional<std::vector<std::string>> resource_subscriptions = {};
};

/// The params of `subscriptions/listen` (2026-07-28).
struct MCP_API listen_params {
  /// What the stream is to carry; the server sends no kind not asked for.
  subscription_filter notifications;
};

/// One message of a sampling conversation (a SamplingMessage).
struct MCP_API sampling_message {
  std::string role;     ///< "user" or "assistant"
  json::value content;  ///< a content block, or an array of them
};

/// The params of `sampling/createMessage`.
struct MCP_API create_message_params {
  std::vector<sampling_message> messages;  ///< the conversation to continue, in order
  std::int64_t max_tokens = 0;  ///< the most tokens to sample; the client may sample fewer
  std::optional<std::string> system_prompt = {};  ///< the client may change or leave it out
  std::optional<std::string> include_context = {};  ///< "none", "thisServer", "allServers"
  std::optional<double> temperature = {};         ///< sampling temperature, if the server asks for one
  std::optional<std::vector<std::string>> stop_sequences = {};  ///< sequences that end sampling
  /// ModelPreferences: `hints` and cost, speed and intelligence priorities
  /// (0 to 1); advisory only.
  std::optional<json::object> model_preferences = {};
  std::optional<json::object> metadata = {};  ///< passed to the LLM provider as it is
  /// Tool objects the model may use (2025-11-25 on); only for a client that
  /// declares `sampling.tools`.
  std::optional<json::array> tools = {};
  /// ToolChoice: `mode` "auto" (the default), "required" or "none" (2025-11-25 on).
  std::optional<json::object> tool_choice = {};
};

/// The result of `sampling/createMessage`: the sampled message.
struct MCP_API create_message_result {
  std::string role;    ///< "user" or "assistant"
  json::value content;  ///< a content block, or (2025-11-25 on) an array of them
  std::string model;   ///< the model that generated it
  /// Why sampling stopped, if known: "endTurn", "stopSequence", "maxTokens",
  /// "toolUse", or a provider's own reason.
  std::optional<std::string> stop_reason = {};
};

/// elicitation/create: a form (`requested_schema`) or, from 2025-11-25, a URL to open.
struct MCP_API elicit_params {
  std::optional<std::string> mode = {};  ///< "form" (the default) or "url"
  std::string message;                   ///< shown to the user: what is asked, or why the URL
  /// Form mode: a flat object schema of primitive properties, the form to fill.
  std::optional<json::object> requested_schema = {};
  std::optional<std::string> url = {};             ///< URL mode: the page for the user to open
  std::optional<std::string> elicitation_id = {};  ///< URL mode: unique within the server; opaque to the client
};

/// The result of `elicitation/create`.
struct MCP_API elicit_result {
  std::string action;  ///< "accept", "decline" or "cancel"
  std::optional<json::object> content = {};  ///< the form's values: only for "accept" in form mode
};

/// The result of `roots/list`.
struct MCP_API list_roots_result {
  std::vector<root> roots;  ///< the roots the client offers
};

/// The params of `notifications/cancelled`.
struct MCP_API cancelled_params {
  /// The request to cancel: optional in the 2025-11-25 schema only (tasks are
  /// cancelled with `tasks/cancel`), required in every other revision.
  std::optional<mcp::request_id> request_id = {};
  std::optional<std::string> reason = {};  ///< why, for a log or the user
};

/// The params of `notifications/progress`.
struct MCP_API progress_notification_params {
  /// The `progressToken` the request's `_meta` gave.
  std::variant<std::int64_t, std::string> progress_token;
  double progress = 0;                      ///< progress so far; grows with each notification
  std::optional<double> total = {};         ///< the total to reach, if known
  std::optional<std::string> message = {};  ///< describes the progress (2025-03-26 on)
};

/// The params of `notifications/resources/updated`.
struct MCP_API resource_updated_params {
  std::string uri;  ///< the resource that changed: the one subscribed to, or a sub-resource of it
};

/// The params of `notifications/elicitation/complete` (2025-11-25).
struct MCP_API elicitation_complete_params {
  std::string elicitation_id;  ///< the URL-mode elicitation that completed
};

/// A task of the 2025-11-25 tasks utility: what tasks/get, tasks/cancel,
/// each tasks/list entry and notifications/tasks/status give.
struct MCP_API task {
  std::string task_id;  ///< what tasks/get, tasks/result and tasks/cancel name it by
  task_status status = task_status::working;  ///< where it stands
  /// What the status means: why it was cancelled, what failed, a summary.
  std::optional<std::string> status_message = {};
  std::string created_at;       ///< ISO 8601
  std::string last_updated_at;  ///< ISO 8601
  json::value ttl = nullptr;  ///< milliseconds from creation, or null: unlimited
  std::optional<std::int64_t> poll_interval = {};  ///< suggested wait between polls, in milliseconds
};

/// The answer to a request that became a task (2025-11-25's CreateTaskResult).
struct MCP_API create_task_result {
  mcp::task task;  ///< the task just created
};

/// A task of the 2026-07-28 tasks extension (SEP-2663): the Task, with the
/// names in milliseconds (`ttlMs`, `pollIntervalMs`), and the members its
/// status carries in tasks/get and notifications/tasks (DetailedTask). The
/// answer to a call that became a task is this task without those, with
/// `resultType` "task".
struct MCP_API detailed_task {
  std::string task_id;  ///< what tasks/get, tasks/update and tasks/cancel name it by
  task_status status = task_status::working;  ///< where it stands
  /// What the status means: why it was cancelled, what failed, a summary.
  std::optional<std::string> status_message = {};
  std::string created_at;       ///< ISO 8601
  std::string last_updated_at;  ///< ISO 8601
  json::value ttl_ms = nullptr;  ///< milliseconds from creation, or null: unlimited
  std::optional<std::int64_t> poll_interval_ms = {};  ///< suggested wait between polls
  /// input_required: what the task waits for, by key (each an input request:
  /// `method` and `params`), answered with tasks/update.
  std::optional<json::object> input_requests = {};
  std::optional<json::object> result = {};    ///< completed: the request's result
  std::optional<rpc_error> error = {};        ///< failed: the JSON-RPC error it ended with
};

/// The params of `tasks/get`, `tasks/result` and `tasks/cancel`.
struct MCP_API task_params {
  std::string task_id;  ///< the task asked about
};

/// What a request that became a task (2025-11-25) asks of it: its `task` param.
struct MCP_API task_metadata {
  /// How long to keep the task from its creation, in milliseconds; the
  /// server may keep it for less.
  std::optional<std::int64_t> ttl = {};
};

/// Something a handler needs from the client to go on: an
/// `elicitation/create`, `sampling/createMessage` or `roots/list` request
/// (request_context::ask). In 2026-07-28 it is an entry of an
/// InputRequiredResult's or a task's `inputRequests`, without an id: its key
/// in that map names it, and the answer goes back under the key.
struct MCP_API input_request {
  std::string method;   ///< One of the three input methods; ask() throws mcp::invalid_argument for any other.
  json::object params;  ///< Its params (ask() shapes them for the session's revision).

  /// Form-mode elicitation: asks the user for values matching `requested_schema`.
  static input_request elicitation(std::string message, json::object requested_schema);
  /// `sampling/createMessage` with these params (messages, maxTokens...).
  static input_request sampling(json::object params);
  /// `roots/list` (no params): the client answers with its roots.
  static input_request roots();
};

/// The params of `tasks/update` (the 2026-07-28 tasks extension).
struct MCP_API task_update_params {
  std::string task_id;  ///< the task whose input requests these answer
  /// The answers, by the keys of the task's `inputRequests`: each the result
  /// its input request asked for.
  json::object input_responses;
};

/// A page of `tasks/list`.
struct MCP_API list_tasks_result {
  std::vector<task> tasks;                      ///< the tasks on this page
  std::optional<std::string> next_cursor = {};  ///< set: there may be more, asked for with it
};

}  // namespace mcp
