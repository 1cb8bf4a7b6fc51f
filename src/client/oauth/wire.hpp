#pragma once
// The JSON documents of OAuth that the client reads, declared once and read
// with the json/ layer: Protected Resource Metadata (RFC 9728), Authorization
// Server Metadata (RFC 8414, OpenID Connect Discovery), the answers of the
// registration (RFC 7591) and token (OAuth 2.1 section 3.2.3) endpoints.

#include <boost/describe/class.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcp::detail::oauth {

using string_list = std::optional<std::vector<std::string>>;

struct protected_resource_metadata {
  std::string resource;
  string_list authorization_servers;
  string_list scopes_supported;
  string_list dpop_signing_alg_values_supported;  ///< the server takes DPoP proofs
  std::optional<bool> dpop_bound_access_tokens_required;
};
BOOST_DESCRIBE_STRUCT(protected_resource_metadata, (),
                      (resource, authorization_servers, scopes_supported, dpop_signing_alg_values_supported,
                       dpop_bound_access_tokens_required))

struct authorization_server_metadata {
  std::string issuer;
  std::optional<std::string> authorization_endpoint;
  std::string token_endpoint;
  std::optional<std::string> registration_endpoint;
  string_list scopes_supported;
  string_list grant_types_supported;
  string_list token_endpoint_auth_methods_supported;
  string_list code_challenge_methods_supported;
  std::optional<bool> client_id_metadata_document_supported;
  std::optional<bool> authorization_response_iss_parameter_supported;
  string_list dpop_signing_alg_values_supported;  ///< RFC 9449 section 5.1
};
BOOST_DESCRIBE_STRUCT(authorization_server_metadata, (),
                      (issuer, authorization_endpoint, token_endpoint, registration_endpoint, scopes_supported,
                       grant_types_supported, token_endpoint_auth_methods_supported,
                       code_challenge_methods_supported, client_id_metadata_document_supported,
                       authorization_response_iss_parameter_supported, dpop_signing_alg_values_supported))

struct registration_response {
  std::string client_id;
  std::optional<std::string> client_secret;
  std::optional<std::string> token_endpoint_auth_method;
  string_list redirect_uris;
};
BOOST_DESCRIBE_STRUCT(registration_response, (), (client_id, client_secret, token_endpoint_auth_method, redirect_uris))

struct token_response {
  std::string access_token;
  std::optional<std::string> token_type;
  std::optional<double> expires_in;
  std::optional<std::string> refresh_token;
  std::optional<std::string> scope;
  std::optional<std::string> issued_token_type;  ///< a token exchange's (RFC 8693 section 2.2.1)
};
BOOST_DESCRIBE_STRUCT(token_response, (), (access_token, token_type, expires_in, refresh_token, scope,
                                           issued_token_type))

/// An endpoint's refusal (RFC 6749 section 5.2, RFC 7591 section 3.2.2).
struct error_response {
  std::string error;
  std::optional<std::string> error_description;
};
BOOST_DESCRIBE_STRUCT(error_response, (), (error, error_description))

}  // namespace mcp::detail::oauth
