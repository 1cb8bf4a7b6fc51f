#pragma once
// The TLS settings every context of ours starts from, on the server and on
// the client (docs/security.md, "TLS"): TLS 1.2 at least; for TLS 1.2 only
// AEAD ciphers with forward secrecy (ECDHE or DHE key exchange: no RC4,
// 3DES, CBC, export, NULL or static RSA), TLS 1.3's suites all being so; no
// compression (CRIME), no renegotiation. A client context verifies the
// server's certificate chain by default; the host name is checked per
// connection (timed_stream::expect_server: SNI and the name check).

#include <memory>
#include <string>

namespace boost::asio::ssl {
class context;
}

namespace mcp::detail {

/// Applies the policy to a context made for either side.
void apply_tls_policy(boost::asio::ssl::context& context);

/// A client context with the policy that trusts `ca_file` (PEM; empty: the
/// system's CAs), or trusts anything when `verify_peer` is false. Throws
/// boost::system::system_error when `ca_file` cannot be loaded.
std::unique_ptr<boost::asio::ssl::context> make_client_tls_context(const std::string& ca_file, bool verify_peer);

}  // namespace mcp::detail
