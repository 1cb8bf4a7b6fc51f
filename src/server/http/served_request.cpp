#include "served_request.hpp"

#include <boost/beast/core/string.hpp>

#include <utility>

namespace mcp::detail {

namespace {

// The known headers Beast has no enum for, by their lower-case names.
constexpr std::pair<std::string_view, known_header> named_headers[] = {
    {"mcp-session-id", known_header::mcp_session_id},
    {"mcp-protocol-version", known_header::mcp_protocol_version},
    {"last-event-id", known_header::last_event_id},
    {"mcp-method", known_header::mcp_method},
    {"mcp-name", known_header::mcp_name},
    {"traceparent", known_header::traceparent},
    {"tracestate", known_header::tracestate}};

std::size_t slot(known_header name) { return static_cast<std::size_t>(name); }

}  // namespace

std::optional<std::size_t> known_header_slot(http::field field, std::string_view name) noexcept {
  // By Beast's enum where it has one.
  switch (field) {
    case http::field::accept: return slot(known_header::accept);
    case http::field::content_type: return slot(known_header::content_type);
    case http::field::host: return slot(known_header::host);
    case http::field::origin: return slot(known_header::origin);
    case http::field::unknown: break;
    default: return std::nullopt;
  }
  for (const auto& [lower, header] : named_headers)
    if (name.size() == lower.size() && boost::beast::iequals(name, lower)) return slot(header);
  return std::nullopt;
}

}  // namespace mcp::detail
