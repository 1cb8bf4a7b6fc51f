#include "client_assertion.hpp"

#include "jws.hpp"

#include "../../detail/random.hpp"

#include <chrono>

namespace mcp::detail::oauth {

std::string make_client_assertion(std::string_view client_id, std::string_view audience,
                                  std::string_view private_key_pem, std::string_view algorithm) {
  const auto key = signing_key::from_pem(private_key_pem, "private_key_jwt");
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch()).count();
  const boost::json::object claims{{"iss", client_id}, {"sub", client_id}, {"aud", audience},
                                   {"jti", random_hex(16)}, {"iat", now}, {"exp", now + 300}};
  return key.sign_jwt({{"typ", "JWT"}}, claims, algorithm, "private_key_jwt");
}

}  // namespace mcp::detail::oauth
