#pragma once
// The input side of a 2026-07-28 request (multi round-trip requests, MRTR):
// what the client answered with this request (`inputResponses`) and what
// earlier rounds carried in its `requestState`. The engine opens one for
// every modern request through input_rounds; request_context::ask reads and
// extends it; a round that needs more ends with input_rounds::input_required.

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/versions.hpp>

#include "request_state.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

namespace json = boost::json;

struct input_round {
  bool accepts_input = false;  // tools/call, prompts/get and resources/read may ask for input
  json::object given;    // the request's own inputResponses
  json::object answers;  // answers taken: carried from earlier rounds, then those ask() accepted
  json::value carried;   // request_context::carry()
};

/// Opens and ends the rounds of one connection's requests, with the key that
/// signs their requestState. `principal` stands for the client a state is
/// bound to (its identity, or its credentials; may be empty).
class input_rounds {
 public:
  input_rounds(std::string key, std::chrono::seconds ttl) : states_(std::move(key), ttl) {}

  /// The round of a modern request: for a method that accepts input, the
  /// answers it brings and those an earlier round carried. Throws protocol_error(-32602) for malformed
  /// inputResponses or requestState, or a state that does not open
  /// (altered, expired, or sealed for another request or principal).
  std::unique_ptr<input_round> open(const request& req, std::string_view principal) const;

  /// The InputRequiredResult that ends `round`, asking for `input_requests`
  /// (by key: {method, params}): its requestState carries what the next
  /// round needs, and one is always sent when nothing is asked.
  /// `server_info` as modern_server_info() writes it.
  json::object input_required(const request& req, json::object input_requests, const input_round& round,
                              std::string_view principal, json::object server_info) const;

 private:
  request_state_codec states_;
};

/// Whether `answer` reads as the declared result of the input request
/// `method` (elicit_result, create_message_result, list_roots_result), with
/// an action the spec names and a content that is a block or a list of them.
bool answers_input(std::string_view method, const json::value& answer);

/// True for the requests a server may send for input: elicitation/create,
/// sampling/createMessage and roots/list.
bool is_input_request(std::string_view method) noexcept;

/// The client capability an input request needs (`elicitation`, `sampling`, `roots`).
std::string_view capability_for(std::string_view method) noexcept;

/// Whether `client_capabilities` declare the capability input request `method` needs.
bool declares_capability_for(std::string_view method, const json::object& client_capabilities) noexcept;

/// Why a legacy session cannot send the input request `method` with `params`
/// (its revision or its client lacks what the request needs), or nothing.
std::optional<std::string> legacy_input_refusal(std::string_view method, const json::object& params,
                                                const dialect& d, const json::object& client_capabilities);

/// True for the methods whose handlers may ask for input.
bool accepts_input(std::string_view method) noexcept;

}  // namespace mcp::detail
