// The access log (include/mcp/server/access_log.hpp): an http.request event
// as a log record, its metadata and measurements as fields.

#include <mcp/log.hpp>
#include <mcp/server/access_log.hpp>

#include <array>
#include <string>

namespace mcp {

namespace {

void log_request(const telemetry::event_data& e) {
  if (!sdk_log_enabled(log_category::access, log_level::info)) return;
  const auto status = e.integer("status").value_or(0);
  // "POST /mcp 200": what a person looks for first.
  const std::string message =
      std::string(e.text("http_method")) + " " + std::string(e.text("path")) + " " + std::to_string(status);
  std::array<log_field, 11> fields{
      log_field{"http_method", e.text("http_method")}, log_field{"path", e.text("path")},
      log_field{"status", status},
      log_field{"duration", e.number("duration").value_or(0)},
      log_field{"bytes_in", static_cast<std::int64_t>(e.number("bytes_in").value_or(0))},
      log_field{"bytes_out", static_cast<std::int64_t>(e.number("bytes_out").value_or(0))},
      log_field{"peer", e.text("peer")}, log_field{"session_id", e.text("session_id")},
      log_field{"method", e.text("method")}, log_field{"user_agent", e.text("user_agent")},
      log_field{"trace_id", e.text("trace_id")}};
  // The text fields that do not apply (no session, no MCP method) are left out.
  std::size_t n = 0;
  for (const auto& f : fields)
    if (f.type != log_field::kind::text || !f.text.empty()) fields[n++] = f;
  detail::write_log(log_category::access, log_level::info, message, {fields.data(), n});
}

}  // namespace

telemetry::subscription enable_access_log() {
  return telemetry::attach({telemetry::event::http_request}, log_request);
}

}  // namespace mcp
