#pragma once
// Self-signed certificates for the TLS tests, made at test time with the
// openssl command-line tool in a temporary directory (removed afterwards).

#include <mcp/server/http_server.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include <stdlib.h>

namespace mcp::test {

/// A temporary directory with two self-signed certificates made by the openssl
/// tool: `cert`/`key` for localhost and 127.0.0.1 (the server's), and
/// `other_cert`/`other_key`, an unrelated CA (for a client that must not trust
/// the server).
struct certificates {
  using path = std::filesystem::path;

  path dir;
  std::string cert, key, other_cert, other_key;
  std::string failure;  ///< why they could not be made ("" when they were)
  bool missing_tool = false;

  certificates() {
    if (std::system("openssl version >/dev/null 2>&1") != 0) {
      missing_tool = true;
      failure = "the openssl command-line tool is not installed (Debian package openssl)";
      return;
    }
    std::string pattern = (std::filesystem::temp_directory_path() / "caduceus-tls-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
      failure = "cannot create a temporary directory";
      return;
    }
    dir = pattern;
    cert = (dir / "cert.pem").string();
    key = (dir / "key.pem").string();
    other_cert = (dir / "other-cert.pem").string();
    other_key = (dir / "other-key.pem").string();
    if (!make(cert, key, "/CN=localhost", "subjectAltName=DNS:localhost,IP:127.0.0.1") ||
        !make(other_cert, other_key, "/CN=localhost", "subjectAltName=DNS:localhost,IP:127.0.0.1"))
      failure = "openssl req failed to make a self-signed certificate";
  }
  ~certificates() {
    std::error_code ignored;
    if (!dir.empty()) std::filesystem::remove_all(dir, ignored);
  }

  static bool make(const std::string& cert_file, const std::string& key_file, const std::string& subject,
                   const std::string& alt_names) {
    const std::string command = "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj " + subject +
                                " -addext " + alt_names + " -keyout '" + key_file + "' -out '" + cert_file +
                                "' >/dev/null 2>&1";
    return std::system(command.c_str()) == 0 && std::filesystem::exists(cert_file) && std::filesystem::exists(key_file);
  }
};

/// A suite of HTTPS tests: one set of certificates for the whole suite, and
/// tests skipped where the openssl tool is missing.
class tls_test_suite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { certs = new certificates(); }
  static void TearDownTestSuite() {
    delete certs;
    certs = nullptr;
  }
  void SetUp() override {
    if (certs->missing_tool) GTEST_SKIP() << certs->failure;
    ASSERT_TRUE(certs->failure.empty()) << certs->failure;
  }
  /// A server that serves HTTPS with `cert` and `key`.
  static http_server_options tls_options() {
    http_server_options options;
    options.tls_certificate_file = certs->cert;
    options.tls_private_key_file = certs->key;
    return options;
  }

  inline static certificates* certs = nullptr;
};

}  // namespace mcp::test
