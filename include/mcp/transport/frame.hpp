#pragma once
// The frames a transport moves, as plain data: what it read, and what an
// outgoing frame belongs to. No Asio here, so that the sans-io protocol core
// (src/protocol/) can speak of frames without depending on I/O.

#include <mcp/export.hpp>

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcp {

/// One frame read from a transport.
struct MCP_API inbound_frame {
  /// The frame as read: one JSON-RPC message or batch, not yet parsed.
  std::string text;
  /// The frame exceeded the transport's size bound and was discarded;
  /// `text` is empty. The engine answers it and reads on.
  bool oversized = false;
  /// The frame as JSON, when the transport had to parse it already (HTTP looks
  /// into a POST body to answer it): the engine then does not parse it again,
  /// and `text` may be left empty.
  std::optional<boost::json::value> parsed = {};
};

/// What an outgoing request frame is, told by the sender that wrote it (the
/// client's calls): a transport that must know what a frame holds (HTTP)
/// then does not parse it back.
struct MCP_API sent_request {
  std::string id;              ///< the request's id as JSON text: `7`
  bool opens_session = false;  ///< it is `initialize`
  /// Headers that route the request on their own, outside any session: a
  /// 2026-07-28 request's MCP-Protocol-Version, Mcp-Method and Mcp-Name.
  std::vector<std::pair<std::string, std::string>> routing_headers = {};
};

/// Which inbound requests an outgoing frame belongs to, for transports with
/// more than one stream (Streamable HTTP answers each POST on its own).
/// Request ids are given as their JSON text: `7`, `"abc"`.
struct MCP_API frame_context {
  /// Why a request was refused, for transports that say it besides the
  /// message: Streamable HTTP answers a 2026-07-28 request the protocol
  /// refuses with 400, or 404 for an unknown method; a request refused for
  /// want of OAuth scopes (either era) gets 403 and a scope challenge.
  enum class refusal : unsigned char { none, invalid_request, unknown_method, insufficient_scope };

  /// The requests this frame answers (one; several for a batch reply).
  std::vector<std::string> answers;
  /// The request this frame serves when it is not its answer: progress, a
  /// log message or a server-to-client request made while handling it.
  std::string related;
  /// Set on an answer that refuses its request.
  refusal refused = refusal::none;
  /// Headers a client's HTTP transport adds to this request's POST, as
  /// they are: the `Mcp-Param-*` mirrors of a tool's `x-mcp-header`
  /// arguments, encoded as MCP says (Base64 when not a plain header value).
  std::vector<std::pair<std::string, std::string>> headers = {};
  /// Set on a frame that is one request its sender wrote itself.
  std::optional<sent_request> request = {};
};

}  // namespace mcp
