// The server and client tracing links (include/mcp/telemetry/mcp_tracing.hpp):
// spans after OpenTelemetry's semantic conventions for MCP
// (semantic-conventions-genai, docs/gen-ai/mcp.md).

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/server/context.hpp>
#include <mcp/telemetry/mcp_tracing.hpp>

#include "../detail/json_members.hpp"

#include <boost/system/system_error.hpp>

namespace mcp::telemetry {

namespace {

using mcp::detail::string_member;

bool names_tool(std::string_view method) noexcept { return method == methods::tools_call; }
bool names_prompt(std::string_view method) noexcept { return method == methods::prompts_get; }

// `{mcp.method.name} {target}`, the target being the tool or prompt name;
// never the resource URI, which would make names of high cardinality.
std::string span_name(std::string_view method, const json::object& params) {
  std::string name(method);
  if (names_tool(method) || names_prompt(method)) {
    if (const auto target = string_member(params, "name"); !target.empty()) {
      name += ' ';
      name += target;
    }
  }
  return name;
}

// What both sides record of a request's method and params.
void describe_call(span& s, std::string_view method, const json::object& params) {
  s.set_attribute("mcp.method.name", std::string(method));
  const auto name = string_member(params, "name");
  if (names_tool(method)) {
    s.set_attribute("gen_ai.operation.name", std::string("execute_tool"));
    if (!name.empty()) s.set_attribute("gen_ai.tool.name", std::string(name));
  } else if (names_prompt(method) && !name.empty()) {
    s.set_attribute("gen_ai.prompt.name", std::string(name));
  }
  if (const auto uri = string_member(params, "uri"); !uri.empty()) s.set_attribute("mcp.resource.uri", std::string(uri));
}

// The transport underneath, as network.transport and network.protocol.name name it.
void describe_transport(span& s, const mcp::session& session) {
  const auto& kind = session.transport().kind;
  if (kind == "stdio") {
    s.set_attribute("network.transport", std::string("pipe"));
  } else if (kind == "http" || kind == "websocket") {
    s.set_attribute("network.transport", std::string("tcp"));
    s.set_attribute("network.protocol.name", kind);
  }
}

void describe_session(span& s, const mcp::session& session) {
  // (A 2026-07-28 request's session is the request's own, not an MCP session.)
  if (!session.per_request()) s.set_attribute("mcp.session.id", session.id());
  s.set_attribute("mcp.protocol.version", std::string(to_string(session.version())));
  describe_transport(s, session);
}

// A tool result with isError: the call succeeded, the tool failed.
void note_tool_error(span& s, std::string_view method, const json::object& result) {
  if (!names_tool(method)) return;
  if (mcp::detail::flag_member(result, "isError")) s.set_error("tool_error");
}

void note_rpc_error(span& s, const rpc_error& error) {
  const auto code = std::to_string(error.code);
  s.set_attribute("rpc.response.status_code", code);
  s.set_error(code, error.message);
}

// What the client's caller sees of a failure: a JSON-RPC error, a timeout,
// the connection gone.
void note_client_failure(span& s, std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const protocol_error& e) {
    note_rpc_error(s, e.error());
  } catch (const boost::system::system_error& e) {
    const bool timed_out = e.code() == boost::system::errc::timed_out;
    s.set_error(timed_out ? "timeout" : "_OTHER", e.what());
  } catch (const std::exception& e) {
    s.set_error("_OTHER", e.what());
  } catch (...) {
    s.set_error("_OTHER");
  }
}

class server_tracing_link final : public server_middleware {
 public:
  explicit server_tracing_link(std::shared_ptr<const tracer> t) : tracer_(std::move(t)) {}

  asio::awaitable<json::object> on_request(const request& req, request_context& ctx, request_next next) override {
    const auto parent = parse_trace(ctx.trace()).value_or(span_context{});
    auto s = tracer_->start_span(span_name(req.method, req.params), span_kind::server, parent);
    if (s.recording()) {
      describe_call(s, req.method, req.params);
      s.set_attribute("jsonrpc.request.id", to_string(req.id));
      describe_session(s, ctx.session());
    }
    // The handler, and whatever it calls, run in the server span.
    auto inner = s.context().to_trace(ctx.trace().baggage);
    ctx.set_trace(std::move(inner));
    std::exception_ptr failure;
    try {
      auto result = co_await next(req, ctx);
      note_tool_error(s, req.method, result);
      co_return result;
    } catch (const input_required&) {
      throw;  // not a failure: the request goes on in the client's next round
    } catch (const protocol_error& e) {
      note_rpc_error(s, e.error());
      throw;
    } catch (...) {
      failure = std::current_exception();
    }
    // The engine answers any other exception with -32603, or not at all
    // when the client cancelled the request.
    if (ctx.cancelled()) {
      s.set_error("cancelled", "cancelled by the client");
    } else {
      std::string message = "unknown exception";
      try {
        std::rethrow_exception(failure);
      } catch (const std::exception& e) {
        message = e.what();
      } catch (...) {
      }
      note_rpc_error(s, rpc_error{static_cast<int>(errc::internal_error), std::move(message), nullptr});
    }
    std::rethrow_exception(failure);
  }

  asio::awaitable<void> on_notification(const notification& n, mcp::session& session,
                                        notification_next next) override {
    const auto parent = parse_trace(trace_of(n.params)).value_or(span_context{});
    auto s = tracer_->start_span(std::string(n.method), span_kind::server, parent);
    if (s.recording()) {
      describe_call(s, n.method, n.params);
      describe_session(s, session);
    }
    try {
      co_await next(n, session);
    } catch (const std::exception& e) {
      s.set_error("_OTHER", e.what());
      throw;
    }
  }

 private:
  std::shared_ptr<const tracer> tracer_;
};

class client_tracing_link final : public client_middleware {
 public:
  explicit client_tracing_link(std::shared_ptr<const tracer> t) : tracer_(std::move(t)) {}

  asio::awaitable<json::object> on_request(outgoing_request req, client_next next) override {
    // The caller's trace: call_options::trace, or a traceparent it wrote itself.
    auto outer = req.trace.empty() ? trace_of(req.params) : req.trace;
    const auto parent = parse_trace(outer).value_or(span_context{});
    auto s = tracer_->start_span(span_name(req.method, req.params), span_kind::client, parent);
    if (s.recording()) describe_call(s, req.method, req.params);
    req.trace = s.context().to_trace(std::move(outer.baggage));
    write_trace(req);
    const std::string method = req.method;
    std::exception_ptr failure;
    try {
      auto result = co_await next(std::move(req));
      note_tool_error(s, method, result);
      co_return result;
    } catch (...) {
      failure = std::current_exception();
    }
    note_client_failure(s, failure);
    std::rethrow_exception(failure);
  }

 private:
  // The span's context in `_meta`, in place of any the caller wrote.
  static void write_trace(outgoing_request& req) {
    auto* meta = req.params.if_contains("_meta");
    if (!meta || !meta->is_object()) meta = &(req.params["_meta"] = json::object());
    auto& fields = meta->get_object();
    fields["traceparent"] = req.trace.traceparent;
    for (const auto* key : {"tracestate", "baggage"}) fields.erase(key);
    if (!req.trace.tracestate.empty()) fields["tracestate"] = req.trace.tracestate;
    if (!req.trace.baggage.empty()) fields["baggage"] = req.trace.baggage;
  }

  std::shared_ptr<const tracer> tracer_;
};

}  // namespace

std::shared_ptr<server_middleware> server_tracing(std::shared_ptr<const tracer> tracer) {
  return std::make_shared<server_tracing_link>(std::move(tracer));
}

std::shared_ptr<client_middleware> client_tracing(std::shared_ptr<const tracer> tracer) {
  return std::make_shared<client_tracing_link>(std::move(tracer));
}

}  // namespace mcp::telemetry
