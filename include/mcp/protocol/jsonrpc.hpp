#pragma once
// JSON-RPC 2.0 messages as MCP uses them: parsing one frame of text into
// messages (or into the error replies that malformed input deserves) and
// serializing messages back. No I/O here.

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

json::value to_json(const request_id& id);
std::string to_string(const request_id& id);
/// The id as JSON text (`7`, `"abc"`): how transports name the request a frame belongs to.
std::string to_json_text(const request_id& id);
/// Reads an id: a string, or an integer that fits int64; std::nullopt otherwise.
std::optional<request_id> parse_request_id(const json::value& value);

struct request {
  request_id id;
  std::string method;
  json::object params;  ///< empty when the message had none
};

struct notification {
  std::string method;
  json::object params;
};

/// A successful response.
struct response {
  request_id id;
  json::value result;
};

/// An error response. The id is absent (null on the wire) when the request it
/// answers could not be identified, e.g. after a parse error.
struct error_response {
  std::optional<request_id> id;
  rpc_error error;
};

using message = std::variant<request, notification, response, error_response>;

/// A frame element that is not a valid message, with the reply it deserves.
struct invalid_message {
  error_response reply;
};

using frame_item = std::variant<message, invalid_message>;

/// One frame of input (a line on stdio, a body on HTTP) after parsing.
/// A batch keeps its elements in order; a frame that is not a batch has one item.
struct parsed_frame {
  bool batch = false;
  std::vector<frame_item> items;
};

/// Parses one frame. Never throws on bad input: malformed JSON becomes a
/// -32700 reply with a null id, a bad message a -32600 (or -32602 for
/// non-object params) carrying the id when one could be read, and an empty
/// batch a single -32600. Invalid UTF-8 is a parse error.
parsed_frame parse_frame(std::string_view text);
/// parse_frame for a frame already parsed with parse_json (moved from: its
/// params become the messages').
parsed_frame classify_frame(json::value value);
/// Parses JSON text with the limits parse_frame applies: nesting depth, and
/// numbers a double can hold (1e400 is a parse error: it could not be written back).
json::value parse_json(std::string_view text, boost::system::error_code& ec);

/// Classifies one already-parsed JSON value as a message.
frame_item classify(json::value value);

json::object to_json(const message& m);
std::string serialize(const message& m);
/// Serializes the replies to a batch as one JSON array.
std::string serialize_batch(const std::vector<message>& replies);

/// Convenience constructors for the error replies the engine sends.
error_response make_error(std::optional<request_id> id, int code, std::string message,
                          json::value data = nullptr);

}  // namespace mcp
