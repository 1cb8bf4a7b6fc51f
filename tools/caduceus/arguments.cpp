#include "arguments.hpp"

#include "failure.hpp"
#include "gateway/config_file.hpp"

#include "../../src/detail/decimal.hpp"

#include <mcp/transport/process.hpp>

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <set>

namespace caduceus {

namespace {

constexpr std::string_view usage =
    R"(usage: caduceus [OPTIONS] (--url URL | --stdio 'CMD ARGS') COMMAND [ARGS]
       caduceus serve-demo [--stdio | --http [HOST:]PORT [--threads N] [--request-state-key-file FILE]
                           [--redis URL] [--access-log] [--metrics]] [--log-to-clients] [--log-level SPEC]
                           [--log-format FORMAT] [--otlp-endpoint URL]
       caduceus gateway (--stdio 'CMD ARGS' | --url URL [--header 'NAME: VALUE']... [--token-file PATH])
                        [--config FILE]
       caduceus gateway (--upstream NAME (--stdio 'CMD ARGS' | --url URL ...) [--timeout SECONDS]
                        [--allow-tool PATTERN]... [--deny-tool PATTERN]...)... [--name-separator S] ...
                        [--http [HOST:]PORT [--threads N] [--max-sessions N] [--session-timeout SECONDS]
                        [--redis URL] [--access-log] [--metrics]] [--shared | --warm N] [--versions LIST] [--timeout SECONDS]
                        [--log-level SPEC] [--otlp-endpoint URL] [--auth-resource URL --auth-issuer URL
                        [--auth-jwks URL | --auth-introspection URL --auth-client-id ID --auth-client-secret S]
                        [--auth-scope SCOPE]... [--auth-tool-scope TOOL=SCOPE]... [--auth-ca-file PEM]
                        [--auth-private-network]]
       caduceus --help | --version

Talks to an MCP server, over Streamable HTTP (or the older HTTP+SSE) with
--url, or with --stdio to a server it starts (the command line is split like a
shell would: quotes and backslashes, no expansion).

Commands:
  info                                server name, version, protocol, capabilities
  tools                               tools with their arguments
  call TOOL [JSON]                    call a tool with a JSON object of arguments
  resources                           resources and resource templates
  read URI                            read a resource
  prompts                             prompts with their arguments
  prompt NAME [JSON]                  get a prompt (a JSON object of strings)
  complete prompt NAME ARG VALUE      complete a prompt argument
  complete resource URI_TEMPLATE VAR VALUE
                                      complete a resource template variable
  ping [COUNT]                        ping the server (COUNT times, 1 s apart)
                                      and print each round-trip time
  watch [URI...]                      print the server's list changes, and
                                      updates of the resources named, one a
                                      line, until Ctrl-C
  tasks start TOOL [JSON]             call a tool as a task, print its id
  tasks call TOOL [JSON]              the same, then wait for its result
  tasks list                          the server's tasks (2025-11-25)
  tasks get ID                        where a task stands
  tasks cancel ID                     ask the server to stop a task
  tasks wait ID                       wait for a task's result (its status
                                      on a line at the bottom of a terminal)
  login                               sign in to a protected server (OAuth) in a
                                      browser; later commands use the token
                                      and refresh it
  logout                              forget the server's token and registration
  serve-demo                          serve the everything demo (stdio, or HTTP
                                      with --http, printing its URL first, on
                                      --threads N threads: default one per core;
                                      replicas share --request-state-key-file
                                      FILE, 64+ hex digits, or the variable
                                      CADUCEUS_REQUEST_STATE_KEY, and their
                                      sessions with --redis URL, e.g.
                                      redis://127.0.0.1:6379); --metrics
                                      serves Prometheus metrics at /metrics
                                      on the same listener
                                      --otlp-endpoint URL: a span of every
                                      request to that OpenTelemetry collector
                                      (OTLP/HTTP, e.g. http://127.0.0.1:4318)
  gateway                             serve the server that --stdio starts
                                      (a child for each session, ended with
                                      it, --warm N started ahead, default 1;
                                      --shared: one for all) or that
                                      --url names, to clients of every
                                      revision: over Streamable HTTP, HTTP+SSE
                                      and WebSocket with --http (printing its
                                      URL first), else over stdio (a remote
                                      server for a desktop host). Sessions:
                                      --max-sessions N at once (then 503),
                                      ended after --session-timeout SECONDS
                                      without requests; --timeout SECONDS per
                                      upstream call (default 300); --versions
                                      LIST: the revisions served (e.g. legacy,
                                      or 2025-06-18,2025-11-25; default all).
                                      Several servers behind one endpoint:
                                      --upstream NAME before each one's
                                      options; their tools and prompts are
                                      named NAME.tool, their resources'
                                      URIs NAME+uri. See docs/gateway.md

Options:
  --json            print one JSON document (the result) instead of text
  --timeout SECONDS per-request timeout (default 30; progress extends it)
  --log LEVEL       ask the server for log messages of LEVEL and above
                    (debug, info, notice, warning, error, ...) and print them
                    on stderr
  --header 'NAME: VALUE'
                    add a header to every HTTP request (repeatable)
  --root DIR        offer DIR to the server as a root (repeatable)
  --sampling-command CMD
                    answer the server's sampling requests by running CMD
                    (split like --stdio) with the request's params as JSON on
                    its stdin; its stdout is the answer (a JSON
                    CreateMessageResult, or plain text). Without it they are
                    declined

When the server asks you something (elicitation), the questions come on
stderr and your answers are read from stdin; Ctrl-C or the end of input
cancels the question (not the command).

Signing in (--url only):
  --client-id ID    a client id registered at the authorization server (else
                    a Client ID Metadata Document or dynamic registration)
  --client-secret S its secret, if it has one
  --token-file PATH where tokens are kept (default $CADUCEUS_TOKEN_FILE, else
                    ~/.config/caduceus/oauth.json; readable by you only)
  --callback-port N login: the 127.0.0.1 port of the browser's redirect
                    (default: the last one used for this server, else free)
  --headless        login without a browser: follow the authorization URL
                    directly (for servers that approve at once, and tests)
  -h, --help        this text
  --version         the version of caduceus and of the library it runs with

The SDK's own log lines (stderr; also after serve-demo):
  --log-level SPEC  levels by category, as CADUCEUS_LOG takes them, e.g.
                    info,transport=debug (default: off for the commands, warn
                    for serve-demo)
  --log-format F    text, json (JSON lines) or logfmt (CADUCEUS_LOG_FORMAT)
  --access-log      serve-demo --http: a line per HTTP request
  --log-to-clients  serve-demo: send the lines of a session to its client too
                    (notifications/message, at the level the client set)

Ctrl-C cancels a running command (exit 130). Exit codes: 0 success, 1 failure
(server, connection, tool error), 2 usage error.
)";

const std::set<std::string, std::less<>> commands{"info",     "tools", "call",  "resources", "read",  "prompts",
                                                  "prompt",   "complete", "ping", "watch", "tasks", "login", "logout"};

/// The value of `--name VALUE` or `--name=VALUE`, advancing `i` past it.
std::string option_value(int argc, char** argv, int& i, std::string_view name,
                         std::optional<std::string_view> inline_value) {
  if (inline_value) return std::string(*inline_value);
  if (i + 1 >= argc) throw usage_error(std::string(name) + " needs a value");
  return argv[++i];
}

// --log-level and --log-format, which both the commands and serve-demo take:
// false when `name` is neither.
bool parse_log_option(int argc, char** argv, int& i, std::string_view name,
                      std::optional<std::string_view> inline_value, invocation& inv) {
  if (name == "--log-level") {
    inv.log_spec = option_value(argc, argv, i, name, inline_value);
    return true;
  }
  if (name == "--log-format") {
    const auto format = option_value(argc, argv, i, name, inline_value);
    inv.log_format = mcp::log_format_named(format);
    if (!inv.log_format) throw usage_error("--log-format needs text, json or logfmt, not '" + format + "'");
    return true;
  }
  return false;
}

json::object parse_object(std::string_view text, std::string_view what) {
  boost::system::error_code ec;
  auto value = boost::json::parse(text, ec);
  if (ec) throw usage_error("invalid JSON " + std::string(what) + ": " + ec.message());
  if (!value.is_object()) throw usage_error("the JSON " + std::string(what) + " must be an object");
  return std::move(value.get_object());
}

std::map<std::string, std::string> parse_prompt_arguments(std::string_view text) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : parse_object(text, "prompt arguments")) {
    if (!value.is_string())
      throw usage_error("prompt argument '" + std::string(key) + "' must be a string");
    out.emplace(std::string(key), std::string(value.get_string()));
  }
  return out;
}

std::chrono::milliseconds parse_timeout(const std::string& text, std::string_view name = "--timeout") {
  const double seconds = mcp::detail::read_decimal(text).value_or(0);
  if (!(seconds > 0) || seconds > 86'400)
    throw usage_error(std::string(name) + " needs a number of seconds, not '" + text + "'");
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
}

// --header 'Name: value'
std::pair<std::string, std::string> parse_header(const std::string& header) {
  const auto colon = header.find(':');
  if (colon == std::string::npos || colon == 0 || header.find_first_of("\r\n") != std::string::npos)
    throw usage_error("--header needs 'Name: value', not '" + header + "'");
  auto value = header.substr(colon + 1);
  value.erase(0, value.find_first_not_of(" \t"));
  return {header.substr(0, colon), std::move(value)};
}

std::uint16_t parse_port(std::string_view text) {
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value > 65535)
    throw usage_error("invalid port '" + std::string(text) + "'");
  return static_cast<std::uint16_t>(value);
}

// The options of a server, which serve-demo and gateway share (its HTTP
// listener's, its logs, its traces): false when `arg` is none of them.
bool parse_listener_option(int argc, char** argv, int& i, std::string_view arg, invocation& inv) {
  if (arg == "--redis") {
    if (i + 1 >= argc) throw usage_error("--redis needs a URL (redis://host[:port][/db])");
    inv.redis_url = argv[++i];
    if (!inv.redis_url.starts_with("redis://"))
      throw usage_error("--redis needs a redis:// URL, not '" + inv.redis_url + "'");
  } else if (arg == "--http") {
    if (i + 1 >= argc) throw usage_error("--http needs [HOST:]PORT");
    const std::string_view address = argv[++i];
    const auto colon = address.rfind(':');
    if (colon != std::string_view::npos) {
      auto host = address.substr(0, colon);
      if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
      if (host.empty()) throw usage_error("invalid address '" + std::string(address) + "'");
      inv.http_host = std::string(host);
    }
    inv.http_port = parse_port(colon == std::string_view::npos ? address : address.substr(colon + 1));
  } else if (arg == "--threads") {
    if (i + 1 >= argc) throw usage_error("--threads needs a number");
    const std::string_view text = argv[++i];
    unsigned n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size() || n == 0 || n > 1024)
      throw usage_error("--threads needs a number from 1 to 1024, not '" + std::string(text) + "'");
    inv.threads = n;
  } else if (arg == "--request-state-key-file") {
    if (i + 1 >= argc) throw usage_error("--request-state-key-file needs a file");
    inv.request_state_key_file = argv[++i];
  } else if (arg == "--access-log") {
    inv.access_log = true;
  } else if (arg == "--metrics") {
    inv.metrics = true;
  } else if (arg == "--otlp-endpoint") {  // (over stdio too)
    if (i + 1 >= argc) throw usage_error("--otlp-endpoint needs a URL (http://host:4318)");
    inv.otlp_endpoint = argv[++i];
    if (!inv.otlp_endpoint.starts_with("http://") && !inv.otlp_endpoint.starts_with("https://"))
      throw usage_error("--otlp-endpoint needs an http:// or https:// URL, not '" + inv.otlp_endpoint + "'");
  } else {
    return parse_log_option(argc, argv, i, arg, std::nullopt, inv);
  }
  return true;
}

// What only an HTTP listener does, asked for without --http.
void check_listener_options(const invocation& inv, std::string_view command) {
  if (inv.help || inv.http_port) return;
  const std::string prefix = std::string(command) + ": ";
  if (!inv.redis_url.empty())
    throw usage_error(prefix + "--redis needs --http (replicas share HTTP sessions; not with --stdio)");
  if (inv.access_log) throw usage_error(prefix + "--access-log needs --http (it logs HTTP requests)");
  if (inv.metrics) throw usage_error(prefix + "--metrics needs --http (they are served at /metrics on its listener)");
}

// serve-demo [--stdio | --http [HOST:]PORT [--threads N] [--request-state-key-file FILE] [--redis URL]]
void parse_serve_demo(int argc, char** argv, int i, invocation& inv) {
  inv.serve_demo = true;
  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--stdio") {
      inv.http_port.reset();
    } else if (arg == "--log-to-clients") {
      inv.log_to_clients = true;
    } else if (parse_listener_option(argc, argv, i, arg, inv)) {
    } else if (arg == "-h" || arg == "--help") {
      inv.help = true;
    } else {
      throw usage_error("serve-demo: unexpected argument '" + std::string(arg) + "'");
    }
  }
  check_listener_options(inv, "serve-demo");
}

std::size_t parse_count(std::string_view name, std::string_view text) {
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n == 0 || n > 1'000'000)
    throw usage_error(std::string(name) + " needs a number from 1 to 1000000, not '" + std::string(text) + "'");
  return n;
}

// --versions: revision names, comma-separated; `legacy` and `modern` stand
// for every revision of their era.
std::vector<mcp::protocol_version> parse_versions(std::string_view list) {
  std::vector<mcp::protocol_version> versions;
  auto add = [&](mcp::protocol_version v) {
    if (std::find(versions.begin(), versions.end(), v) == versions.end()) versions.push_back(v);
  };
  for (std::size_t at = 0; at <= list.size();) {
    const auto comma = std::min(list.find(',', at), list.size());
    const auto name = list.substr(at, comma - at);
    at = comma + 1;
    if (name == "legacy" || name == "modern") {
      for (const auto v : mcp::all_versions())
        if (mcp::is_modern(v) == (name == "modern")) add(v);
    } else if (const auto v = mcp::parse_protocol_version(name)) {
      add(*v);
    } else {
      throw usage_error("--versions: unknown revision '" + std::string(name) +
                        "' (give revisions such as 2025-06-18, or legacy, or modern)");
    }
  }
  std::sort(versions.begin(), versions.end());
  return versions;
}

// gateway --auth-*: false when `arg` is none of them.
bool parse_auth_option(int argc, char** argv, int& i, std::string_view arg, invocation::gateway_auth& auth) {
  if (arg == "--auth-private-network") {
    auth.private_network = true;
    return true;
  }
  std::string* value = arg == "--auth-resource"          ? &auth.resource
                       : arg == "--auth-issuer"          ? &auth.issuer
                       : arg == "--auth-jwks"            ? &auth.jwks
                       : arg == "--auth-introspection"   ? &auth.introspection
                       : arg == "--auth-client-id"       ? &auth.client_id
                       : arg == "--auth-client-secret"   ? &auth.client_secret
                       : arg == "--auth-ca-file"         ? &auth.ca_file
                                                         : nullptr;
  if (!value && arg != "--auth-scope" && arg != "--auth-tool-scope") return false;
  if (i + 1 >= argc) throw usage_error(std::string(arg) + " needs a value");
  const std::string given = argv[++i];
  if (value) {
    *value = given;
  } else if (arg == "--auth-scope") {
    auth.scopes.push_back(given);
  } else {
    const auto equals = given.find('=');
    if (equals == 0 || equals == std::string::npos || equals + 1 == given.size())
      throw usage_error("--auth-tool-scope needs TOOL=SCOPE, not '" + given + "'");
    auth.tool_scopes[given.substr(0, equals)].push_back(given.substr(equals + 1));
  }
  return true;
}

// What --auth-* ask, checked: a resource and one way to check tokens.
void check_auth_options(const invocation& inv) {
  const auto& auth = inv.auth;
  const bool any = !auth.resource.empty() || !auth.issuer.empty() || !auth.introspection.empty() ||
                   !auth.jwks.empty() || !auth.scopes.empty() || !auth.tool_scopes.empty();
  if (!any) return;
  if (!inv.http_port) throw usage_error("gateway: --auth-* protect the HTTP endpoint: they need --http");
  if (auth.resource.empty())
    throw usage_error("gateway: --auth-resource URL is required: the endpoint's public URL, the tokens' audience");
  if (auth.issuer.empty()) throw usage_error("gateway: --auth-issuer URL is required: who issues the tokens");
  if (!auth.introspection.empty() && auth.client_id.empty())
    throw usage_error("gateway: --auth-introspection needs --auth-client-id (and usually --auth-client-secret)");
}

// gateway (--stdio 'CMD' | --url URL) [--http [HOST:]PORT ...] [--shared] ...
// One option of gateway at argv[i] (its value too): false when it is none.
bool parse_gateway_option(int argc, char** argv, int& i, invocation& inv) {
  const std::string_view arg = argv[i];
  // An upstream's own options go to the last --upstream, when there is one.
  auto* group = inv.upstreams.empty() ? nullptr : &inv.upstreams.back();
  if (arg == "--stdio") {
    if (i + 1 >= argc) throw usage_error("--stdio needs a command");
    auto& stdio = group ? group->stdio : inv.stdio;
    try {
      stdio = mcp::split_command_line(argv[++i]);
    } catch (const std::exception& e) {
      throw usage_error("--stdio: " + std::string(e.what()));
    }
    if (stdio.empty()) throw usage_error("--stdio needs a command");
  } else if (arg == "--url") {
    if (i + 1 >= argc || !*argv[i + 1]) throw usage_error("--url needs a URL");
    (group ? group->url : inv.url) = argv[++i];
  } else if (arg == "--header") {
    if (i + 1 >= argc) throw usage_error("--header needs 'Name: value'");
    (group ? group->headers : inv.headers).push_back(parse_header(argv[++i]));
  } else if (arg == "--timeout") {
    if (i + 1 >= argc) throw usage_error("--timeout needs a number of seconds");
    (group ? group->timeout : inv.timeout) = parse_timeout(argv[++i]);
  } else if (arg == "--token-file" || arg == "--client-id" || arg == "--client-secret") {
    // The sign-in `caduceus --url URL login` stored, for a protected --url.
    if (i + 1 >= argc) throw usage_error(std::string(arg) + " needs a value");
    auto& field = arg == "--token-file"  ? (group ? group->token_file : inv.token_file)
                  : arg == "--client-id" ? (group ? group->client_id : inv.client_id)
                                         : (group ? group->client_secret : inv.client_secret);
    field = argv[++i];
  } else if (arg == "--headless") {
    inv.headless_login = true;  // the gateway's own sign-in follows the authorization URL itself
  } else if (arg == "--callback-port") {
    if (i + 1 >= argc) throw usage_error("--callback-port needs a port");
    inv.callback_port = parse_port(argv[++i]);
  } else if (arg == "--upstream") {
    if (i + 1 >= argc) throw usage_error("--upstream needs a name");
    inv.upstreams.emplace_back().name = argv[++i];
  } else if (arg == "--allow-tool" || arg == "--deny-tool") {
    if (i + 1 >= argc || !*argv[i + 1]) throw usage_error(std::string(arg) + " needs a tool name or pattern");
    if (!group) throw usage_error(std::string(arg) + " goes after the --upstream NAME whose tools it names");
    (arg == "--allow-tool" ? group->allow_tools : group->deny_tools).emplace_back(argv[++i]);
  } else if (arg == "--name-separator") {
    if (i + 1 >= argc || !*argv[i + 1]) throw usage_error("--name-separator needs one or more characters");
    inv.name_separator = argv[++i];
  } else if (arg == "--session-timeout") {
    if (i + 1 >= argc) throw usage_error("--session-timeout needs a number of seconds");
    inv.session_timeout = parse_timeout(argv[++i], "--session-timeout");
  } else if (arg == "--max-sessions") {
    if (i + 1 >= argc) throw usage_error("--max-sessions needs a number");
    inv.max_sessions = parse_count("--max-sessions", argv[++i]);
  } else if (arg == "--shared") {
    inv.shared_upstream = true;
  } else if (arg == "--warm") {
    if (i + 1 >= argc) throw usage_error("--warm needs a number");
    const std::string_view text = argv[++i];
    inv.warm_children = text == "0" ? 0 : parse_count("--warm", text);
  } else if (arg == "--versions") {
    if (i + 1 >= argc) throw usage_error("--versions needs revisions, e.g. 2025-06-18,2025-11-25");
    inv.served_versions = parse_versions(argv[++i]);
  } else if (parse_auth_option(argc, argv, i, arg, inv.auth)) {
  } else if (parse_listener_option(argc, argv, i, arg, inv)) {
  } else if (arg == "-h" || arg == "--help") {
    inv.help = true;
  } else {
    return false;
  }
  return true;
}

// Several --upstream: each names its server once, under a name of its own
// that can prefix a tool's without ambiguity.
void check_upstream_groups(const invocation& inv) {
  if (inv.upstreams.empty()) return;
  if (!inv.stdio.empty() || !inv.url.empty() || !inv.headers.empty())
    throw usage_error("gateway: with --upstream, each --stdio, --url and --header goes after the --upstream NAME it belongs to");
  std::set<std::string_view> names;
  for (const auto& u : inv.upstreams) {
    // A name begins the scheme of its resources' URIs (NAME+file:...), so it
    // is what a scheme may be made of: a letter, then letters, digits and '-'.
    const bool plain = !u.name.empty() && std::isalpha(static_cast<unsigned char>(u.name.front())) &&
                       std::all_of(u.name.begin(), u.name.end(), [](unsigned char c) { return std::isalnum(c) || c == '-'; });
    if (!plain || u.name.find(inv.name_separator) != std::string::npos)
      throw usage_error("gateway: --upstream '" + u.name +
                        "': a name is a letter, then letters, digits and '-', without the separator");
    if (!names.insert(u.name).second) throw usage_error("gateway: two upstreams are named '" + u.name + "'");
    if (u.stdio.empty() == u.url.empty())
      throw usage_error("gateway: say which server --upstream " + u.name + " is: --stdio 'CMD ARGS' or --url URL");
  }
}

// The options of a --config file, as if they stood where --config does: the
// options after it on the command line override the file's.
void parse_gateway_config(const std::string& path, invocation& inv) {
  auto words = gateway::config_arguments(path);
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  const int argc = static_cast<int>(argv.size());
  for (int i = 0; i < argc; ++i)
    if (!parse_gateway_option(argc, argv.data(), i, inv))
      throw usage_error("--config " + path + ": unknown option '" + std::string(argv[i]).substr(2) + "'");
}

// gateway (--stdio 'CMD' | --url URL) [--config FILE] [--http [HOST:]PORT ...] [--shared] ...
void parse_gateway(int argc, char** argv, int i, invocation& inv) {
  inv.gateway = true;
  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--config") {
      if (i + 1 >= argc) throw usage_error("--config needs a file");
      parse_gateway_config(argv[++i], inv);
    } else if (!parse_gateway_option(argc, argv, i, inv)) {
      throw usage_error("gateway: unexpected argument '" + std::string(arg) + "'");
    }
  }
  if (inv.help) return;
  if (inv.upstreams.empty() && inv.stdio.empty() == inv.url.empty())
    throw usage_error("gateway: say which server it fronts: --stdio 'CMD ARGS' or --url URL");
  check_upstream_groups(inv);
  check_listener_options(inv, "gateway");
  check_auth_options(inv);
  if ((inv.max_sessions || inv.session_timeout) && !inv.http_port)
    throw usage_error("gateway: --max-sessions and --session-timeout need --http (over stdio there is one session)");
}

// The words after the command, checked and parsed.
void parse_operands(invocation& inv, std::vector<std::string> words) {
  const auto& c = inv.command;
  const auto count = words.size();
  auto expect = [&](std::size_t least, std::size_t most, std::string_view form) {
    if (count < least || count > most) throw usage_error("usage: " + std::string(form));
  };
  if (c == "info" || c == "tools" || c == "resources" || c == "prompts" || c == "login" || c == "logout") {
    expect(0, 0, c);
  } else if (c == "call") {
    expect(1, 2, "call TOOL [JSON]");
    if (count == 2) inv.tool_arguments = parse_object(words[1], "tool arguments");
    words.resize(1);
  } else if (c == "read") {
    expect(1, 1, "read URI");
  } else if (c == "ping") {
    expect(0, 1, "ping [COUNT]");
    if (count == 1) {
      unsigned n = 0;
      const auto& text = words[0];
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (ec != std::errc() || end != text.data() + text.size() || n == 0 || n > 100000)
        throw usage_error("ping: COUNT must be a number from 1 to 100000, not '" + text + "'");
    }
  } else if (c == "watch") {
    // any number of resource URIs
  } else if (c == "tasks") {
    const std::string_view form =
        "tasks start TOOL [JSON] | tasks call TOOL [JSON] | tasks list | tasks (get | cancel | wait) ID";
    if (count == 0) throw usage_error("usage: " + std::string(form));
    const auto& sub = words[0];
    if (sub == "start" || sub == "call") {
      if (count < 2 || count > 3) throw usage_error("usage: tasks " + sub + " TOOL [JSON]");
      if (count == 3) inv.tool_arguments = parse_object(words[2], "tool arguments");
      words.resize(2);
    } else if (sub == "list") {
      if (count != 1) throw usage_error("usage: tasks list");
    } else if (sub == "get" || sub == "cancel" || sub == "wait") {
      if (count != 2) throw usage_error("usage: tasks " + sub + " ID");
    } else {
      throw usage_error("usage: " + std::string(form));
    }
  } else if (c == "prompt") {
    expect(1, 2, "prompt NAME [JSON]");
    if (count == 2) inv.prompt_arguments = parse_prompt_arguments(words[1]);
    words.resize(1);
  } else if (c == "complete") {
    const std::string_view form =
        "complete prompt NAME ARG VALUE | complete resource URI_TEMPLATE VAR VALUE";
    expect(4, 4, form);
    if (words[0] != "prompt" && words[0] != "resource") throw usage_error("usage: " + std::string(form));
  }
  inv.operands = std::move(words);
}

}  // namespace

std::string_view usage_text() { return usage; }

std::string file_uri(const std::string& directory) {
  std::error_code ec;
  auto path = std::filesystem::absolute(directory, ec).lexically_normal().string();
  if (path.size() > 1 && path.ends_with('/')) path.pop_back();
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                            c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved || c == '/') {
      uri += c;
    } else {
      uri += '%';
      uri += hex[byte >> 4];
      uri += hex[byte & 0xF];
    }
  }
  return uri;
}

invocation parse_arguments(int argc, char** argv) {
  invocation inv;
  bool have_stdio = false;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      inv.help = true;
      return inv;
    }
    if (arg == "--version") {
      inv.version = true;
      return inv;
    }
    if (!arg.starts_with("-")) break;  // the command
    std::string_view name = arg;
    std::optional<std::string_view> inline_value;
    if (const auto eq = arg.find('='); eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
    }
    if (name == "--json" && !inline_value) {
      inv.json = true;
    } else if (name == "--url") {
      inv.url = option_value(argc, argv, i, name, inline_value);
      if (inv.url.empty()) throw usage_error("--url needs a URL");
    } else if (name == "--stdio") {
      const auto line = option_value(argc, argv, i, name, inline_value);
      try {
        inv.stdio = mcp::split_command_line(line);
      } catch (const std::exception& e) {
        throw usage_error("--stdio: " + std::string(e.what()));
      }
      if (inv.stdio.empty()) throw usage_error("--stdio needs a command");
      have_stdio = true;
    } else if (name == "--header") {
      inv.headers.push_back(parse_header(option_value(argc, argv, i, name, inline_value)));
    } else if (name == "--root") {
      const auto directory = option_value(argc, argv, i, name, inline_value);
      std::error_code ec;
      if (directory.empty() || !std::filesystem::is_directory(directory, ec))
        throw usage_error("--root: not a directory: '" + directory + "'");
      auto absolute = std::filesystem::absolute(directory, ec).lexically_normal().string();
      if (absolute.size() > 1 && absolute.ends_with('/')) absolute.pop_back();
      auto label = std::filesystem::path(absolute).filename().string();  // empty for "/"
      mcp::root root{file_uri(directory)};
      if (!label.empty()) root.name = std::move(label);
      inv.roots.push_back(std::move(root));
    } else if (name == "--sampling-command") {
      const auto line = option_value(argc, argv, i, name, inline_value);
      try {
        inv.sampling_command = mcp::split_command_line(line);
      } catch (const std::exception& e) {
        throw usage_error("--sampling-command: " + std::string(e.what()));
      }
      if (inv.sampling_command.empty()) throw usage_error("--sampling-command needs a command");
    } else if (name == "--client-id") {
      inv.client_id = option_value(argc, argv, i, name, inline_value);
    } else if (name == "--client-secret") {
      inv.client_secret = option_value(argc, argv, i, name, inline_value);
    } else if (name == "--token-file") {
      inv.token_file = option_value(argc, argv, i, name, inline_value);
    } else if (name == "--callback-port") {
      inv.callback_port = parse_port(option_value(argc, argv, i, name, inline_value));
    } else if (name == "--headless" && !inline_value) {
      inv.headless_login = true;
    } else if (name == "--timeout") {
      inv.timeout = parse_timeout(option_value(argc, argv, i, name, inline_value));
    } else if (name == "--log") {
      const auto level = option_value(argc, argv, i, name, inline_value);
      inv.log_level = mcp::parse_logging_level(level);
      if (!inv.log_level) throw usage_error("unknown log level '" + level + "'");
    } else if (parse_log_option(argc, argv, i, name, inline_value, inv)) {
    } else {
      throw usage_error("unknown option '" + std::string(arg) + "'");
    }
  }
  if (i >= argc) throw usage_error("no command given (see caduceus --help)");
  inv.command = argv[i++];
  if (inv.command == "serve-demo" || inv.command == "gateway") {
    if (!inv.url.empty() || have_stdio)
      throw usage_error(inv.command + " takes no --url or --stdio before it");
    if (inv.command == "serve-demo") parse_serve_demo(argc, argv, i, inv);
    else parse_gateway(argc, argv, i, inv);
    return inv;
  }
  if (!commands.contains(inv.command)) throw usage_error("unknown command '" + inv.command + "'");
  parse_operands(inv, std::vector<std::string>(argv + i, argv + argc));
  if (inv.url.empty() && !have_stdio) throw usage_error("say which server: --url URL or --stdio 'CMD ARGS'");
  if (!inv.url.empty() && have_stdio) throw usage_error("give --url or --stdio, not both");
  if ((inv.command == "login" || inv.command == "logout") && inv.url.empty())
    throw usage_error(inv.command + " needs --url: signing in is for HTTP servers");
  return inv;
}

}  // namespace caduceus
