// SSRF guards (docs/security.md): what the library fetches on a peer's word
// (the client's OAuth discovery and sign-in, the server's issuer metadata
// and keys) reaches public addresses only, unless allow_private_addresses
// says otherwise. The check is on the address connected to, after name
// resolution: `localhost` is refused as 127.0.0.1 is.

#include <mcp/auth/jwt_verifier.hpp>
#include <mcp/client/oauth.hpp>

#include "jwt_test_keys.hpp"
#include "test_certificates.hpp"
#include "test_issuer.hpp"
#include "test_support.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <memory>
#include <string>
#include <vector>

namespace mcp::test {
namespace {

class SecuritySsrf : public tls_test_suite {
 public:
  static const certificates& files() { return *certs; }
};

const std::string audience = "https://mcp.example/mcp";

/// A listener on 127.0.0.1 that only counts the connections made to it.
class counting_listener {
 public:
  explicit counting_listener(asio::any_io_executor ex) : acceptor_(ex, {asio::ip::make_address("127.0.0.1"), 0}) {
    asio::co_spawn(ex, accept_loop(), asio::detached);
  }
  ~counting_listener() { stop(); }
  void stop() {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
  }
  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  int connections = 0;

 private:
  asio::awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, socket] = co_await acceptor_.async_accept(asio::as_tuple(asio::use_awaitable));
      if (ec) co_return;
      ++connections;
    }
  }
  asio::ip::tcp::acceptor acceptor_;
};

/// The outcome of verifying a token of `issuer` with a verifier that may or
/// may not reach private addresses.
asio::awaitable<auth::verification> verify_with(test_issuer& issuer, const std::string& token, bool allow_private) {
  auth::jwt_verifier_options jwt;
  jwt.issuer = issuer.url();
  jwt.audience = audience;
  jwt.ca_file = SecuritySsrf::files().cert;
  jwt.fetch_timeout = std::chrono::milliseconds(3000);
  jwt.allow_private_addresses = allow_private;
  auto verifier = auth::make_jwt_verifier(co_await asio::this_coro::executor, jwt);
  co_return co_await verifier->verify(token);
}

TEST_F(SecuritySsrf, TheServerFetchesNoKeysFromThisMachineUnlessAllowed) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const auto key = test_key::ec("key-1");
    test_issuer issuer(ex, certs->cert, certs->key);  // on 127.0.0.1
    issuer.jwks = jwks_of({&key});
    const auto token = key.sign(token_claims(issuer.url(), audience));

    const auto refused = co_await verify_with(issuer, token, false);
    EXPECT_EQ(refused.result, auth::verification::outcome::unavailable);
    EXPECT_TRUE(issuer.hits.empty()) << "the issuer on 127.0.0.1 was asked for " << issuer.hits.begin()->first;

    const auto allowed = co_await verify_with(issuer, token, true);
    EXPECT_EQ(allowed.result, auth::verification::outcome::valid) << allowed.description;
    EXPECT_EQ(issuer.hits["/jwks"], 1);
    issuer.stop();
  });
}

TEST_F(SecuritySsrf, TheClientsSignInReachesThisMachineOnlyWhenAllowed) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    counting_listener listener(ex);
    const std::vector<std::string> hosts{"127.0.0.1", "localhost", "[::ffff:127.0.0.1]"};
    for (const auto& host : hosts) {
      const auto url = "http://" + host + ":" + std::to_string(listener.port()) + "/mcp";
      const oauth_options defaults;
      auto client = std::make_shared<oauth_client>(ex, defaults);
      std::string refusal;
      try {
        co_await client->sign_in(url);
      } catch (const std::exception& e) {
        refusal = e.what();
      }
      EXPECT_NE(refusal.find("loopback address"), std::string::npos) << host << ": " << refusal;
    }
    EXPECT_EQ(listener.connections, 0);

    // Allowed, the sign-in connects (and fails later: nothing answers there).
    oauth_options allowing;
    allowing.allow_private_addresses = true;
    allowing.timeout = std::chrono::milliseconds(300);
    auto client = std::make_shared<oauth_client>(ex, allowing);
    const auto url = "http://127.0.0.1:" + std::to_string(listener.port()) + "/mcp";
    std::string failure;
    try {
      co_await client->sign_in(url);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    EXPECT_EQ(failure.find("loopback address"), std::string::npos) << failure;
    EXPECT_GE(listener.connections, 1);
    listener.stop();
  });
}

}  // namespace
}  // namespace mcp::test
