// What OAuth brings from the network: on the server, the Authorization
// header (auth/bearer.cpp), a DPoP proof (auth/dpop_proof.cpp, detail/jose.cpp), and
// an access token checked against the issuer's JWKS document
// (auth/jwks_cache.cpp, auth/jwt_check.cpp); on the client, the
// WWW-Authenticate challenges of a server (client/oauth/challenge.cpp).
// Input parts, NUL-separated: the Authorization value, a DPoP proof, a
// WWW-Authenticate value, a JWKS document, a token. None of them may crash
// or throw, and a token is never valid without a key that signed it.

#include <mcp/transport/header_list.hpp>

#include "auth/bearer.hpp"
#include "auth/dpop_proof.hpp"
#include "auth/jwks_cache.hpp"
#include "auth/jwt_check.hpp"
#include "client/oauth/challenge.hpp"
#include "fuzz_input.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdlib>

namespace {

namespace asio = boost::asio;
using namespace mcp::auth::detail;

void read_authorization(std::string_view value) {
  mcp::header_list headers;
  headers.add("Authorization", value);
  (void)read_bearer(headers, 16 * 1024, true);
  (void)has_query_token(value);
}

void check_proof(std::string_view proof) {
  const std::vector<std::string> algorithms = {"ES256", "RS256", "EdDSA"};
  dpop_expectation expected;
  expected.method = "POST";
  expected.url = "https://mcp.example.com/mcp";
  expected.access_token = "token";
  expected.algorithms = algorithms;
  (void)check_dpop_proof(proof, expected);
}

// The JWKS a fuzzed issuer serves, then the token checked against it.
void check_token(std::string_view jwks, std::string_view token) {
  try {
    (void)parse_jwks(jwks);
  } catch (const std::runtime_error&) {
  }
  asio::io_context io;
  auto load = [document = std::string(jwks)]() -> asio::awaitable<std::string> { co_return document; };
  auto keys = std::make_shared<jwks_cache>(io.get_executor(), load, jwks_cache::settings{});
  mcp::auth::jwt_verifier_options options;
  options.issuer = "https://issuer.example.com";
  options.audience = "https://mcp.example.com/mcp";
  auto checker = std::make_shared<jwt_checker>(options, keys);
  asio::co_spawn(io, checker->verify(std::string(token)), [](std::exception_ptr e, mcp::auth::verification v) {
    if (e) std::rethrow_exception(e);
    // Tokens here are made up: a valid one would have forged a signature.
    if (v.result == mcp::auth::verification::outcome::valid) std::abort();
  });
  io.run();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = mcp::fuzz::parts(mcp::fuzz::as_text(data, size));
  read_authorization(mcp::fuzz::part(input, 0));
  check_proof(mcp::fuzz::part(input, 1));
  const std::vector<std::string> challenges = {std::string(mcp::fuzz::part(input, 2))};
  (void)mcp::detail::oauth::parse_challenge(challenges, "Bearer");
  (void)mcp::detail::oauth::parse_challenge(challenges, "DPoP");
  if (input.size() > 3) check_token(mcp::fuzz::part(input, 3), mcp::fuzz::part(input, 4));
  return 0;
}
