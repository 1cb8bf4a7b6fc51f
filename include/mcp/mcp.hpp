#pragma once
// Everything of the caduceus::mcp library at once: the server and the client,
// their transports, OAuth, observability, the JSON layer and the protocol
// types. (The Redis stores are a library of their own, caduceus::cluster:
// <mcp/cluster/redis.hpp>.) Including only the headers a file needs keeps
// builds faster; this one is for trying things out and for small programs.

#include <mcp/base64.hpp>
#include <mcp/error.hpp>
#include <mcp/log.hpp>
#include <mcp/version.hpp>

#include <mcp/json/conversion_error.hpp>
#include <mcp/json/convert.hpp>
#include <mcp/json/fields.hpp>
#include <mcp/json/schema.hpp>
#include <mcp/json/validate.hpp>

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/protocol/versions.hpp>
#include <mcp/protocol/wire.hpp>

#include <mcp/transport/frame.hpp>
#include <mcp/transport/header_list.hpp>
#include <mcp/transport/http_client.hpp>
#include <mcp/transport/memory.hpp>
#include <mcp/transport/process.hpp>
#include <mcp/transport/stdio.hpp>
#include <mcp/transport/transport.hpp>
#include <mcp/transport/websocket.hpp>

#include <mcp/server/behaviour.hpp>
#include <mcp/server/content.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/event_store.hpp>
#include <mcp/server/access_log.hpp>
#include <mcp/server/background_http_server.hpp>
#include <mcp/server/http_endpoint.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/server/middleware.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>
#include <mcp/server/session_store.hpp>
#include <mcp/uri_template.hpp>

#include <mcp/client/blocking_client.hpp>
#include <mcp/client/client.hpp>
#include <mcp/client/middleware.hpp>
#include <mcp/client/oauth.hpp>
#include <mcp/client/pool.hpp>
#include <mcp/client/skills.hpp>

#include <mcp/auth/introspection_verifier.hpp>
#include <mcp/auth/jwt_verifier.hpp>
#include <mcp/auth/principal.hpp>
#include <mcp/auth/token_verifier.hpp>

#include <mcp/telemetry/events.hpp>
#include <mcp/telemetry/mcp_tracing.hpp>
#include <mcp/telemetry/metrics.hpp>
#include <mcp/telemetry/metrics_server.hpp>
#include <mcp/telemetry/otlp_exporter.hpp>
#include <mcp/telemetry/tracing.hpp>
