#pragma once
// Every method of every revision, named once: the constants code uses
// instead of string literals, a table of what each method is (request or
// notification), who sends it and in which revisions, and a tag per method
// that names its params and result types (messages.hpp; their JSON form is
// in wire.hpp). Tests hold the table to the official schemas. No I/O here.

#include <mcp/export.hpp>
#include <mcp/protocol/versions.hpp>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <tuple>

namespace boost::json {
class object;
}

namespace mcp {

/// A set of protocol revisions.
class MCP_API version_set {
 public:
  /// The empty set.
  constexpr version_set() noexcept = default;
  /// Exactly `versions`: `version_set{protocol_version::v2026_07_28}`.
  constexpr version_set(std::initializer_list<protocol_version> versions) noexcept {
    for (const auto v : versions) bits_ |= bit(v);
  }
  /// `first` and every later revision known to this build.
  static constexpr version_set since(protocol_version first) noexcept {
    version_set s;
    for (auto v = static_cast<unsigned>(first); v <= static_cast<unsigned>(protocol_version::v2026_07_28); ++v)
      s.bits_ |= static_cast<std::uint8_t>(1u << v);
    return s;
  }
  /// `first` up to `last`, both included.
  static constexpr version_set between(protocol_version first, protocol_version last) noexcept {
    version_set s;
    for (auto v = static_cast<unsigned>(first); v <= static_cast<unsigned>(last); ++v)
      s.bits_ |= static_cast<std::uint8_t>(1u << v);
    return s;
  }

  /// Whether `v` is in the set.
  constexpr bool contains(protocol_version v) const noexcept { return (bits_ & bit(v)) != 0; }
  /// Whether no revision is in the set.
  constexpr bool empty() const noexcept { return bits_ == 0; }
  /// The revisions of `a` and those of `b`.
  friend constexpr version_set operator|(version_set a, version_set b) noexcept {
    version_set s;
    s.bits_ = static_cast<std::uint8_t>(a.bits_ | b.bits_);
    return s;
  }
  /// Whether both hold the same revisions.
  friend constexpr bool operator==(version_set, version_set) noexcept = default;

 private:
  static constexpr std::uint8_t bit(protocol_version v) noexcept {
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(v));
  }
  std::uint8_t bits_ = 0;
};

/// The method names. Arrays of char: they convert to std::string and to
/// std::string_view alike.
namespace methods {
// Client to server.
/// Opens a legacy session: revision, capabilities and implementations are exchanged.
inline constexpr char initialize[] = "initialize";
/// Checks that the peer is still there; either side sends it (legacy revisions).
inline constexpr char ping[] = "ping";
/// A server's revisions, capabilities and instructions (2026-07-28).
inline constexpr char server_discover[] = "server/discover";
/// The server's tools, a page at a time.
inline constexpr char tools_list[] = "tools/list";
/// Calls a tool with arguments.
inline constexpr char tools_call[] = "tools/call";
/// The server's resources, a page at a time.
inline constexpr char resources_list[] = "resources/list";
/// The server's resource templates, a page at a time.
inline constexpr char resources_templates_list[] = "resources/templates/list";
/// Reads a resource by its URI.
inline constexpr char resources_read[] = "resources/read";
/// Asks for `notifications/resources/updated` about a resource (legacy
/// revisions; 2026-07-28 has subscriptions/listen).
inline constexpr char resources_subscribe[] = "resources/subscribe";
/// Ends a resources/subscribe (legacy revisions).
inline constexpr char resources_unsubscribe[] = "resources/unsubscribe";
/// The server's prompts, a page at a time.
inline constexpr char prompts_list[] = "prompts/list";
/// A prompt's messages, its template filled with the arguments given.
inline constexpr char prompts_get[] = "prompts/get";
/// Suggested values for an argument of a prompt or a resource template.
inline constexpr char completion_complete[] = "completion/complete";
/// The least severe log level the client wants (legacy revisions; 2026-07-28
/// puts it in each request's envelope).
inline constexpr char logging_set_level[] = "logging/setLevel";
/// Opens a stream of the notifications the client opts in to (2026-07-28).
inline constexpr char subscriptions_listen[] = "subscriptions/listen";
/// A task's current state (2025-11-25; the tasks extension's, in its own shape).
inline constexpr char tasks_get[] = "tasks/get";
/// Lists tasks, a page at a time (2025-11-25).
inline constexpr char tasks_list[] = "tasks/list";
/// The result of the request a task ran, once it ends: answered when the
/// task reaches a terminal status (2025-11-25).
inline constexpr char tasks_result[] = "tasks/result";
/// Cancels a task (2025-11-25; the tasks extension's, in its own shape).
inline constexpr char tasks_cancel[] = "tasks/cancel";
// The skills extension (SEP-2640, `io.modelcontextprotocol/skills`), outside
// every revision's schema, so outside the table below.
/// The server's skills (their entries), a page at a time.
inline constexpr char skills_list[] = "skills/list";
/// One skill's entry, by the URI of its SKILL.md.
inline constexpr char skills_get[] = "skills/get";
/// The direct children of a directory resource (a skill's folder), a page at a time.
inline constexpr char resources_directory_read[] = "resources/directory/read";
// Server to client (in 2026-07-28: the input requests of a multi-round request).
/// Asks the client to sample an LLM.
inline constexpr char sampling_create_message[] = "sampling/createMessage";
/// Asks the user, through the client, for information: a form, or (2025-11-25
/// on) a URL to open.
inline constexpr char elicitation_create[] = "elicitation/create";
/// Asks the client for its roots: the directories or files the server may work on.
inline constexpr char roots_list[] = "roots/list";
// Notifications.
/// The client's answer to the `initialize` result: the session is ready (legacy revisions).
inline constexpr char notifications_initialized[] = "notifications/initialized";
/// The sender no longer wants the result of a request it sent.
inline constexpr char notifications_cancelled[] = "notifications/cancelled";
/// Progress of a request whose `_meta` gave a `progressToken`.
inline constexpr char notifications_progress[] = "notifications/progress";
/// A log message from the server.
inline constexpr char notifications_message[] = "notifications/message";
/// A resource the client subscribed to has changed.
inline constexpr char notifications_resources_updated[] = "notifications/resources/updated";
/// The server's list of resources has changed.
inline constexpr char notifications_resources_list_changed[] = "notifications/resources/list_changed";
/// The server's list of tools has changed.
inline constexpr char notifications_tools_list_changed[] = "notifications/tools/list_changed";
/// The server's list of prompts has changed.
inline constexpr char notifications_prompts_list_changed[] = "notifications/prompts/list_changed";
/// The client's list of roots has changed (legacy revisions).
inline constexpr char notifications_roots_list_changed[] = "notifications/roots/list_changed";
/// The first message on a subscriptions/listen stream: what the server will
/// send on it (2026-07-28).
inline constexpr char notifications_subscriptions_acknowledged[] = "notifications/subscriptions/acknowledged";
/// A URL-mode elicitation has completed (2025-11-25).
inline constexpr char notifications_elicitation_complete[] = "notifications/elicitation/complete";
/// A task's status has changed (2025-11-25).
inline constexpr char notifications_tasks_status[] = "notifications/tasks/status";
// The tasks extension of 2026-07-28 (SEP-2663, `io.modelcontextprotocol/tasks`),
// outside every revision's schema, so outside the table below; it also has
// tasks/get and tasks/cancel, with its own shapes.
/// Answers a task's `inputRequests` with `inputResponses` (tasks extension).
inline constexpr char tasks_update[] = "tasks/update";
/// A task, as tasks/get gives it, on a subscriptions/listen stream that asked
/// for it (tasks extension).
inline constexpr char notifications_tasks[] = "notifications/tasks";
}  // namespace methods

/// A request (answered with a result or an error) or a notification (not answered).
enum class method_kind : std::uint8_t { request, notification };

/// What a method is, and in which revisions each side sends it.
struct MCP_API method_info {
  std::string_view name;  ///< as on the wire: one of the methods:: constants
  method_kind kind;       ///< request or notification
  version_set from_client;  ///< revisions in which a client sends it
  version_set from_server;  ///< revisions in which a server sends it (as a message of its own)
  /// Revisions in which it is an input request of a multi-round request
  /// (2026-07-28: carried in an InputRequiredResult, answered in the retry).
  version_set as_input;
};

/// Every method of every revision known to this build.
MCP_API std::span<const method_info> all_methods() noexcept;
/// The method called `name`; null when no revision has it.
MCP_API const method_info* find_method(std::string_view name) noexcept;

// The types the tags name, declared in messages.hpp, types.hpp and lifecycle.hpp
// (included by wire.hpp with their JSON form): here only named, to keep this
// header light.
struct empty_params;
struct empty_result;
struct initialize_request;
struct initialize_result;
struct paginated_params;
struct list_tools_result;
struct call_tool_params;
struct call_tool_result;
struct list_resources_result;
struct list_resource_templates_result;
struct resource_params;
struct read_resource_result;
struct list_prompts_result;
struct get_prompt_params;
struct get_prompt_result;
struct complete_params;
struct complete_result;
struct set_level_params;
struct discover_result;
struct listen_params;
struct task_params;
struct task;
struct list_tasks_result;
struct detailed_task;
struct task_update_params;
struct create_message_params;
struct create_message_result;
struct elicit_params;
struct elicit_result;
struct list_roots_result;
struct cancelled_params;
struct progress_notification_params;
struct log_message;
struct resource_updated_params;
struct elicitation_complete_params;

/// The typed method table: one tag per method, `name`, `kind`, and the
/// `params` and `result` types (a notification's result is void). What a
/// revision allows of it is `info()`, from the table above. Results are the
/// newest revision's form; members of the 2026-07-28 envelope are added and
/// read by the protocol layer around them.
namespace method {

/// One method: `Name` is its methods:: constant, `Params` and `Result` the
/// types of its params and result (void: a notification, never answered).
template <const char* Name, method_kind Kind, class Params, class Result = void>
struct tag {
  static constexpr std::string_view name = Name;  ///< as on the wire, "tools/call"
  static constexpr method_kind kind = Kind;       ///< request or notification
  using params = Params;  ///< the params type (messages.hpp, types.hpp, lifecycle.hpp)
  using result = Result;  ///< the result type; void for a notification
  /// Its row in the method table: the revisions in which each side sends it;
  /// null for a method outside the table (a tag an application declared for
  /// a method of its own).
  static const method_info* info() noexcept { return find_method(name); }
};

/// The tag of a request: answered with a `Result`.
template <const char* Name, class Params, class Result>
using request = tag<Name, method_kind::request, Params, Result>;
/// The tag of a notification: no result.
template <const char* Name, class Params>
using notification = tag<Name, method_kind::notification, Params>;

/// Tag of methods::initialize.
using initialize = request<methods::initialize, initialize_request, initialize_result>;
/// Tag of methods::ping.
using ping = request<methods::ping, empty_params, empty_result>;
/// Tag of methods::server_discover.
using server_discover = request<methods::server_discover, empty_params, discover_result>;
/// Tag of methods::tools_list.
using tools_list = request<methods::tools_list, paginated_params, list_tools_result>;
/// Tag of methods::tools_call.
using tools_call = request<methods::tools_call, call_tool_params, call_tool_result>;
/// Tag of methods::resources_list.
using resources_list = request<methods::resources_list, paginated_params, list_resources_result>;
/// Tag of methods::resources_templates_list.
using resources_templates_list =
    request<methods::resources_templates_list, paginated_params, list_resource_templates_result>;
/// Tag of methods::resources_read.
using resources_read = request<methods::resources_read, resource_params, read_resource_result>;
/// Tag of methods::resources_subscribe.
using resources_subscribe = request<methods::resources_subscribe, resource_params, empty_result>;
/// Tag of methods::resources_unsubscribe.
using resources_unsubscribe = request<methods::resources_unsubscribe, resource_params, empty_result>;
/// Tag of methods::prompts_list.
using prompts_list = request<methods::prompts_list, paginated_params, list_prompts_result>;
/// Tag of methods::prompts_get.
using prompts_get = request<methods::prompts_get, get_prompt_params, get_prompt_result>;
/// Tag of methods::completion_complete.
using completion_complete = request<methods::completion_complete, complete_params, complete_result>;
/// Tag of methods::logging_set_level.
using logging_set_level = request<methods::logging_set_level, set_level_params, empty_result>;
/// Held open; the result ends the stream (in order) when the server closes it.
using subscriptions_listen = request<methods::subscriptions_listen, listen_params, empty_result>;
/// Tag of methods::tasks_get (2025-11-25's shape).
using tasks_get = request<methods::tasks_get, task_params, task>;
/// Tag of methods::tasks_list.
using tasks_list = request<methods::tasks_list, paginated_params, list_tasks_result>;
/// The result of the request the task ran, whatever it was (its own tag's result).
using tasks_result = request<methods::tasks_result, task_params, boost::json::object>;
/// Tag of methods::tasks_cancel (2025-11-25's shape): answered with the task.
using tasks_cancel = request<methods::tasks_cancel, task_params, task>;
/// Tag of methods::sampling_create_message.
using sampling_create_message =
    request<methods::sampling_create_message, create_message_params, create_message_result>;
/// Tag of methods::elicitation_create.
using elicitation_create = request<methods::elicitation_create, elicit_params, elicit_result>;
/// Tag of methods::roots_list.
using roots_list = request<methods::roots_list, empty_params, list_roots_result>;

/// Tag of methods::notifications_initialized.
using notifications_initialized = notification<methods::notifications_initialized, empty_params>;
/// Tag of methods::notifications_cancelled.
using notifications_cancelled = notification<methods::notifications_cancelled, cancelled_params>;
/// Tag of methods::notifications_progress.
using notifications_progress = notification<methods::notifications_progress, progress_notification_params>;
/// Tag of methods::notifications_message.
using notifications_message = notification<methods::notifications_message, log_message>;
/// Tag of methods::notifications_resources_updated.
using notifications_resources_updated =
    notification<methods::notifications_resources_updated, resource_updated_params>;
/// Tag of methods::notifications_resources_list_changed.
using notifications_resources_list_changed =
    notification<methods::notifications_resources_list_changed, empty_params>;
/// Tag of methods::notifications_tools_list_changed.
using notifications_tools_list_changed = notification<methods::notifications_tools_list_changed, empty_params>;
/// Tag of methods::notifications_prompts_list_changed.
using notifications_prompts_list_changed = notification<methods::notifications_prompts_list_changed, empty_params>;
/// Tag of methods::notifications_roots_list_changed.
using notifications_roots_list_changed = notification<methods::notifications_roots_list_changed, empty_params>;
/// Its params: the filter the stream honors, as `notifications` (listen_params).
using notifications_subscriptions_acknowledged =
    notification<methods::notifications_subscriptions_acknowledged, listen_params>;
/// Tag of methods::notifications_elicitation_complete.
using notifications_elicitation_complete =
    notification<methods::notifications_elicitation_complete, elicitation_complete_params>;
/// Tag of methods::notifications_tasks_status: its params are the task.
using notifications_tasks_status = notification<methods::notifications_tasks_status, task>;

/// The tasks extension of 2026-07-28 (SEP-2663): its forms of the methods it
/// shares with the 2025-11-25 tasks utility, and its own. The server picks
/// these or the tags above by the request's revision, and so does the client.
namespace tasks_extension {
/// tasks/get: the task with what its status carries.
using tasks_get = request<methods::tasks_get, task_params, detailed_task>;
/// tasks/update: answers input requests; acknowledged with an empty result.
using tasks_update = request<methods::tasks_update, task_update_params, empty_result>;
/// tasks/cancel: acknowledged with an empty result, whatever the task's state.
using tasks_cancel = request<methods::tasks_cancel, task_params, empty_result>;
/// notifications/tasks: the task as tasks/get gives it.
using notifications_tasks = notification<methods::notifications_tasks, detailed_task>;
}  // namespace tasks_extension

/// Every tag of the method table, in the order of the names above.
using all = std::tuple<initialize, ping, server_discover, tools_list, tools_call, resources_list,
                       resources_templates_list, resources_read, resources_subscribe, resources_unsubscribe,
                       prompts_list, prompts_get, completion_complete, logging_set_level, subscriptions_listen,
                       tasks_get, tasks_list, tasks_result, tasks_cancel, sampling_create_message,
                       elicitation_create, roots_list, notifications_initialized, notifications_cancelled,
                       notifications_progress, notifications_message, notifications_resources_updated,
                       notifications_resources_list_changed, notifications_tools_list_changed,
                       notifications_prompts_list_changed, notifications_roots_list_changed,
                       notifications_subscriptions_acknowledged, notifications_elicitation_complete,
                       notifications_tasks_status>;

}  // namespace method

}  // namespace mcp
