#include "http_reply_check.hpp"

#include "sse_events.hpp"

namespace loadgen {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

}  // namespace

std::optional<std::string> message_of(http_reply& reply, reply_style style, std::string& problem) {
  if (reply.status != 200) {
    problem = "HTTP " + std::to_string(reply.status) + ": " + reply.body.substr(0, 200);
    return std::nullopt;
  }
  const bool is_sse = starts_with(reply.content_type, "text/event-stream");
  if (!is_sse && !starts_with(reply.content_type, "application/json")) {
    problem = "unexpected content type " + reply.content_type;
    return std::nullopt;
  }
  if (is_sse != (style == reply_style::sse)) {
    problem = std::string("asked for ") + (style == reply_style::sse ? "SSE" : "JSON") + ", got " + reply.content_type;
    return std::nullopt;
  }
  if (!is_sse) return std::move(reply.body);
  auto events = split_sse(reply.body);
  if (!events || events->size() != 1) {
    problem = "not an SSE stream of one message: " + reply.body.substr(0, 300);
    return std::nullopt;
  }
  return std::move(events->front());
}

std::optional<std::string> check_accepted(const http_reply& reply) {
  if (reply.status == 202 && reply.body.empty()) return std::nullopt;
  return "expected 202 with no body, got HTTP " + std::to_string(reply.status) + ": " + reply.body.substr(0, 200);
}

}  // namespace loadgen
