#pragma once
// The input side of a 2026-07-28 request (multi round-trip requests, MRTR):
// what the client answered with this request (`inputResponses`) and what
// earlier rounds carried in its `requestState`. The engine makes one for
// every modern request; request_context::ask reads and extends it.

#include <mcp/protocol/envelope.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string_view>

namespace mcp::detail {

namespace json = boost::json;

struct input_round {
  json::object client_capabilities;  // of this request's envelope
  trace_context trace;
  bool accepts_input = false;  // tools/call, prompts/get and resources/read may ask for input
  json::object given;    // the request's own inputResponses
  json::object answers;  // answers taken: carried from earlier rounds, then those ask() accepted
  json::value carried;   // request_context::carry()
};

/// Whether `answer` has the shape of a result of the input request `method`
/// (an ElicitResult, CreateMessageResult or ListRootsResult).
bool answers_input(std::string_view method, const json::value& answer) noexcept;

/// The client capability an input request needs (`elicitation`, `sampling`, `roots`).
std::string_view capability_for(std::string_view method) noexcept;

/// True for the methods whose handlers may ask for input.
bool accepts_input(std::string_view method) noexcept;

}  // namespace mcp::detail
