#pragma once
// The JSON form of the protocol types, declared once: which members go on
// the wire, under which key, in which order, and which are left out while
// they hold their default. mcp::to_json_value writes it and mcp::from_json
// reads it, for the library (the server's listings and results, the client's
// readers, the CLI's --json) and for its users alike.
//
// This is the newest revision's form; protocol/shaping narrows it to what an
// older revision defines. Members that never go on the wire (cache hints,
// required scopes) are not listed, so they are neither written nor read.

#include <mcp/json/convert.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/messages.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include <tuple>

namespace mcp {

// Left out of the API reference: Doxygen cannot read the
// BOOST_DESCRIBE_STRUCT lines, and the mcp_fields hooks are for
// to_json_value and from_json to find, not for a caller.
/// \cond
BOOST_DESCRIBE_STRUCT(tool_annotations, (),
                      (title, read_only_hint, destructive_hint, idempotent_hint, open_world_hint))
inline auto mcp_fields(type_t<tool_annotations>) {
  return std::tuple{field(&tool_annotations::read_only_hint).key("readOnlyHint"),
                    field(&tool_annotations::destructive_hint).key("destructiveHint"),
                    field(&tool_annotations::idempotent_hint).key("idempotentHint"),
                    field(&tool_annotations::open_world_hint).key("openWorldHint")};
}

BOOST_DESCRIBE_ENUM(task_support, forbidden, optional, required)

BOOST_DESCRIBE_STRUCT(tool_info, (),
                      (name, description, input_schema, title, output_schema, annotations, icons, meta))
inline auto mcp_fields(type_t<tool_info>) {
  return std::tuple{field(&tool_info::description).not_required(),
                    field(&tool_info::input_schema).key("inputSchema"),
                    field(&tool_info::output_schema).key("outputSchema"),
                    field(&tool_info::annotations).omit_if_default(),
                    field(&tool_info::icons).omit_if_default(),
                    field(&tool_info::meta).key("_meta").omit_if_default()};
}

BOOST_DESCRIBE_STRUCT(resource_info, (),
                      (uri, name, title, description, mime_type, size, annotations, icons, meta))
inline auto mcp_fields(type_t<resource_info>) {
  return std::tuple{field(&resource_info::name).not_required(),  // read: the URI when absent
                    field(&resource_info::mime_type).key("mimeType"),
                    field(&resource_info::annotations).omit_if_default(),
                    field(&resource_info::icons).omit_if_default(),
                    field(&resource_info::meta).key("_meta").omit_if_default()};
}

BOOST_DESCRIBE_STRUCT(resource_template_info, (),
                      (uri_template, name, title, description, mime_type, annotations, icons, meta))
inline auto mcp_fields(type_t<resource_template_info>) {
  return std::tuple{field(&resource_template_info::uri_template).key("uriTemplate"),
                    field(&resource_template_info::name).not_required(),  // read: the template when absent
                    field(&resource_template_info::mime_type).key("mimeType"),
                    field(&resource_template_info::annotations).omit_if_default(),
                    field(&resource_template_info::icons).omit_if_default(),
                    field(&resource_template_info::meta).key("_meta").omit_if_default()};
}

BOOST_DESCRIBE_STRUCT(prompt_argument, (), (name, title, description, required))
inline auto mcp_fields(type_t<prompt_argument>) {
  return std::tuple{field(&prompt_argument::required).omit_if_default()};
}

BOOST_DESCRIBE_STRUCT(prompt_info, (), (name, title, description, arguments, icons, meta))
inline auto mcp_fields(type_t<prompt_info>) {
  return std::tuple{field(&prompt_info::arguments).omit_if_default(),
                    field(&prompt_info::icons).omit_if_default(),
                    field(&prompt_info::meta).key("_meta").omit_if_default()};
}

BOOST_DESCRIBE_STRUCT(prompt_message, (), (role, content))
inline auto mcp_fields(type_t<prompt_message>) {
  return std::tuple{field(&prompt_message::content).not_required()};
}

BOOST_DESCRIBE_STRUCT(get_prompt_result, (), (messages, description))
inline auto mcp_fields(type_t<get_prompt_result>) {
  return std::tuple{field(&get_prompt_result::messages).not_required()};
}

// `text` and `blob` are alternatives: resource_contents::to_json() writes the one it holds.
BOOST_DESCRIBE_STRUCT(resource_contents, (), (uri, mime_type, text, blob, meta))
inline auto mcp_fields(type_t<resource_contents>) {
  return std::tuple{field(&resource_contents::mime_type).key("mimeType"),
                    field(&resource_contents::meta).key("_meta").omit_if_default()};
}

BOOST_DESCRIBE_STRUCT(call_tool_result, (), (content, structured_content, is_error, meta))
inline auto mcp_fields(type_t<call_tool_result>) {
  return std::tuple{field(&call_tool_result::content).not_required(),
                    field(&call_tool_result::structured_content).key("structuredContent"),
                    field(&call_tool_result::is_error).key("isError").omit_if_default(),
                    field(&call_tool_result::meta).key("_meta").omit_if_default()};
}

BOOST_DESCRIBE_ENUM(logging_level, debug, info, notice, warning, error, critical, alert, emergency)

// In the order servers have always written it: level, data, logger.
BOOST_DESCRIBE_STRUCT(log_message, (), (level, data, logger))
inline auto mcp_fields(type_t<log_message>) {
  return std::tuple{field(&log_message::data).not_required(),
                    field(&log_message::logger).omit_if_default()};
}

BOOST_DESCRIBE_STRUCT(root, (), (uri, name))

BOOST_DESCRIBE_STRUCT(completion, (), (values, total, has_more))
inline auto mcp_fields(type_t<completion>) {
  return std::tuple{field(&completion::values).not_required(),
                    field(&completion::has_more).key("hasMore").not_required()};
}

BOOST_DESCRIBE_STRUCT(implementation, (), (name, version, title, description, website_url, icons))
inline auto mcp_fields(type_t<implementation>) {
  return std::tuple{field(&implementation::website_url).key("websiteUrl"),
                    field(&implementation::icons).omit_if_default()};
}

BOOST_DESCRIBE_STRUCT(initialize_request, (), (protocol_version, capabilities, client_info))
inline auto mcp_fields(type_t<initialize_request>) {
  return std::tuple{field(&initialize_request::protocol_version).key("protocolVersion"),
                    field(&initialize_request::client_info).key("clientInfo")};
}

// The params and results of the methods (messages.hpp).

BOOST_DESCRIBE_STRUCT(empty_params, (), ())
BOOST_DESCRIBE_STRUCT(empty_result, (), ())
BOOST_DESCRIBE_STRUCT(paginated_params, (), (cursor))

BOOST_DESCRIBE_STRUCT(list_tools_result, (), (tools, next_cursor))
inline auto mcp_fields(type_t<list_tools_result>) {
  return std::tuple{field(&list_tools_result::next_cursor).key("nextCursor")};
}
BOOST_DESCRIBE_STRUCT(list_resources_result, (), (resources, next_cursor))
inline auto mcp_fields(type_t<list_resources_result>) {
  return std::tuple{field(&list_resources_result::next_cursor).key("nextCursor")};
}
BOOST_DESCRIBE_STRUCT(list_resource_templates_result, (), (resource_templates, next_cursor))
inline auto mcp_fields(type_t<list_resource_templates_result>) {
  return std::tuple{field(&list_resource_templates_result::resource_templates).key("resourceTemplates"),
                    field(&list_resource_templates_result::next_cursor).key("nextCursor")};
}
BOOST_DESCRIBE_STRUCT(list_prompts_result, (), (prompts, next_cursor))
inline auto mcp_fields(type_t<list_prompts_result>) {
  return std::tuple{field(&list_prompts_result::next_cursor).key("nextCursor")};
}

BOOST_DESCRIBE_STRUCT(call_tool_params, (), (name, arguments))
inline auto mcp_fields(type_t<call_tool_params>) {
  return std::tuple{field(&call_tool_params::arguments).omit_if_default()};
}
BOOST_DESCRIBE_STRUCT(resource_params, (), (uri))
BOOST_DESCRIBE_STRUCT(read_resource_result, (), (contents))
BOOST_DESCRIBE_STRUCT(get_prompt_params, (), (name, arguments))
inline auto mcp_fields(type_t<get_prompt_params>) {
  return std::tuple{field(&get_prompt_params::arguments).omit_if_default()};
}

BOOST_DESCRIBE_STRUCT(completion_reference, (), (type, name, uri))
BOOST_DESCRIBE_STRUCT(completion_argument, (), (name, value))
BOOST_DESCRIBE_STRUCT(completion_request_context, (), (arguments))
inline auto mcp_fields(type_t<completion_request_context>) {
  return std::tuple{field(&completion_request_context::arguments).omit_if_default()};
}
BOOST_DESCRIBE_STRUCT(complete_params, (), (ref, argument, context))
BOOST_DESCRIBE_STRUCT(complete_result, (), (completion))
BOOST_DESCRIBE_STRUCT(set_level_params, (), (level))
inline auto mcp_fields(type_t<set_level_params>) {
  return std::tuple{field(&set_level_params::level).required()};  // (the C++ default is for a caller)
}

BOOST_DESCRIBE_STRUCT(unsupported_version_data, (), (supported, requested))
inline auto mcp_fields(type_t<unsupported_version_data>) {
  return std::tuple{field(&unsupported_version_data::requested).not_required()};  // (read: only supported matters)
}
BOOST_DESCRIBE_STRUCT(discover_result, (), (supported_versions, capabilities, instructions))
inline auto mcp_fields(type_t<discover_result>) {
  // (Read without capabilities as a server that declares none.)
  return std::tuple{field(&discover_result::supported_versions).key("supportedVersions"),
                    field(&discover_result::capabilities).not_required()};
}
BOOST_DESCRIBE_STRUCT(subscription_filter, (),
                      (tools_list_changed, prompts_list_changed, resources_list_changed, resource_subscriptions))
inline auto mcp_fields(type_t<subscription_filter>) {
  return std::tuple{field(&subscription_filter::tools_list_changed).key("toolsListChanged"),
                    field(&subscription_filter::prompts_list_changed).key("promptsListChanged"),
                    field(&subscription_filter::resources_list_changed).key("resourcesListChanged"),
                    field(&subscription_filter::resource_subscriptions).key("resourceSubscriptions")};
}
BOOST_DESCRIBE_STRUCT(listen_params, (), (notifications))

BOOST_DESCRIBE_STRUCT(sampling_message, (), (role, content))
BOOST_DESCRIBE_STRUCT(create_message_params, (),
                      (messages, max_tokens, system_prompt, include_context, temperature, stop_sequences,
                       model_preferences, metadata, tools, tool_choice))
inline auto mcp_fields(type_t<create_message_params>) {
  return std::tuple{field(&create_message_params::max_tokens).key("maxTokens"),
                    field(&create_message_params::system_prompt).key("systemPrompt"),
                    field(&create_message_params::include_context).key("includeContext"),
                    field(&create_message_params::stop_sequences).key("stopSequences"),
                    field(&create_message_params::model_preferences).key("modelPreferences"),
                    field(&create_message_params::tool_choice).key("toolChoice")};
}
BOOST_DESCRIBE_STRUCT(create_message_result, (), (role, content, model, stop_reason))
inline auto mcp_fields(type_t<create_message_result>) {
  return std::tuple{field(&create_message_result::stop_reason).key("stopReason")};
}
BOOST_DESCRIBE_STRUCT(elicit_params, (), (mode, message, requested_schema, url, elicitation_id))
inline auto mcp_fields(type_t<elicit_params>) {
  return std::tuple{field(&elicit_params::requested_schema).key("requestedSchema"),
                    field(&elicit_params::elicitation_id).key("elicitationId")};
}
BOOST_DESCRIBE_STRUCT(elicit_result, (), (action, content))
BOOST_DESCRIBE_STRUCT(list_roots_result, (), (roots))

BOOST_DESCRIBE_STRUCT(cancelled_params, (), (request_id, reason))
inline auto mcp_fields(type_t<cancelled_params>) {
  return std::tuple{field(&cancelled_params::request_id).key("requestId")};
}
BOOST_DESCRIBE_STRUCT(progress_notification_params, (), (progress_token, progress, total, message))
inline auto mcp_fields(type_t<progress_notification_params>) {
  return std::tuple{field(&progress_notification_params::progress_token).key("progressToken")};
}
BOOST_DESCRIBE_STRUCT(resource_updated_params, (), (uri))
BOOST_DESCRIBE_STRUCT(elicitation_complete_params, (), (elicitation_id))
inline auto mcp_fields(type_t<elicitation_complete_params>) {
  return std::tuple{field(&elicitation_complete_params::elicitation_id).key("elicitationId")};
}

// The error object of a JSON-RPC response, and of a failed task.
BOOST_DESCRIBE_STRUCT(rpc_error, (), (code, message, data))
inline auto mcp_fields(type_t<rpc_error>) {
  return std::tuple{field(&rpc_error::code).required(), field(&rpc_error::data).omit_if_default()};
}

BOOST_DESCRIBE_ENUM(task_status, working, input_required, completed, failed, cancelled)
// A task is read as long as it has an id and a status: the times and the ttl
// are the server's to say, and a client polls without them.
BOOST_DESCRIBE_STRUCT(task, (),
                      (task_id, status, status_message, created_at, last_updated_at, ttl, poll_interval))
inline auto mcp_fields(type_t<task>) {
  return std::tuple{field(&task::task_id).key("taskId"), field(&task::status).required(),
                    field(&task::status_message).key("statusMessage"),
                    field(&task::created_at).key("createdAt").not_required(),
                    field(&task::last_updated_at).key("lastUpdatedAt").not_required(),
                    field(&task::ttl).not_required(), field(&task::poll_interval).key("pollInterval")};
}
BOOST_DESCRIBE_STRUCT(create_task_result, (), (task))
BOOST_DESCRIBE_STRUCT(detailed_task, (),
                      (task_id, status, status_message, created_at, last_updated_at, ttl_ms, poll_interval_ms,
                       input_requests, result, error))
inline auto mcp_fields(type_t<detailed_task>) {
  return std::tuple{field(&detailed_task::task_id).key("taskId"), field(&detailed_task::status).required(),
                    field(&detailed_task::status_message).key("statusMessage"),
                    field(&detailed_task::created_at).key("createdAt").not_required(),
                    field(&detailed_task::last_updated_at).key("lastUpdatedAt").not_required(),
                    field(&detailed_task::ttl_ms).key("ttlMs").not_required(),
                    field(&detailed_task::poll_interval_ms).key("pollIntervalMs"),
                    field(&detailed_task::input_requests).key("inputRequests")};
}
BOOST_DESCRIBE_STRUCT(task_params, (), (task_id))
inline auto mcp_fields(type_t<task_params>) { return std::tuple{field(&task_params::task_id).key("taskId")}; }
BOOST_DESCRIBE_STRUCT(task_metadata, (), (ttl))
BOOST_DESCRIBE_STRUCT(input_request, (), (method, params))
inline auto mcp_fields(type_t<input_request>) { return std::tuple{field(&input_request::params).not_required()}; }
BOOST_DESCRIBE_STRUCT(task_update_params, (), (task_id, input_responses))
inline auto mcp_fields(type_t<task_update_params>) {
  return std::tuple{field(&task_update_params::task_id).key("taskId"),
                    field(&task_update_params::input_responses).key("inputResponses")};
}
BOOST_DESCRIBE_STRUCT(list_tasks_result, (), (tasks, next_cursor))
inline auto mcp_fields(type_t<list_tasks_result>) {
  return std::tuple{field(&list_tasks_result::next_cursor).key("nextCursor")};
}
/// \endcond

}  // namespace mcp
