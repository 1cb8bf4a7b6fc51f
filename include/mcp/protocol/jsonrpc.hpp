#pragma once
// JSON-RPC 2.0 messages as MCP uses them: parsing one frame of text into
// messages (or into the error replies that malformed input deserves) and
// serializing messages back. No I/O here.

#include <mcp/export.hpp>
#include <mcp/protocol/errors.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcp {

/// A request id: a string or an integer. MCP forbids null ids on requests.
using request_id = std::variant<std::int64_t, std::string>;

/// The id as a JSON value: an integer or a string.
MCP_API json::value to_json(const request_id& id);
/// The id as plain text for logs and messages: `7`, `abc` (a string unquoted).
MCP_API std::string to_string(const request_id& id);
/// The id as JSON text (`7`, `"abc"`): how transports name the request a frame belongs to.
MCP_API std::string to_json_text(const request_id& id);
/// Reads an id: a string, or an integer that fits int64; std::nullopt otherwise.
MCP_API std::optional<request_id> parse_request_id(const json::value& value);

/// A request: a message with an id, which its receiver answers with a
/// response or an error response carrying the same id.
struct MCP_API request {
  request_id id;        ///< chosen by the sender; the answer carries it back
  std::string method;   ///< e.g. `tools/call` (methods::tools_call)
  json::object params;  ///< empty when the message had none
};

/// A notification: a message without an id, which gets no answer.
struct MCP_API notification {
  std::string method;   ///< e.g. `notifications/progress` (methods::notifications_progress)
  json::object params;  ///< empty when the message had none
};

/// A successful response.
struct MCP_API response {
  request_id id;       ///< the id of the request it answers
  json::value result;  ///< the method's result (an object in MCP), as received
};

/// An error response. The id is absent (null on the wire) when the request it
/// answers could not be identified, e.g. after a parse error.
struct MCP_API error_response {
  std::optional<request_id> id;  ///< unset: null on the wire
  rpc_error error;               ///< code, message and optional data
};

/// Any JSON-RPC message, as parsed or to be sent.
using message = std::variant<request, notification, response, error_response>;

/// A frame element that is not a valid message, with the reply it deserves.
struct MCP_API invalid_message {
  error_response reply;  ///< -32700 or -32600 (-32602 for a request's array params), with the id when one was read
};

/// One element of a frame: a message, or what could not be read as one.
using frame_item = std::variant<message, invalid_message>;

/// One frame of input (a line on stdio, a body on HTTP) after parsing.
/// A batch keeps its elements in order; a frame that is not a batch has one item.
struct MCP_API parsed_frame {
  bool batch = false;             ///< the frame was a JSON array (a batch), even of one element
  std::vector<frame_item> items;  ///< in frame order
};

/// Parses one frame. Never throws on bad input: malformed JSON becomes a
/// -32700 reply with a null id, a bad message a -32600 (or -32602 for a
/// request whose params are an array) carrying the id when one could be
/// read, and an empty batch a single -32600. Invalid UTF-8 is a parse error.
MCP_API parsed_frame parse_frame(std::string_view text);
/// parse_frame for a frame already parsed with parse_json (moved from: its
/// params become the messages').
MCP_API parsed_frame classify_frame(json::value value);
/// Parses JSON text with the limits parse_frame applies: nesting depth, and
/// numbers a double can hold (1e400 is a parse error: it could not be written back).
MCP_API json::value parse_json(std::string_view text, boost::system::error_code& ec);

/// Classifies one already-parsed JSON value as a message, or as the
/// invalid_message it is.
MCP_API frame_item classify(json::value value);

/// The message as a JSON-RPC object, `"jsonrpc": "2.0"` included; empty
/// params are left out, an error response's missing id is null.
MCP_API json::object to_json(const message& m);
/// The JSON text of to_json(m), written without building that object.
MCP_API std::string serialize(const message& m);
/// Serializes the replies to a batch as one JSON array.
MCP_API std::string serialize_batch(const std::vector<message>& replies);

/// An error response to `id` (unset: a null id) with `code`, `message`
/// and `data` (null: none).
MCP_API error_response make_error(std::optional<request_id> id, int code, std::string message,
                          json::value data = nullptr);

}  // namespace mcp
