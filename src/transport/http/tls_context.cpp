#include "tls_context.hpp"

#include <boost/asio/ssl/context.hpp>

#include <openssl/ssl.h>

namespace mcp::detail {

namespace asio = boost::asio;

namespace {

// Mozilla's "intermediate" list for TLS 1.2: what every client of the last
// decade speaks, and nothing without forward secrecy or authenticated encryption.
constexpr const char* tls12_ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:"
    "DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305";

}  // namespace

void apply_tls_policy(asio::ssl::context& context) {
  context.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                      asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                      asio::ssl::context::no_tlsv1_1 | asio::ssl::context::no_compression);
  auto* native = context.native_handle();
  SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
  SSL_CTX_set_options(native, SSL_OP_NO_RENEGOTIATION);
  SSL_CTX_set_cipher_list(native, tls12_ciphers);
}

std::unique_ptr<asio::ssl::context> make_client_tls_context(const std::string& ca_file, bool verify_peer) {
  auto context = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_client);
  apply_tls_policy(*context);
  if (!verify_peer) {
    context->set_verify_mode(asio::ssl::verify_none);
    return context;
  }
  context->set_verify_mode(asio::ssl::verify_peer);
  if (ca_file.empty())
    context->set_default_verify_paths();
  else
    context->load_verify_file(ca_file);
  return context;
}

}  // namespace mcp::detail
