#pragma once
// The rules of the 2026-07-28 era that a server applies around a handler,
// as plain functions: which legacy methods it no longer has, what a result
// carries besides the handler's own (resultType, caching hints, serverInfo),
// and what a subscriptions/listen stream honors, acknowledges, lets through
// and ends with. No I/O here.

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/versions.hpp>

#include <boost/json/array.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

/// The legacy methods the modern era does not have (its lifecycle, logging
/// and subscriptions moved into the envelope and subscriptions/listen).
/// Exactly five: a method no revision of this era has either (tasks/*) is
/// unknown, and is answered as such.
bool removed_in_modern_era(std::string_view method) noexcept;

/// The names of the modern revisions among `supported`, in their order: what
/// a server offers (server/discover's supportedVersions, a -32022's
/// data.supported).
std::vector<std::string> modern_version_names(std::span<const protocol_version> supported);

/// The result of server/discover: the modern revisions among `supported`,
/// the capabilities as 2026-07-28 has them, and the instructions if any.
json::object make_discover_result(std::span<const protocol_version> supported, json::object capabilities,
                             std::optional<std::string> instructions);

/// Completes a modern result: `resultType` "complete" unless set, caching
/// hints on the results that carry them (none to share for the retry of a
/// multi-round request), and `serverInfo` in `_meta`.
/// `server_info` is as modern_server_info() writes it.
json::object finish_modern_result(const request& req, json::object result, json::object server_info);

/// The envelope's `resultType` of a 2026-07-28 result: "complete",
/// "input_required" or "task"; empty when absent or not a string.
std::string_view result_type_of(const json::object& result) noexcept;

/// The members of 2026-07-28's InputRequiredResult beside its resultType,
/// declared once for the server that writes them and the client that reads
/// them (basic/patterns/mrtr).
struct input_required_members {
  /// Each an InputRequest (input_request) by its key; kept as JSON, in the
  /// server's order, so that a bad entry can be named by its key.
  std::optional<json::object> input_requests;
  std::optional<std::string> request_state;  ///< sealed by the server, opaque to the client
};

/// The result that asks for input: resultType "input_required" and `members`.
json::object input_required_result(input_required_members members);

/// The members of a result as a client reads them: one of the wrong type is left out.
input_required_members read_input_required(const json::object& result);

/// A server's `implementation` as the 2026-07-28 era writes it.
json::object modern_server_info(const implementation& info);

/// `_meta` of a result or notification, made an object if it is not one.
json::object& meta_of(json::object& params);

/// What a subscriptions/listen stream carries (basic/patterns/subscriptions):
/// the part of what the client asked for that the server's capabilities
/// announce.
struct listen_filter {
  bool tools = false;
  bool prompts = false;
  bool resources = false;
  std::vector<std::string> resource_uris;
  /// `notifications/tasks` of these tasks (the tasks extension, SEP-2663).
  std::vector<std::string> task_ids;

  /// Throws protocol_error(-32602) for a malformed `notifications` filter,
  /// and -32021 for `taskIds` from a client (`client_capabilities`) that
  /// does not declare the tasks extension.
  static listen_filter read(const json::object& params, const json::object& capabilities,
                            const json::object& client_capabilities);
  json::object to_json() const;
  /// Whether the stream carries `n`.
  bool admits(const notification& n) const;
};

/// The acknowledgement that opens a listen stream.
json::object listen_acknowledgement(const request_id& id, const listen_filter& honored);
/// The result that ends a listen stream the server closes.
json::object listen_closing_result(const request_id& id);

}  // namespace mcp::detail
