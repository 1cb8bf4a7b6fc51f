// Our OAuth client and our protected server with a real OpenID provider (npm
// oidc-provider, pinned in package.json, run by oidc_provider.mjs on
// 127.0.0.1): sign-in with authorization code + PKCE through dynamic
// registration, refresh, client_credentials, DPoP-bound tokens (RFC 9449),
// JWT access tokens checked
// against the provider's published keys (and refused when expired, not yet
// valid, for another audience or issuer, tampered, unsigned or signed with a
// key it never published), key rotation picked up without a restart,
// introspection at the same provider, and `caduceus gateway --url` (the
// bridge for desktop hosts) signing in to a protected server by itself.

#include <mcp/auth/introspection_verifier.hpp>
#include <mcp/auth/jwt_verifier.hpp>
#include <mcp/base64.hpp>
#include <mcp/client/client.hpp>
#include <mcp/client/oauth.hpp>

#include "caduceus_cli.hpp"
#include "free_port.hpp"
#include "http_test_server.hpp"
#include "node_process.hpp"
#include "client/oauth/urls.hpp"
#include "transport/http/client/fetch.hpp"

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <future>

namespace mcp::test {
namespace {

using namespace std::chrono_literals;
using detail::http_client::fetch_request;
using detail::http_client::http_fetcher;
using detail::http_client::http_method;

// The provider's pre-registered clients (oidc_provider.mjs).
constexpr const char* machine_id = "mcp-machine";
constexpr const char* machine_secret = "machine-secret";
constexpr const char* server_id = "mcp-server";
constexpr const char* server_secret = "server-secret";

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

class OidcProvider : public ::testing::Test {
 public:
  static void SetUpTestSuite() {
    process = std::make_unique<node_process>(
        std::vector<std::string>{std::string(CADUCEUS_INTEROP_DIR) + "/oidc_provider.mjs", "--dpop"});
    const auto ready = json::parse("{" + process->wait_for_line("{", 20s, "oidc_provider.mjs"));
    issuer = json::value_to<std::string>(ready.at("issuer"));
  }
  static void TearDownTestSuite() { process.reset(); }

  static std::unique_ptr<node_process> process;
  static std::string issuer;
};
std::unique_ptr<node_process> OidcProvider::process;
std::string OidcProvider::issuer;

asio::awaitable<json::value> fetch_json(http_fetcher& fetcher, fetch_request request, unsigned expected = 200) {
  const auto url = request.url;
  const auto response = co_await fetcher.fetch(std::move(request));
  if (response.status != expected)
    throw std::runtime_error(url + " answered " + std::to_string(response.status) + ": " + response.body);
  co_return json::parse(response.body);
}

asio::awaitable<json::object> provider_metadata(http_fetcher& fetcher) {
  fetch_request request;
  request.url = OidcProvider::issuer + "/.well-known/openid-configuration";
  co_return (co_await fetch_json(fetcher, std::move(request))).as_object();
}

// A token for `resource` by the client_credentials grant, as a machine client
// would have it.
asio::awaitable<std::string> machine_token(http_fetcher& fetcher, const std::string& resource) {
  const auto metadata = co_await provider_metadata(fetcher);
  fetch_request request;
  request.method = http_method::post;
  request.url = json::value_to<std::string>(metadata.at("token_endpoint"));
  request.headers = {{"Content-Type", "application/x-www-form-urlencoded"},
                     {"Authorization", "Basic " + base64_encode(std::string(machine_id) + ":" + machine_secret)}};
  request.body = detail::oauth::form_encode(
      {{"grant_type", "client_credentials"}, {"scope", "mcp:tools"}, {"resource", resource}});
  const auto answer = co_await fetch_json(fetcher, std::move(request));
  co_return json::value_to<std::string>(answer.at("access_token"));
}

// A JWT with these claims (and header fields) signed with the provider's
// current signing key: well signed, whatever the claims say.
asio::awaitable<std::string> signed_by_provider(http_fetcher& fetcher, json::object claims, json::object header = {}) {
  fetch_request request;
  request.method = http_method::post;
  request.url = OidcProvider::issuer + "/test/sign";
  request.headers = {{"Content-Type", "application/json"}};
  request.body = json::serialize(json::object{{"claims", std::move(claims)}, {"header", std::move(header)}});
  co_return json::value_to<std::string>((co_await fetch_json(fetcher, std::move(request))).at("token"));
}

asio::awaitable<void> rotate_provider_keys(http_fetcher& fetcher) {
  fetch_request request;
  request.method = http_method::post;
  request.url = OidcProvider::issuer + "/test/rotate-keys";
  co_await fetch_json(fetcher, std::move(request));
}

json::object header_of(const std::string& jwt) {
  return json::parse(base64url_decode(jwt.substr(0, jwt.find('.'))).value()).as_object();
}

json::object claims_of(const std::string& jwt) {
  const auto first = jwt.find('.') + 1;
  return json::parse(base64url_decode(jwt.substr(first, jwt.find('.', first) - first)).value()).as_object();
}

// A server protected by the provider, on a port picked beforehand; its
// `whoami` tool says who the token belongs to.
struct protected_server {
  enum class checks { jwt, introspection };

  protected_server(asio::any_io_executor ex, checks how, std::string path = "/mcp") {
    // Known before the server starts: its resource URL, which its tokens must name, holds it.
    const auto port = static_cast<std::uint16_t>(free_port());
    resource = "http://127.0.0.1:" + std::to_string(port) + path;
    http_server_options options;
    options.port = port;
    options.path = path;
    http_auth_options a;
    if (how == checks::jwt) {
      auth::jwt_verifier_options jwt;
      jwt.issuer = OidcProvider::issuer;
      jwt.audience = resource;
      jwt.allow_http = true;
      jwt.allow_private_addresses = true;
      jwt.min_refresh_interval = 0s;  // a rotation seen at the next token
      // Made on the strand the server verifies tokens on (it may run on threads of its own).
      a.make_verifier = [jwt](asio::any_io_executor on) { return auth::make_jwt_verifier(on, jwt); };
    } else {
      auth::introspection_verifier_options introspection;
      introspection.issuer = OidcProvider::issuer;
      introspection.audience = resource;
      introspection.client_id = server_id;
      introspection.client_secret = server_secret;
      introspection.allow_http = true;
      introspection.allow_private_addresses = true;
      a.make_verifier = [introspection](asio::any_io_executor on) {
        return auth::make_introspection_verifier(on, introspection);
      };
    }
    a.resource = resource;
    a.authorization_servers = {OidcProvider::issuer};
    a.required_scopes = {"mcp:tools"};
    options.auth = std::move(a);
    server = std::make_unique<test_server>(ex, std::move(options));
    tool_info whoami;
    whoami.name = "whoami";
    whoami.description = "Says whose token the request came with";
    server->tools->add_tool(whoami, [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
      const auto* who = ctx.principal();
      co_return call_tool_result::text(who ? who->subject + " via " + who->client_id : "nobody");
    });
  }

  std::string url() const { return resource; }
  std::uint16_t port() const { return server->port(); }

  // An initialize POST with this bearer token: its status and challenge.
  asio::awaitable<http_reply> initialize_with(const std::string& token) const {
    auto request = mcp_post(rpc_request(0, "initialize", initialize_params()), {}, resource.substr(resource.find('/', 8)));
    request.header("Authorization", "Bearer " + token);
    co_return co_await http_call(port(), request);
  }

  std::string resource;
  std::unique_ptr<test_server> server;
};

// Runs `body` with a protected server, stopped however the body ends.
void with_protected_server(protected_server::checks how, std::string path,
                           std::function<asio::awaitable<void>(protected_server&, http_fetcher&)> body) {
  run_test(
      [&]() -> asio::awaitable<void> {
        auto ex = co_await asio::this_coro::executor;
        protected_server server(ex, how, path);
        detail::http_client::fetch_options local;  // the provider is on 127.0.0.1
        local.allow_private_addresses = true;
        http_fetcher fetcher(ex, local);
        std::exception_ptr failure;
        try {
          co_await body(server, fetcher);
        } catch (...) {
          failure = std::current_exception();
        }
        co_await server.server->stop_and_wait();
        if (failure) std::rethrow_exception(failure);
      },
      60s);
}

asio::awaitable<std::string> whoami_through(std::shared_ptr<oauth_client> auth, const std::string& url) {
  auto ex = co_await asio::this_coro::executor;
  http_client_options http;
  http.authorizer = std::move(auth);
  client c(ex);
  co_await c.connect(co_await connect_http(ex, url, std::move(http)));
  const auto answer = (co_await c.call_tool("whoami")).text_content();
  co_await c.close();
  co_return answer;
}

TEST_F(OidcProvider, OurClientSignsInWithCodeAndPkceThenRefreshes) {
  with_protected_server(protected_server::checks::jwt, "/mcp",
                        [](protected_server& server, http_fetcher&) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    oauth_options options;  // no client id: dynamic registration; a headless user agent
    options.allow_private_addresses = true;  // the provider is on 127.0.0.1
    options.client_name = "caduceus interop test";
    auto store = make_memory_oauth_store();
    options.store = store;
    auto auth = std::make_shared<oauth_client>(ex, options);
    const auto who = co_await whoami_through(auth, server.url());
    EXPECT_TRUE(who.starts_with("alice via ")) << who;  // the provider signs everyone in as alice

    const auto record = auth->record(server.url()).value();
    EXPECT_EQ(record.issuer, OidcProvider::issuer);
    EXPECT_EQ(record.registration, "dynamic");
    EXPECT_EQ(record.token_endpoint_auth_method, "none");
    EXPECT_EQ(header_of(record.access_token).at("typ"), "at+jwt");
    // The provider and our server both do DPoP: the token is bound to the client's key.
    EXPECT_EQ(record.token_type, "DPoP");
    EXPECT_TRUE(claims_of(record.access_token).contains("cnf"));
    const auto as_bearer = co_await server.initialize_with(record.access_token);
    EXPECT_EQ(as_bearer.status, 401u) << "a DPoP-bound token passed as Bearer, without its proof";
    EXPECT_FALSE(record.refresh_token.empty()) << "offline_access is offered: a refresh token was expected";
    if (record.refresh_token.empty()) co_return;

    // An access token the server no longer takes: the refresh token gets a new one, no sign-in.
    auto stale = record;
    stale.access_token = "stale";
    store->save(server.url(), stale);
    auto again = std::make_shared<oauth_client>(ex, options);
    EXPECT_EQ(co_await whoami_through(again, server.url()), who);
    const auto refreshed = again->record(server.url()).value();
    EXPECT_NE(refreshed.access_token, "stale");
    EXPECT_EQ(refreshed.client_id, record.client_id) << "refreshing must not register again";
    EXPECT_EQ(refreshed.token_type, "DPoP") << "the refreshed token is bound to the same key";
  });
}

// The bridge: a desktop host runs `caduceus gateway --url URL` as a stdio
// server; the gateway signs in to the protected server by itself (the
// provider's sign-in followed headlessly here, where a person would use the
// browser), keeps the DPoP-bound token, and serves the host with it.
TEST_F(OidcProvider, TheGatewaySignsInToAProtectedServerByItself) {
  with_protected_server(protected_server::checks::jwt, "/mcp",
                        [](protected_server& server, http_fetcher&) -> asio::awaitable<void> {
    const auto token_file = std::filesystem::temp_directory_path() /
                            ("caduceus-bridge-" + std::to_string(::getpid()) + ".json");
    std::filesystem::remove(token_file);
    const auto bridge = "'" + caduceus_program + "' gateway --url " + server.url() + " --headless --token-file '" +
                        token_file.string() + "'";
    // The host: our command line, over the gateway's stdio (run beside this
    // thread, which serves the protected server).
    auto host = std::async(std::launch::async, [&] { return cli({"--stdio", bridge, "call", "whoami"}, 40s); });
    const std::function<bool()> finished = [&] { return host.wait_for(0s) == std::future_status::ready; };
    EXPECT_TRUE(co_await wait_until(finished, 45s));
    const auto called = host.get();
    EXPECT_EQ(called.exit_code, 0) << describe(called);
    EXPECT_TRUE(called.out.starts_with("alice via ")) << describe(called);
    const auto kept = make_file_oauth_store(token_file.string())->load(server.url());
    EXPECT_EQ(kept ? kept->token_type : "(none kept)", "DPoP");
    std::filesystem::remove(token_file);
  });
}

TEST_F(OidcProvider, AMachineSignsInWithClientCredentials) {
  with_protected_server(protected_server::checks::jwt, "/mcp",
                        [](protected_server& server, http_fetcher&) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    oauth_options options;
    options.allow_private_addresses = true;  // the provider is on 127.0.0.1
    options.grant = oauth_grant::client_credentials;
    options.client_id = machine_id;
    options.client_secret = machine_secret;
    const auto who = co_await whoami_through(std::make_shared<oauth_client>(ex, options), server.url());
    EXPECT_EQ(who, std::string(machine_id) + " via " + machine_id);
  });
}

TEST_F(OidcProvider, TokensThatMustNotPassAreRefusedWith401) {
  with_protected_server(protected_server::checks::jwt, "/mcp",
                        [](protected_server& server, http_fetcher& fetcher) -> asio::awaitable<void> {
    const auto now = unix_now();
    const auto claims = [&](json::object changes) {
      json::object c{{"iss", OidcProvider::issuer}, {"aud", server.url()}, {"sub", "mallory"},
                     {"client_id", machine_id}, {"scope", "mcp:tools"}, {"iat", now},
                     {"exp", now + 300},  {"jti", "jti-" + std::to_string(now)}};
      for (auto& [name, value] : changes) c[name] = value;
      return c;
    };
    const json::object typ{{"typ", "at+jwt"}};
    // The control: a token the provider signed with every claim right passes.
    const auto good = co_await signed_by_provider(fetcher, claims({}), typ);
    EXPECT_EQ((co_await server.initialize_with(good)).status, 200u);

    // Signed by the provider, but wrong.
    const std::vector<std::tuple<std::string, json::object, json::object>> wrong{
        {"expired", claims({{"exp", now - 3600}}), typ},
        {"not yet valid", claims({{"nbf", now + 3600}}), typ},
        {"for another resource", claims({{"aud", "http://127.0.0.1:1/mcp"}}), typ},
        {"from another issuer", claims({{"iss", "http://127.0.0.1:1"}}), typ},
        {"with a key id the provider never published", claims({}), {{"typ", "at+jwt"}, {"kid", "no-such-key"}}}};
    std::vector<std::pair<std::string, std::string>> bad;
    for (const auto& [why, c, header] : wrong) {
      auto token = co_await signed_by_provider(fetcher, c, header);
      bad.emplace_back(why, std::move(token));
    }
    // Its signature over other claims: a changed subject.
    const auto first_dot = good.find('.'), second_dot = good.find('.', first_dot + 1);
    auto payload = json::parse(base64url_decode(good.substr(first_dot + 1, second_dot - first_dot - 1)).value());
    payload.as_object()["sub"] = "admin";
    bad.emplace_back("tampered", good.substr(0, first_dot + 1) + base64url_encode(json::serialize(payload)) +
                                     good.substr(second_dot));
    // No signature at all.
    bad.emplace_back("alg none", base64url_encode(R"({"alg":"none","typ":"at+jwt"})") + "." +
                                     base64url_encode(json::serialize(payload)) + ".");
    // A real token of the provider for a machine, for a different resource.
    auto elsewhere = co_await machine_token(fetcher, "http://127.0.0.1:1/other");
    bad.emplace_back("the provider's, for another resource", std::move(elsewhere));

    for (const auto& [why, token] : bad) {
      const auto reply = co_await server.initialize_with(token);
      EXPECT_EQ(reply.status, 401u) << why;
      EXPECT_NE(reply.header("WWW-Authenticate").find(R"(error="invalid_token")"), std::string::npos)
          << why << ": " << reply.header("WWW-Authenticate");
    }
  });
}

TEST_F(OidcProvider, KeyRotationAtTheProviderIsPickedUpWithoutARestart) {
  with_protected_server(protected_server::checks::jwt, "/mcp",
                        [](protected_server& server, http_fetcher& fetcher) -> asio::awaitable<void> {
    const auto before = co_await machine_token(fetcher, server.url());
    EXPECT_EQ((co_await server.initialize_with(before)).status, 200u);
    co_await rotate_provider_keys(fetcher);
    const auto after = co_await machine_token(fetcher, server.url());
    EXPECT_NE(header_of(after).at("kid"), header_of(before).at("kid")) << "the provider did not rotate";
    EXPECT_EQ((co_await server.initialize_with(after)).status, 200u) << "the new key was not fetched";
  });
}

TEST_F(OidcProvider, IntrospectionAtTheProvider) {
  // Tokens for this path are opaque (oidc_provider.mjs): only introspection can check them.
  with_protected_server(protected_server::checks::introspection, "/opaque/mcp",
                        [](protected_server& server, http_fetcher& fetcher) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    oauth_options options;
    options.allow_private_addresses = true;  // the provider is on 127.0.0.1
    options.grant = oauth_grant::client_credentials;
    options.client_id = machine_id;
    options.client_secret = machine_secret;
    auto auth = std::make_shared<oauth_client>(ex, options);
    // The provider's introspection names no subject for a machine's token (RFC 7662: optional).
    EXPECT_EQ(co_await whoami_through(auth, server.url()), std::string(" via ") + machine_id);
    EXPECT_EQ(auth->record(server.url()).value().access_token.find('.'), std::string::npos)
        << "expected an opaque token";

    const auto elsewhere = co_await machine_token(fetcher, "http://127.0.0.1:1/opaque/mcp");
    const auto reply = co_await server.initialize_with(elsewhere);
    EXPECT_EQ(reply.status, 401u) << "a token for another resource passed introspection";
    EXPECT_EQ((co_await server.initialize_with("made-up-token")).status, 401u);
  });
}

}  // namespace
}  // namespace mcp::test
