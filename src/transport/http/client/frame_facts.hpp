#pragma once
// What the HTTP client transport must know of a frame it sends or receives,
// in its own terms: plain data, no Asio, so that protocol/'s rules of MCP
// over HTTP (protocol/http_client_rules) can fill it directly for the
// message_binding that hands it over. Requests are named by the JSON text of
// their ids (`7`, `"abc"`), as frame_context names them.

#include <mcp/transport/frame.hpp>

#include <boost/container/small_vector.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcp::detail::http_client {

/// What a frame to send holds.
struct outgoing_facts {
  outgoing_facts() {}  // not an aggregate (docs/compilers.md)
  /// The requests whose answers the transport reads back (mostly one, kept in place).
  boost::container::small_vector<std::string, 1> requests;
  /// It opens a new session: sent without the headers of the old one.
  bool opens_session = false;
  /// It completes the session's handshake: the GET stream may open.
  bool session_ready = false;
  /// Requests whose answers are no longer wanted.
  std::vector<std::string> cancelled;
  /// Headers that route the frame on their own, outside any session: a frame
  /// with them carries no session headers.
  std::vector<std::pair<std::string, std::string>> routing_headers;
};

/// What a request frame holds, as its sender said (frame_context::request).
inline outgoing_facts facts_of(sent_request request) {
  outgoing_facts facts;
  facts.requests.push_back(std::move(request.id));
  facts.opens_session = request.opens_session;
  facts.routing_headers = std::move(request.routing_headers);
  return facts;
}

/// What a received body or event holds.
struct received_facts {
  received_facts() {}
  bool valid = false;                 ///< a message the transport may deliver
  std::vector<std::string> answered;  ///< the requests it answers
  bool error_without_id = false;      ///< an error answer that names no request
  /// The text as read (valid): handed on with it, so that it is parsed once.
  std::optional<boost::json::value> parsed;
};

}  // namespace mcp::detail::http_client
