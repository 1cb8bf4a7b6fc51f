#pragma once
// The command line of caduceus, parsed and checked before anything starts:
// a usage mistake is found before a server is spawned or dialled.

#include <mcp/log.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/protocol/versions.hpp>

#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caduceus {

namespace json = boost::json;

/// What to do, as the command line says.
struct invocation {
  bool help = false;
  bool version = false;  ///< --version: print the version, nothing else
  bool serve_demo = false;
  bool gateway = false;  ///< gateway: serve the --stdio or --url server (docs/gateway.md)

  // serve-demo: stdio unless an HTTP address is given.
  std::string http_host = "127.0.0.1";
  std::optional<std::uint16_t> http_port;
  unsigned threads = 0;  ///< --threads: 0 is one per core
  std::string request_state_key_file;  ///< --request-state-key-file: the replicas' shared key
  std::string redis_url;  ///< --redis: share sessions with the replicas on this Redis (HTTP only)
  bool access_log = false;      ///< --access-log: a line per HTTP request on stderr
  bool metrics = false;         ///< --metrics: Prometheus metrics at /metrics on the HTTP listener
  bool log_to_clients = false;  ///< --log-to-clients: the server's log lines to its clients too
  /// --otlp-endpoint: trace to this OpenTelemetry collector (base URL, OTLP/HTTP)
  std::string otlp_endpoint;

  // gateway: the upstream is --stdio or --url (with --header, --timeout),
  // served over HTTP with --http, else over our stdio.
  std::optional<std::size_t> max_sessions;  ///< --max-sessions: sessions, and so children, at once
  /// --session-timeout: a session without requests ends after this long
  std::optional<std::chrono::milliseconds> session_timeout;
  bool shared_upstream = false;  ///< --shared: one upstream connection for every session
  std::size_t warm_children = 1;  ///< --warm: children started ahead of the sessions (--stdio)
  /// --versions: the revisions served to clients (empty: every one)
  std::vector<mcp::protocol_version> served_versions;
  /// gateway --upstream NAME: one of several upstreams served under its name
  /// as a prefix; the options after it (--stdio or --url, --header, --timeout,
  /// the sign-in's, --allow-tool, --deny-tool) are its own (docs/gateway.md)
  struct gateway_upstream {
    std::string name;
    std::vector<std::string> stdio;
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::optional<std::chrono::milliseconds> timeout;  ///< else the gateway's --timeout
    std::string token_file;
    std::string client_id;
    std::string client_secret;
    std::vector<std::string> allow_tools;  ///< --allow-tool PATTERN: only these tools (`*` any characters)
    std::vector<std::string> deny_tools;   ///< --deny-tool PATTERN: never these
  };
  std::vector<gateway_upstream> upstreams;
  std::string name_separator = ".";  ///< --name-separator: between an upstream's name and its tools'
  /// gateway --auth-*: OAuth 2.1 protection of the gateway's endpoint (docs/gateway.md)
  struct gateway_auth {
    std::string resource;            ///< --auth-resource: the endpoint's public URL (the tokens' audience)
    std::string issuer;              ///< --auth-issuer: JWT access tokens of this authorization server
    std::string jwks;                ///< --auth-jwks: its keys, when not where its metadata says
    std::string introspection;       ///< --auth-introspection: RFC 7662 endpoint instead of JWTs
    std::string client_id;           ///< --auth-client-id: the gateway's, for introspection
    std::string client_secret;       ///< --auth-client-secret
    std::vector<std::string> scopes;  ///< --auth-scope (repeatable): needed by every request
    /// --auth-tool-scope TOOL=SCOPE (repeatable): needed to call that tool
    std::map<std::string, std::vector<std::string>, std::less<>> tool_scopes;
    std::string ca_file;             ///< --auth-ca-file: CA certificates for the issuer's TLS
    bool private_network = false;    ///< --auth-private-network: the issuer may be on a private address
  } auth;

  // The SDK's own log lines on stderr, for serve-demo and the client commands.
  std::string log_spec;                   ///< --log-level: levels as CADUCEUS_LOG takes them
  std::optional<mcp::log_format> log_format;  ///< --log-format: text, json or logfmt

  // The client commands.
  bool json = false;
  std::optional<std::chrono::milliseconds> timeout;
  std::optional<mcp::logging_level> log_level;
  std::string url;                 ///< --url
  /// --header 'Name: value', on every HTTP request
  std::vector<std::pair<std::string, std::string>> headers;
  // OAuth (login, and every later command over HTTP).
  std::string client_id;          ///< --client-id: pre-registered at the authorization server
  std::string client_secret;      ///< --client-secret
  std::string token_file;         ///< --token-file; empty: the default (see token_file_path)
  std::optional<std::uint16_t> callback_port;  ///< --callback-port: the login's redirect receiver
  bool headless_login = false;    ///< --headless: login follows the authorization URL itself
  std::vector<std::string> stdio;  ///< --stdio, split: the program, then its arguments
  /// --root DIR (repeatable): offered to the server as roots (file:// URIs)
  std::vector<mcp::root> roots;
  /// --sampling-command, split: answers the server's sampling requests
  std::vector<std::string> sampling_command;
  /// info, tools, call, resources, read, prompts, prompt, complete, ping,
  /// watch, login, logout
  std::string command;
  std::vector<std::string> operands;  ///< the command's words (tool name, URI, ...)
  json::object tool_arguments;        ///< call: the JSON object
  std::map<std::string, std::string> prompt_arguments;  ///< prompt: the JSON object
};

/// Parses argv. Throws usage_error, whose message is the one-line reason.
invocation parse_arguments(int argc, char** argv);

/// The file:// URI of a directory: absolute, normalized, percent-encoded
/// (RFC 3986: all but unreserved characters and '/').
std::string file_uri(const std::string& directory);

/// The text of `caduceus --help`.
std::string_view usage_text();

}  // namespace caduceus
