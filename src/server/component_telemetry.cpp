// The telemetry events of tools, resources and prompts (component_telemetry.hpp).

#include "component_telemetry.hpp"
#include "../detail/json_members.hpp"

namespace mcp::detail {

namespace {

std::string_view name_key(telemetry::event e) noexcept {
  switch (e) {
    case telemetry::event::tool_call:
      return "tool";
    case telemetry::event::resource_read:
      return "uri";
    default:
      return "prompt";
  }
}

}  // namespace

component_report::component_report(telemetry::event e, const request& req, const session& s) noexcept
    : event_(e), req_(req), session_(s) {}

void component_report::succeeded(const json::object& result) const {
  emit(detail::flag_member(result, "isError") ? "tool_error" : "ok");
}

void component_report::failed() const { emit("error"); }

void component_report::emit(std::string_view outcome) const {
  const auto key = name_key(event_);
  const auto target = detail::string_member(req_.params, event_ == telemetry::event::resource_read ? "uri" : "name");
  const auto duration = telemetry::seconds_between(started_, std::chrono::steady_clock::now());
  telemetry::emit(event_, {{"duration", duration}},
                  {{key, target}, {"session_id", session_.id()}, {"outcome", outcome}});
}

asio::awaitable<json::object> reported(telemetry::event e, const request& req, request_context& ctx,
                                       asio::awaitable<json::object> work) {
  const component_report report(e, req, ctx.session());
  json::object result;
  try {
    result = co_await std::move(work);
  } catch (...) {
    report.failed();
    throw;
  }
  report.succeeded(result);
  co_return result;
}

}  // namespace mcp::detail
