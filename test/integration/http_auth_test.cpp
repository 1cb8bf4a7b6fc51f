// An OAuth-protected HTTP server (http_server_options::auth) on real sockets:
// tokens from a test authorization server over HTTPS (its metadata, its JWKS),
// checked on Streamable HTTP, legacy SSE and 2026-07-28 POSTs; the Protected
// Resource Metadata; sessions bound to their principal; an unreachable JWKS
// (503, other requests still served), key rotation without a restart, and
// DPoP-bound tokens with their proofs (RFC 9449).

#include <mcp/auth/introspection_verifier.hpp>
#include <mcp/auth/jwt_verifier.hpp>
#include <mcp/base64.hpp>

#include "auth/dpop_proof.hpp"
#include "client/oauth/dpop.hpp"
#include "http_test_server.hpp"
#include "jwt_test_keys.hpp"
#include "test_certificates.hpp"
#include "test_issuer.hpp"

#include <gtest/gtest.h>

namespace mcp::test {
namespace {

const std::string resource = "https://mcp.example/mcp";
const std::string metadata_url = "https://mcp.example/.well-known/oauth-protected-resource/mcp";

const test_key& signing_key() {
  static const test_key key = test_key::rsa("key-1");
  return key;
}
const test_key& rotated_key() {
  static const test_key key = test_key::ec("key-2");
  return key;
}

class HttpAuth : public tls_test_suite {
 public:
  static const certificates& files() { return *certs; }
};

// The authorization server a protected server trusts, and the options of
// that server, for one test.
struct protected_setup {
  test_issuer issuer;
  http_server_options options;

  explicit protected_setup(asio::any_io_executor ex, std::vector<std::string> required = {"mcp:read"})
      : issuer(ex, HttpAuth::files().cert, HttpAuth::files().key) {
    issuer.jwks = jwks_of({&signing_key()});
    auth::jwt_verifier_options jwt;
    jwt.issuer = issuer.url();
    jwt.audience = resource;
    jwt.ca_file = HttpAuth::files().cert;
    jwt.allow_private_addresses = true;  // the issuer is on 127.0.0.1
    jwt.fetch_timeout = std::chrono::milliseconds(2000);
    jwt.retry_after = std::chrono::seconds(7);
    jwt.min_refresh_interval = std::chrono::seconds(0);  // rotation picked up at once in tests
    http_auth_options a;
    // Made on the strand the server verifies tokens on (it may run on threads of its own).
    a.make_verifier = [jwt](asio::any_io_executor on) { return auth::make_jwt_verifier(on, jwt); };
    a.resource = resource;
    a.authorization_servers = {issuer.url()};
    a.required_scopes = std::move(required);
    a.scopes_supported = {"mcp:read", "mcp:write"};
    a.resource_name = "Test MCP server";
    a.max_token_size = 4096;
    options.auth = std::move(a);
  }

  std::string token(std::string subject = "user-1", std::string scope = "mcp:read",
                    const test_key& with = signing_key()) const {
    auto claims = token_claims(issuer.url(), resource, scope);
    claims["sub"] = std::move(subject);
    return with.sign(claims);
  }
};

http_request with_token(http_request req, const std::string& token) {
  req.header("Authorization", "Bearer " + token);
  return req;
}

// Opens a session with `token`; returns its id.
asio::awaitable<std::string> open_protected_session(std::uint16_t port, const std::string& token) {
  const auto init = rpc_request(0, "initialize", initialize_params());
  const auto req = with_token(mcp_post(init), token);
  const auto reply = co_await http_call(port, req);
  if (reply.status != 200) throw std::runtime_error("initialize answered " + std::to_string(reply.status));
  const auto id = reply.header("Mcp-Session-Id");
  const auto initialized = rpc_notification("notifications/initialized");
  const auto note = with_token(session_post(initialized, id), token);
  const auto ack = co_await http_call(port, note);
  if (ack.status != 202) throw std::runtime_error("initialized answered " + std::to_string(ack.status));
  co_return id;
}

asio::awaitable<http_reply> call_in_session(std::uint16_t port, const std::string& session, const std::string& token,
                                            json::object call) {
  const auto req = with_token(session_post(call, session), token);
  co_return co_await http_call(port, req);
}

// Runs `body` against a protected server and its authorization server.
void run_protected(std::function<asio::awaitable<void>(protected_setup&, test_server&)> body,
                   std::vector<std::string> required = {"mcp:read"}) {
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto setup = std::make_unique<protected_setup>(ex, required);
    auto server = std::make_unique<test_server>(ex, setup->options);
    std::exception_ptr failure;
    try {
      co_await body(*setup, *server);
    } catch (...) {
      failure = std::current_exception();
    }
    co_await server->stop_and_wait();
    setup->issuer.stop();
    if (failure) std::rethrow_exception(failure);
  });
}

TEST_F(HttpAuth, NoTokenGets401WithWhereToSignIn) {
  run_protected([](protected_setup&, test_server& server) -> asio::awaitable<void> {
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto anonymous = mcp_post(init);
    const auto reply = co_await http_call(server.port(), anonymous);
    EXPECT_EQ(reply.status, 401u);
    std::vector<std::string> challenges;
    for (auto [it, end] = reply.headers.equal_range(http::field::www_authenticate); it != end; ++it)
      challenges.emplace_back(it->value());
    EXPECT_EQ(challenges, (std::vector<std::string>{
                              "Bearer resource_metadata=\"" + metadata_url + "\", scope=\"mcp:read\"",
                              "DPoP algs=\"ES256 ES384 ES512 PS256 RS256 EdDSA\", resource_metadata=\"" +
                                  metadata_url + "\", scope=\"mcp:read\""}));
    EXPECT_EQ(server.http.session_count(), 0u);
  });
}

TEST_F(HttpAuth, ResourceMetadataAtBothUrlsWithoutAToken) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    for (const char* path : {"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"}) {
      http_request get(http::verb::get, path);
      const auto reply = co_await http_call(server.port(), get);
      EXPECT_EQ(reply.status, 200u) << path;
      EXPECT_EQ(reply.content_type(), "application/json");
      EXPECT_EQ(reply.header("Access-Control-Allow-Origin"), "*");
      const auto metadata = reply.json().as_object();
      EXPECT_EQ(metadata.at("resource"), json::value(resource));
      EXPECT_EQ(metadata.at("authorization_servers"), json::array{json::string(setup.issuer.url())});
      EXPECT_EQ(metadata.at("scopes_supported"), (json::array{"mcp:read", "mcp:write"}));
      EXPECT_EQ(metadata.at("bearer_methods_supported"), json::array{"header"});
      EXPECT_EQ(metadata.at("resource_name"), "Test MCP server");
    }
    http_request post(http::verb::post, "/.well-known/oauth-protected-resource");
    EXPECT_EQ((co_await http_call(server.port(), post)).status, 405u);
    http_request other(http::verb::get, "/.well-known/oauth-protected-resource/elsewhere");
    EXPECT_EQ((co_await http_call(server.port(), other)).status, 404u);
  });
}

TEST_F(HttpAuth, AValidTokenIsServedAndItsPrincipalIsInTheContext) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    mcp::tool_info whoami;
    whoami.name = "whoami";
    server.tools->add_tool(whoami, [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
      const auto* who = ctx.principal();
      co_return call_tool_result::text(who ? who->subject + " " + who->scopes.front() : "nobody");
    });
    const auto token = setup.token("alice");
    const auto session = co_await open_protected_session(server.port(), token);
    const auto whoami_call = rpc_request(1, "tools/call", tool_call("whoami", json::object()));
    const auto reply = co_await call_in_session(server.port(), session, token, whoami_call);
    EXPECT_EQ(reply.status, 200u);
    EXPECT_EQ(reply.json().at("result").at("content").at(0).at("text"), "alice mcp:read");
    // The token is not handed to handlers.
    json::object header_args{{"name", "Authorization"}};
    const auto header_call = rpc_request(2, "tools/call", tool_call("header", header_args));
    const auto header = co_await call_in_session(server.port(), session, token, header_call);
    EXPECT_EQ(header.json().at("result").at("content").at(0).at("text"), "(none)");
  });
}

// The status of an initialize POST to `target` with these Authorization headers.
asio::awaitable<http_reply> initialize_with(std::uint16_t port, std::vector<std::string> authorizations,
                                            std::string target = "/mcp") {
  const auto init = rpc_request(0, "initialize", initialize_params());
  auto req = mcp_post(init, {}, target);
  for (auto& a : authorizations) req.header("Authorization", a);
  co_return co_await http_call(port, req);
}

TEST_F(HttpAuth, BadTokensGetPreciseStatuses) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    const auto port = server.port();
    const auto expired_claims = token_claims(setup.issuer.url(), resource, "mcp:read", std::chrono::seconds(-600));
    std::vector<std::string> expired_token{"Bearer " + signing_key().sign(expired_claims)};
    const auto expired = co_await initialize_with(port, expired_token);
    EXPECT_EQ(expired.status, 401u);
    const auto challenge = expired.header("WWW-Authenticate");
    EXPECT_NE(challenge.find("error=\"invalid_token\""), std::string::npos) << challenge;
    EXPECT_NE(challenge.find("error_description=\"the token has expired\""), std::string::npos) << challenge;
    EXPECT_NE(challenge.find("resource_metadata=\"" + metadata_url + "\""), std::string::npos) << challenge;

    const auto elsewhere_claims = token_claims(setup.issuer.url(), "https://other.example/mcp");
    std::vector<std::string> elsewhere{"Bearer " + signing_key().sign(elsewhere_claims)};
    EXPECT_EQ((co_await initialize_with(port, elsewhere)).status, 401u);
    std::vector<std::string> garbage{"Bearer not.a.jwt"};
    EXPECT_EQ((co_await initialize_with(port, garbage)).status, 401u);
    std::vector<std::string> basic{"Basic dXNlcjpwYXNz"};
    const auto basic_reply = co_await initialize_with(port, basic);
    EXPECT_EQ(basic_reply.status, 400u);
    EXPECT_NE(basic_reply.header("WWW-Authenticate").find("error=\"invalid_request\""), std::string::npos);
    std::vector<std::string> two{"Bearer " + setup.token(), "Bearer " + setup.token()};
    EXPECT_EQ((co_await initialize_with(port, two)).status, 400u);
    std::vector<std::string> none;
    const auto in_query = "/mcp?access_token=" + setup.token();
    EXPECT_EQ((co_await initialize_with(port, none, in_query)).status, 400u);
    std::vector<std::string> huge{"Bearer " + std::string(5000, 'a')};
    EXPECT_EQ((co_await initialize_with(port, huge)).status, 401u);
    std::vector<std::string> lower_case{"bearer " + setup.token()};
    EXPECT_EQ((co_await initialize_with(port, lower_case)).status, 200u);
  });
}

TEST_F(HttpAuth, ATokenWithoutTheServersScopeGets403) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto req = with_token(mcp_post(init), setup.token("user-1", "profile"));
    const auto reply = co_await http_call(server.port(), req);
    EXPECT_EQ(reply.status, 403u);
    EXPECT_EQ(reply.header("WWW-Authenticate"),
              "Bearer error=\"insufficient_scope\", error_description=\"the token lacks scopes this server "
              "requires\", resource_metadata=\"" + metadata_url + "\", scope=\"mcp:read\"");
  });
}

TEST_F(HttpAuth, ASessionBelongsToItsPrincipal) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    const auto session = co_await open_protected_session(server.port(), setup.token("alice"));
    // Another user with a valid token cannot use it: to them it does not exist.
    const auto ping = rpc_request(1, "ping");
    const auto stolen = co_await call_in_session(server.port(), session, setup.token("mallory"), ping);
    EXPECT_EQ(stolen.status, 404u);
    const auto get = with_token(mcp_get(session), setup.token("mallory"));
    EXPECT_EQ((co_await http_call(server.port(), get)).status, 404u);
    const auto del = with_token(mcp_delete(session), setup.token("mallory"));
    EXPECT_EQ((co_await http_call(server.port(), del)).status, 404u);
    // A new token for the same user (a refresh) keeps working.
    const auto refreshed = co_await call_in_session(server.port(), session, setup.token("alice"), ping);
    EXPECT_EQ(refreshed.status, 200u);
  });
}

TEST_F(HttpAuth, LegacySseIsProtectedAndBoundToItsPrincipal) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    http_request open(http::verb::get, "/sse");
    open.header("Accept", "text/event-stream");
    EXPECT_EQ((co_await http_call(server.port(), open)).status, 401u);

    http_connection stream(co_await asio::this_coro::executor, server.port());
    const auto authorized = with_token(open, setup.token("alice"));
    co_await stream.write(authorized);
    const auto head = co_await stream.read_head();
    EXPECT_EQ(head.status, 200u);
    const auto endpoint = co_await stream.next_event();
    CO_ASSERT_TRUE(endpoint && endpoint->event == "endpoint");
    const auto init = rpc_request(0, "initialize", initialize_params("2024-11-05"));
    auto post = mcp_post(init, {}, endpoint->data);
    EXPECT_EQ((co_await http_call(server.port(), post)).status, 401u);
    const auto stolen = with_token(post, setup.token("mallory"));
    EXPECT_EQ((co_await http_call(server.port(), stolen)).status, 404u);
    const auto own = with_token(post, setup.token("alice"));
    EXPECT_EQ((co_await http_call(server.port(), own)).status, 202u);
    const auto answer = co_await stream.next_message();
    CO_ASSERT_TRUE(answer.has_value());
    EXPECT_TRUE(answer->at("result").as_object().contains("serverInfo"));
    stream.close();
  });
}

TEST_F(HttpAuth, A2026Request) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    const auto req = modern_post(1, "tools/call", tool_call("echo", {{"text", "modern"}}));
    EXPECT_EQ((co_await http_call(server.port(), req)).status, 401u);
    const auto authorized = with_token(req, setup.token());
    const auto reply = co_await http_call(server.port(), authorized);
    EXPECT_EQ(reply.status, 200u);
    EXPECT_EQ(reply.json().at("result").at("content").at(0).at("text"), "modern");
  });
}

// A multi-round 2026 request: the requestState issued to one principal is
// refused to another, and taken with a refreshed token of the same one.
TEST_F(HttpAuth, RequestStateStaysWithItsPrincipal) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    tool_info ask;
    ask.name = "ask";
    ask.description = "Asks for a name";
    server.tools->add_tool(ask, [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
      if (ctx.carried().is_null()) ctx.carry("asked");  // state that travels in requestState
      const auto answer = co_await ctx.elicit(
          "Your name?", json::parse(R"({"type":"object","properties":{"name":{"type":"string"}}})").as_object());
      co_return call_tool_result::text("Hello, " + std::string(answer.at("content").at("name").as_string()));
    });
    const auto modern_call = [](json::object params) {
      return modern_post(1, "tools/call", std::move(params), json::object{{"elicitation", json::object{}}});
    };
    const auto first = co_await http_call(server.port(), with_token(modern_call(tool_call("ask", {})), setup.token("alice")));
    if (first.status != 200u) throw std::runtime_error("the first round answered " + std::to_string(first.status));
    const auto asked = first.json().at("result").as_object();
    if (asked.at("resultType") != "input_required") throw std::runtime_error("no input asked for: " + first.body);
    json::object responses;
    for (const auto& [key, request] : asked.at("inputRequests").as_object())
      responses[key] = json::object{{"action", "accept"}, {"content", {{"name", "Ada"}}}};
    auto retry = tool_call("ask", {});
    retry["inputResponses"] = responses;
    retry["requestState"] = asked.at("requestState");

    const auto stolen = co_await http_call(server.port(), with_token(modern_call(retry), setup.token("mallory")));
    EXPECT_EQ(stolen.json().at("error").at("code"), -32602) << stolen.body;
    const auto refreshed = co_await http_call(server.port(), with_token(modern_call(retry), setup.token("alice")));
    EXPECT_EQ(refreshed.json().at("result").at("content").at(0).at("text"), "Hello, Ada") << refreshed.body;
  });
}

// RFC 9449 section 7: a token bound to the client's key (cnf.jkt) goes with
// the DPoP scheme and a fresh proof of that key for this request.
TEST_F(HttpAuth, DpopBoundTokensNeedAFreshProofOfTheirKey) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    using detail::oauth::make_dpop_proof;
    using dpop_key = detail::oauth::signing_key;
    const auto key = dpop_key::generate_p256();
    auto claims = token_claims(setup.issuer.url(), resource);
    claims["cnf"] = json::object{{"jkt", auth::detail::jwk_thumbprint(key.public_jwk())}};
    const auto bound = signing_key().sign(claims);
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto with_dpop = [&](const std::string& token, std::optional<std::string> proof) {
      auto req = mcp_post(init);
      req.header("Authorization", "DPoP " + token);
      if (proof) req.header("DPoP", *proof);
      return req;
    };
    const auto dpop_error = [](const http_reply& reply) {
      for (auto [it, end] = reply.headers.equal_range(http::field::www_authenticate); it != end; ++it)
        if (it->value().starts_with("DPoP")) {
          const auto text = std::string(it->value());
          const auto at = text.find("error=\"");
          if (at != std::string::npos) return text.substr(at + 7, text.find('"', at + 7) - at - 7);
        }
      return std::string();
    };

    const auto proof = make_dpop_proof(key, "POST", resource, bound);
    EXPECT_EQ((co_await http_call(server.port(), with_dpop(bound, proof))).status, 200u);

    const auto replayed = co_await http_call(server.port(), with_dpop(bound, proof));
    EXPECT_EQ(replayed.status, 401u);
    EXPECT_EQ(dpop_error(replayed), "invalid_dpop_proof") << "a proof used twice";

    struct refused_case {
      std::string why;
      http_request request;
      std::string error;
    };
    const auto other_key = dpop_key::generate_p256();
    auto unbound_claims = token_claims(setup.issuer.url(), resource);
    const auto unbound = signing_key().sign(unbound_claims);
    std::vector<refused_case> cases;
    cases.push_back({"no proof", with_dpop(bound, std::nullopt), "invalid_dpop_proof"});
    cases.push_back({"another key's proof", with_dpop(bound, make_dpop_proof(other_key, "POST", resource, bound)),
                     "invalid_dpop_proof"});
    cases.push_back({"a proof for GET", with_dpop(bound, make_dpop_proof(key, "GET", resource, bound)),
                     "invalid_dpop_proof"});
    cases.push_back({"a proof for another URL",
                     with_dpop(bound, make_dpop_proof(key, "POST", "https://mcp.example/other", bound)),
                     "invalid_dpop_proof"});
    cases.push_back({"a proof for another token",
                     with_dpop(bound, make_dpop_proof(key, "POST", resource, unbound)), "invalid_dpop_proof"});
    cases.push_back({"an unbound token with the DPoP scheme",
                     with_dpop(unbound, make_dpop_proof(key, "POST", resource, unbound)), "invalid_token"});
    auto twice = with_dpop(bound, make_dpop_proof(key, "POST", resource, bound));
    twice.header("DPoP", make_dpop_proof(key, "POST", resource, bound));
    cases.push_back({"two proofs", twice, "invalid_dpop_proof"});
    for (const auto& c : cases) {
      const auto reply = co_await http_call(server.port(), c.request);
      EXPECT_EQ(reply.status, 401u) << c.why;
      EXPECT_EQ(dpop_error(reply), c.error) << c.why;
    }
    // As Bearer, without its proof: refused, the error on the Bearer challenge.
    const auto as_bearer = co_await http_call(server.port(), with_token(mcp_post(init), bound));
    EXPECT_EQ(as_bearer.status, 401u);
    EXPECT_NE(as_bearer.header("WWW-Authenticate").find(R"(error="invalid_token")"), std::string::npos);
  });
}

TEST_F(HttpAuth, UnreachableKeysGive503WhileOtherRequestsAreServed) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    setup.issuer.down = true;
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto req = with_token(mcp_post(init), setup.token());
    const auto reply = co_await http_call(server.port(), req);
    EXPECT_EQ(reply.status, 503u);
    EXPECT_EQ(reply.header("Retry-After"), "7");
    // Meanwhile: the metadata, and challenges, are served.
    http_request metadata(http::verb::get, "/.well-known/oauth-protected-resource/mcp");
    EXPECT_EQ((co_await http_call(server.port(), metadata)).status, 200u);
    const auto anonymous = mcp_post(init);
    EXPECT_EQ((co_await http_call(server.port(), anonymous)).status, 401u);
    // Back up: served again, without a restart.
    setup.issuer.down = false;
    co_await sleep_for(1100ms);  // the fetch back-off after a failure
    EXPECT_EQ((co_await http_call(server.port(), req)).status, 200u);
  });
}

TEST_F(HttpAuth, KeyRotationIsPickedUpWithoutARestart) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    const auto session = co_await open_protected_session(server.port(), setup.token());
    setup.issuer.jwks = jwks_of({&signing_key(), &rotated_key()});
    const auto fresh = setup.token("user-1", "mcp:read", rotated_key());
    const auto ping = rpc_request(1, "ping");
    const auto reply = co_await call_in_session(server.port(), session, fresh, ping);
    EXPECT_EQ(reply.status, 200u);
    EXPECT_EQ(setup.issuer.hits["/jwks"], 2);
    EXPECT_EQ(setup.issuer.hits["/.well-known/oauth-authorization-server"], 1);
  });
}

TEST_F(HttpAuth, AToolsOwnScopesAreAskedForWithA403StepUp) {
  run_protected([](protected_setup& setup, test_server& server) -> asio::awaitable<void> {
    mcp::tool_info admin;
    admin.name = "admin";
    admin.required_scopes = {"mcp:admin"};
    server.tools->add_tool(admin, [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
      co_return call_tool_result::text("done");
    });
    mcp::resource_info secret;
    secret.uri = "secret://plans";
    secret.name = "plans";
    secret.required_scopes = {"mcp:secrets"};
    server.tools->add_resource(secret, [](const std::string& uri, request_context&)
                                           -> asio::awaitable<std::vector<resource_contents>> {
      co_return std::vector<resource_contents>{resource_contents::from_text(uri, "top secret")};
    });
    const auto session = co_await open_protected_session(server.port(), setup.token());
    const auto call = rpc_request(1, "tools/call", tool_call("admin", json::object()));
    const auto refused = co_await call_in_session(server.port(), session, setup.token(), call);
    EXPECT_EQ(refused.status, 403u);
    EXPECT_EQ(refused.header("WWW-Authenticate"),
              "Bearer error=\"insufficient_scope\", error_description=\"the token lacks scopes this request "
              "requires\", resource_metadata=\"" + metadata_url + "\", scope=\"mcp:read mcp:admin\"");
    EXPECT_EQ(refused.json().at("error").at("code"), auth::insufficient_scope_code);
    // Other tools are still served with the token.
    const auto echo_request = echo_call(2, "hi");
    const auto echo = co_await call_in_session(server.port(), session, setup.token(), echo_request);
    EXPECT_EQ(echo.status, 200u);
    // A client that prefers a stream gets the same 403: the refusal comes
    // before anything of a stream is written.
    auto streamed = with_token(session_post(call, session), setup.token());
    streamed.set("Accept", "text/event-stream, application/json");
    const auto streamed_refusal = co_await http_call(server.port(), streamed);
    EXPECT_EQ(streamed_refusal.status, 403u);
    EXPECT_EQ(streamed_refusal.header("WWW-Authenticate"), refused.header("WWW-Authenticate"));
    EXPECT_EQ(streamed_refusal.json().at("error").at("code"), auth::insufficient_scope_code);
    // The same user steps up: a new token with the scope, the same session.
    const auto upgraded = setup.token("user-1", "mcp:read mcp:admin");
    const auto allowed = co_await call_in_session(server.port(), session, upgraded, call);
    EXPECT_EQ(allowed.status, 200u);
    EXPECT_EQ(allowed.json().at("result").at("content").at(0).at("text"), "done");
    // Resources too.
    json::object read_params{{"uri", "secret://plans"}};
    const auto read = rpc_request(3, "resources/read", read_params);
    const auto hidden = co_await call_in_session(server.port(), session, upgraded, read);
    EXPECT_EQ(hidden.status, 403u);
    EXPECT_NE(hidden.header("WWW-Authenticate").find("scope=\"mcp:read mcp:secrets\""), std::string::npos);
  });
}

// The same protected server, its tokens checked by introspection at the test
// authorization server.
void run_introspected(auth::introspection_verifier_options::client_authentication method,
                      std::function<asio::awaitable<void>(test_issuer&, test_server&)> body) {
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto issuer_holder = std::make_unique<test_issuer>(ex, HttpAuth::files().cert, HttpAuth::files().key);
    auto& issuer = *issuer_holder;
    auth::introspection_verifier_options introspection;
    introspection.issuer = issuer.url();  // the endpoint found in its metadata
    introspection.audience = resource;
    introspection.client_id = "resource server";
    introspection.client_secret = "s3cret&more";
    introspection.authentication = method;
    introspection.ca_file = HttpAuth::files().cert;
    introspection.allow_private_addresses = true;  // the issuer is on 127.0.0.1
    introspection.fetch_timeout = std::chrono::milliseconds(2000);
    if (method == auth::introspection_verifier_options::client_authentication::basic)
      issuer.expected_basic = "Basic " + base64_encode("resource%20server:s3cret%26more");
    else
      issuer.expected_form_secret = "s3cret%26more";
    http_server_options options;
    http_auth_options a;
    a.make_verifier = [introspection](asio::any_io_executor on) {
      return auth::make_introspection_verifier(on, introspection);
    };
    a.resource = resource;
    a.authorization_servers = {issuer.url()};
    options.auth = std::move(a);
    auto server = std::make_unique<test_server>(ex, options);
    std::exception_ptr failure;
    try {
      co_await body(issuer, *server);
    } catch (...) {
      failure = std::current_exception();
    }
    co_await server->stop_and_wait();
    issuer.stop();
    if (failure) std::rethrow_exception(failure);
  });
}

json::object active_token(const test_issuer& issuer, std::string audience = resource) {
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch()).count();
  return json::object{{"active", true}, {"iss", issuer.url()}, {"sub", "alice"}, {"client_id", "app"},
                      {"aud", std::move(audience)}, {"scope", "mcp:read"}, {"exp", now + 300}};
}

asio::awaitable<unsigned> ping_with(std::uint16_t port, const std::string& token) {
  auto req = modern_post(1, "tools/call", tool_call("echo", {{"text", "x"}}));
  req.header("Authorization", "Bearer " + token);
  co_return (co_await http_call(port, req)).status;
}

TEST_F(HttpAuth, IntrospectionWithClientSecretBasicAndACache) {
  run_introspected(auth::introspection_verifier_options::client_authentication::basic,
                   [](test_issuer& issuer, test_server& server) -> asio::awaitable<void> {
    issuer.introspection["opaque-1"] = active_token(issuer);
    issuer.introspection["elsewhere"] = active_token(issuer, "https://other.example/mcp");
    EXPECT_EQ(co_await ping_with(server.port(), "opaque-1"), 200u);
    EXPECT_EQ(co_await ping_with(server.port(), "opaque-1"), 200u);
    EXPECT_EQ(issuer.hits["/introspect"], 1);  // the second came from the cache
    EXPECT_NE(issuer.last_introspection_body.find("token=opaque-1"), std::string::npos);
    EXPECT_EQ(co_await ping_with(server.port(), "revoked"), 401u);
    EXPECT_EQ(co_await ping_with(server.port(), "elsewhere"), 401u);
    issuer.down = true;
    EXPECT_EQ(co_await ping_with(server.port(), "another"), 503u);
  });
}

TEST_F(HttpAuth, IntrospectionWithClientSecretPost) {
  run_introspected(auth::introspection_verifier_options::client_authentication::post,
                   [](test_issuer& issuer, test_server& server) -> asio::awaitable<void> {
    issuer.introspection["opaque-2"] = active_token(issuer);
    EXPECT_EQ(co_await ping_with(server.port(), "opaque-2"), 200u);
    EXPECT_NE(issuer.last_introspection_body.find("client_id=resource%20server"), std::string::npos);
  });
}

}  // namespace
}  // namespace mcp::test
