// The library's metrics, fed by its telemetry events (docs/observability.md,
// "Metrics"): the same seam a user's own metrics would use.

#include <mcp/telemetry/metrics.hpp>

#include <string>

namespace mcp::telemetry {

namespace {

// OpenTelemetry's network.transport for our transports.
std::string_view network_transport(std::string_view transport) {
  if (transport == "stdio") return "pipe";
  if (transport == "memory") return "inproc";
  if (transport == "http" || transport == "https" || transport == "websocket") return "tcp";
  return transport;
}

// An integer of the metadata as label text ("" when absent).
std::string integer_text(const event_data& e, std::string_view key) {
  const auto n = e.integer(key);
  return n ? std::to_string(*n) : std::string();
}

std::vector<double> session_buckets() { return {1, 10, 60, 300, 900, 1800, 3600, 7200, 14400, 43200, 86400}; }

// The metrics, as added to the registry, and how each event feeds them.
struct feed {
  explicit feed(metrics_registry& r)
      : operation_duration(r.add_histogram(
            "mcp_server_operation_duration_seconds",
            "Duration of the MCP requests a server served, from its handler's start to its answer.",
            {"mcp_method_name", "gen_ai_tool_name", "error_type", "mcp_protocol_version", "network_transport"},
            mcp_duration_buckets())),
        requests(r.add_counter("mcp_server_requests_total", "MCP requests a server answered, by method and outcome.",
                               {"mcp_method_name", "outcome"})),
        request_errors(r.add_counter("mcp_server_request_errors_total",
                                     "MCP requests a server answered with a JSON-RPC error, by its code.",
                                     {"mcp_method_name", "error_code"})),
        exceptions(r.add_counter("mcp_server_request_exceptions_total",
                                 "Handlers that threw something other than a protocol error.", {"mcp_method_name"})),
        notifications(r.add_counter("mcp_server_notifications_total", "Notifications from clients, handled.",
                                    {"mcp_method_name"})),
        tool_calls(r.add_counter("mcp_server_tool_calls_total", "Tool calls, by tool and outcome.",
                                 {"gen_ai_tool_name", "outcome"})),
        resource_reads(r.add_counter("mcp_server_resource_reads_total", "Resource reads, by outcome.", {"outcome"})),
        prompt_gets(r.add_counter("mcp_server_prompt_gets_total", "Prompts got, by prompt and outcome.",
                                  {"gen_ai_prompt_name", "outcome"})),
        sessions_open(r.add_gauge("mcp_server_sessions_open", "Sessions open now.", {"transport"})),
        sessions(r.add_counter("mcp_server_sessions_total", "Sessions opened.", {"transport"})),
        sessions_ended(r.add_counter("mcp_server_sessions_ended_total",
                                     "Sessions ended: expired (idle), deleted (by the client) or closed.",
                                     {"reason"})),
        session_duration(r.add_histogram("mcp_server_session_duration_seconds", "How long sessions lived.",
                                         {"mcp_protocol_version", "network_transport"}, session_buckets())),
        streams_open(r.add_gauge("mcp_server_streams_open", "SSE responses open now, by the kind of stream.",
                                 {"kind"})),
        streams(r.add_counter("mcp_server_streams_total", "SSE responses started, by the kind of stream.",
                              {"kind"})),
        connections_open(r.add_gauge("mcp_server_connections_open", "Network connections open now.")),
        connections(r.add_counter("mcp_server_connections_total", "Network connections accepted.", {"transport"})),
        connections_refused(r.add_counter("mcp_server_connections_refused_total",
                                          "Network connections refused, by reason.", {"reason"})),
        http_duration(r.add_histogram("http_server_request_duration_seconds",
                                      "Duration of the HTTP requests a server answered, to their response's end.",
                                      {"http_request_method", "http_response_status_code"}, mcp_duration_buckets())),
        received_bytes(r.add_counter("mcp_server_received_bytes_total", "Bytes of HTTP requests received.")),
        sent_bytes(r.add_counter("mcp_server_sent_bytes_total", "Bytes of HTTP responses sent.")),
        parse_errors(r.add_counter("mcp_server_parse_errors_total",
                                   "Messages refused as not JSON (-32700) or not JSON-RPC (-32600).",
                                   {"transport", "error_code"})),
        validation_errors(r.add_counter("mcp_server_validation_errors_total",
                                        "Messages refused by the protocol's rules before any handler saw them.",
                                        {"mcp_method_name", "error_code"})),
        tokens_verified(r.add_counter("mcp_server_tokens_verified_total", "OAuth access tokens accepted.")),
        tokens_refused(r.add_counter("mcp_server_tokens_refused_total", "OAuth access tokens refused, by reason.",
                                     {"reason"})),
        client_duration(r.add_histogram("mcp_client_operation_duration_seconds",
                                        "Duration of the MCP requests a client sent, to their answer.",
                                        {"mcp_method_name", "error_type", "network_transport"},
                                        mcp_duration_buckets())),
        client_requests(r.add_counter("mcp_client_requests_total", "MCP requests a client sent, by outcome.",
                                      {"mcp_method_name", "outcome"})),
        client_retries(r.add_counter("mcp_client_retries_total", "Requests a client sent again, by reason.",
                                     {"reason"})),
        client_reconnects(r.add_counter("mcp_client_reconnects_total", "Reconnection attempts, by outcome.",
                                        {"outcome"})) {}

  void operator()(const event_data& e) const {
    const auto duration = e.number("duration").value_or(0);
    switch (e.id) {
      case event::server_request_stop: {
        const auto method = e.text("method");
        const auto code = integer_text(e, "error_code");
        operation_duration.observe({method, method == "tools/call" ? e.text("target") : std::string_view(),
                                    e.text("error_type"), e.text("protocol_version"),
                                    network_transport(e.text("transport"))},
                                   duration);
        requests.add({method, e.text("outcome")});
        if (!code.empty()) request_errors.add({method, code});
        break;
      }
      case event::server_request_exception: exceptions.add({e.text("method")}); break;
      case event::server_notification: notifications.add({e.text("method")}); break;
      case event::tool_call: tool_calls.add({e.text("tool"), e.text("outcome")}); break;
      case event::resource_read: resource_reads.add({e.text("outcome")}); break;
      case event::prompt_get: prompt_gets.add({e.text("prompt"), e.text("outcome")}); break;
      case event::session_created:
        sessions.add({e.text("transport")});
        sessions_open.add({e.text("transport")}, 1);
        break;
      case event::session_expired:
      case event::session_deleted:
      case event::session_closed: {
        const auto reason = e.id == event::session_expired   ? "expired"
                            : e.id == event::session_deleted ? "deleted"
                                                             : "closed";
        sessions_open.add({e.text("transport")}, -1);
        sessions_ended.add({reason});
        session_duration.observe({e.text("protocol_version"), network_transport(e.text("transport"))}, duration);
        break;
      }
      case event::stream_opened:
      case event::stream_resumed:
        streams_open.add({e.text("kind")}, 1);
        streams.add({e.text("kind")});
        break;
      case event::stream_closed: streams_open.add({e.text("kind")}, -1); break;
      case event::connection_accepted:
        connections_open.add({}, 1);
        connections.add({e.text("transport")});
        break;
      case event::connection_closed: connections_open.add({}, -1); break;
      case event::connection_refused: connections_refused.add({e.text("reason")}); break;
      case event::http_request:
        http_duration.observe({e.text("http_method"), integer_text(e, "status")}, duration);
        received_bytes.add({}, e.number("bytes_in").value_or(0));
        sent_bytes.add({}, e.number("bytes_out").value_or(0));
        break;
      case event::parse_error: parse_errors.add({e.text("transport"), integer_text(e, "error_code")}); break;
      case event::validation_error:
        validation_errors.add({e.text("method"), integer_text(e, "error_code")});
        break;
      case event::token_verified: tokens_verified.add({}); break;
      case event::token_refused: tokens_refused.add({e.text("reason")}); break;
      case event::client_request_stop: {
        const auto method = e.text("method");
        const auto outcome = e.text("outcome");
        // As OpenTelemetry has it: the JSON-RPC code of an error, else what went wrong.
        const auto code = integer_text(e, "error_code");
        const std::string_view error_type = outcome == "ok" ? std::string_view() : !code.empty() ? code : outcome;
        client_duration.observe({method, error_type, network_transport(e.text("transport"))}, duration);
        client_requests.add({method, outcome});
        break;
      }
      case event::client_request_retry: client_retries.add({e.text("reason")}); break;
      case event::client_reconnect: client_reconnects.add({e.text("outcome")}); break;
      default: break;
    }
  }

  histogram& operation_duration;
  counter& requests;
  counter& request_errors;
  counter& exceptions;
  counter& notifications;
  counter& tool_calls;
  counter& resource_reads;
  counter& prompt_gets;
  gauge& sessions_open;
  counter& sessions;
  counter& sessions_ended;
  histogram& session_duration;
  gauge& streams_open;
  counter& streams;
  gauge& connections_open;
  counter& connections;
  counter& connections_refused;
  histogram& http_duration;
  counter& received_bytes;
  counter& sent_bytes;
  counter& parse_errors;
  counter& validation_errors;
  counter& tokens_verified;
  counter& tokens_refused;
  histogram& client_duration;
  counter& client_requests;
  counter& client_retries;
  counter& client_reconnects;
};

}  // namespace

mcp_metrics record_mcp_metrics(metrics_registry& registry) {
  mcp_metrics made;
  made.subscriptions_.push_back(attach(
      {event::server_request_stop, event::server_request_exception, event::server_notification, event::tool_call,
       event::resource_read, event::prompt_get, event::session_created, event::session_expired,
       event::session_deleted, event::session_closed, event::stream_opened, event::stream_resumed,
       event::stream_closed, event::connection_accepted, event::connection_closed, event::connection_refused,
       event::http_request, event::parse_error, event::validation_error, event::token_verified,
       event::token_refused, event::client_request_stop, event::client_request_retry, event::client_reconnect},
      feed(registry)));
  return made;
}

}  // namespace mcp::telemetry
