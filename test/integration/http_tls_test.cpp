// The HTTP server over TLS (http_server_options::tls_certificate_file and
// tls_private_key_file): a self-signed certificate for localhost/127.0.0.1 is
// made with the openssl tool at test time, and a Beast TLS client that trusts
// only it (peer and host name verified) talks MCP to the server: JSON and SSE
// answers, plain HTTP on the TLS port, a client trusting another CA, a client
// that never handshakes, and a server whose certificate file is missing.

#include <mcp/client/client.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/http_client.hpp>

#include "http_client.hpp"
#include "http_test_server.hpp"
#include "legacy_client.hpp"
#include "test_certificates.hpp"
#include "test_support.hpp"

#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>

#include <openssl/ssl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace mcp::test {
namespace {

namespace ssl = asio::ssl;
namespace fs = std::filesystem;

class HttpTls : public tls_test_suite {};

// --- a TLS client ----------------------------------------------------------------

/// One HTTPS connection to 127.0.0.1:port that trusts only `ca_file` and
/// checks the server's certificate names `host_name` (sent as SNI too).
class tls_connection {
 public:
  tls_connection(asio::any_io_executor ex, std::uint16_t port, const std::string& ca_file,
                 std::string host_name = "localhost")
      : context_(ssl::context::tls_client), port_(port), host_name_(std::move(host_name)) {
    context_.load_verify_file(ca_file);
    context_.set_verify_mode(ssl::verify_peer);
    stream_ = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(ex, context_);
    if (!SSL_set_tlsext_host_name(stream_->native_handle(), host_name_.c_str()))
      throw std::runtime_error("cannot set SNI");
    stream_->set_verify_callback(ssl::host_name_verification(host_name_));
  }

  /// Connects and handshakes; throws system_error when the handshake fails
  /// (certificate verification among others).
  asio::awaitable<void> connect(std::chrono::milliseconds limit = 5s) {
    const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), port_);
    auto& tcp = stream_->next_layer();
    tcp.expires_after(limit);
    auto [ec] = co_await tcp.async_connect(endpoint, asio::as_tuple(asio::use_awaitable));
    check(ec, "connect");
    tcp.expires_after(limit);
    auto [hs] = co_await stream_->async_handshake(ssl::stream_base::client, asio::as_tuple(asio::use_awaitable));
    check(hs, "TLS handshake");
    tcp.expires_never();
    connected_ = true;
  }

  asio::awaitable<void> write(const http_request& req, std::chrono::milliseconds limit = 5s) {
    if (!connected_) co_await connect(limit);
    http::request<http::string_body> out{req.method, req.target, 11};
    for (const auto& [name, value] : req.headers) out.insert(name, value);
    out.set(http::field::host, host_name_ + ":" + std::to_string(port_));
    out.body() = req.body;
    if (!req.body.empty() || req.method == http::verb::post) out.prepare_payload();
    stream_->next_layer().expires_after(limit);
    auto [ec, n] = co_await http::async_write(*stream_, out, asio::as_tuple(asio::use_awaitable));
    check(ec, "write");
  }

  asio::awaitable<http_reply> send(const http_request& req, std::chrono::milliseconds limit = 5s) {
    co_await write(req, limit);
    http::response_parser<http::string_body> parser;
    parser.body_limit(boost::none);
    stream_->next_layer().expires_after(limit);
    auto [ec, n] = co_await http::async_read(*stream_, buffer_, parser, asio::as_tuple(asio::use_awaitable));
    check(ec, "read a response");
    stream_->next_layer().expires_never();
    auto res = parser.release();
    http_reply reply;
    reply.status = res.result_int();
    reply.body = std::move(res.body());
    reply.headers = std::move(res.base());
    co_return reply;
  }

  asio::awaitable<http_reply> read_head(std::chrono::milliseconds limit = 5s) {
    parser_ = std::make_unique<http::response_parser<http::buffer_body>>();
    parser_->body_limit(boost::none);
    events_ = sse_parser();
    stream_->next_layer().expires_after(limit);
    auto [ec, n] = co_await http::async_read_header(*stream_, buffer_, *parser_, asio::as_tuple(asio::use_awaitable));
    check(ec, "read a response head");
    stream_->next_layer().expires_never();
    http_reply reply;
    reply.status = parser_->get().result_int();
    reply.headers = parser_->get().base();
    co_return reply;
  }

  /// The next JSON message of an event-stream body; std::nullopt at its end.
  asio::awaitable<std::optional<json::value>> next_message(std::chrono::milliseconds limit = 5s) {
    for (;;) {
      while (!events_.events.empty()) {
        auto e = std::move(events_.events.front());
        events_.events.pop_front();
        if (!e.data.empty()) co_return json::parse(e.data);
      }
      if (parser_->is_done()) co_return std::nullopt;
      char chunk[4096];
      parser_->get().body().data = chunk;
      parser_->get().body().size = sizeof chunk;
      stream_->next_layer().expires_after(limit);
      auto [ec, n] = co_await http::async_read_some(*stream_, buffer_, *parser_, asio::as_tuple(asio::use_awaitable));
      if (ec == http::error::need_buffer) ec = {};
      check(ec, "read the body");
      stream_->next_layer().expires_never();
      const auto got = sizeof chunk - parser_->get().body().size;
      events_.feed(std::string_view(chunk, got));
    }
  }

 private:
  static void check(const boost::system::error_code& ec, const char* what) {
    if (ec == beast::error::timeout)
      throw std::runtime_error(std::string("TLS client: ") + what + ": no answer within the deadline");
    if (ec) throw boost::system::system_error(ec, std::string("TLS client: ") + what);
  }

  ssl::context context_;
  std::uint16_t port_;
  std::string host_name_;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> stream_;
  bool connected_ = false;
  beast::flat_buffer buffer_;
  std::unique_ptr<http::response_parser<http::buffer_body>> parser_;
  sse_parser events_;
};

/// initialize + notifications/initialized over `c`; the session id.
asio::awaitable<std::string> open_tls_session(tls_connection& c) {
  const auto init = rpc_request(0, "initialize", initialize_params());
  const auto req = mcp_post(init);
  const auto reply = co_await c.send(req);
  if (reply.status != 200) throw std::runtime_error("initialize answered " + std::to_string(reply.status));
  auto id = reply.header("Mcp-Session-Id");
  if (id.empty()) throw std::runtime_error("initialize gave no Mcp-Session-Id");
  const auto initialized = rpc_notification("notifications/initialized");
  const auto note = session_post(initialized, id);
  const auto ack = co_await c.send(note);
  if (ack.status != 202) throw std::runtime_error("notifications/initialized answered " + std::to_string(ack.status));
  co_return id;
}

/// A fresh TLS connection opens a session and has `text` echoed; throws when it fails.
asio::awaitable<void> expect_tls_echo(std::uint16_t port, const std::string& ca_file, std::string text) {
  tls_connection c(co_await asio::this_coro::executor, port, ca_file);
  const auto session = co_await open_tls_session(c);
  const auto call = echo_call(1, text);
  const auto req = session_post(call, session);
  const auto reply = co_await c.send(req);
  EXPECT_EQ(reply.status, 200u);
  EXPECT_EQ(first_text(reply.json().at("result").as_object()), text);
}

// --- tests ---------------------------------------------------------------------------

TEST_F(HttpTls, InitializeAndEchoOverHttps) {
  run_http_test(tls_options(), [](test_server& s) -> asio::awaitable<void> {
    tls_connection c(co_await asio::this_coro::executor, s.port(), certs->cert);
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto req = mcp_post(init);
    const auto reply = co_await c.send(req);
    EXPECT_EQ(reply.status, 200u);
    EXPECT_EQ(reply.content_type(), "application/json");
    const auto session = reply.header("Mcp-Session-Id");
    EXPECT_GE(session.size(), 32u);
    EXPECT_EQ(reply.json().at("result").at("protocolVersion"), "2025-11-25");
    CO_ASSERT_TRUE(!session.empty());

    const auto initialized = rpc_notification("notifications/initialized");
    const auto note = session_post(initialized, session);
    const auto ack = co_await c.send(note);
    EXPECT_EQ(ack.status, 202u);

    // The same keep-alive TLS connection serves the call.
    const auto call = echo_call(5, "over TLS");
    const auto call_req = session_post(call, session);
    const auto answer = co_await c.send(call_req);
    EXPECT_EQ(answer.status, 200u);
    EXPECT_EQ(answer.json().at("id"), 5);
    EXPECT_EQ(first_text(answer.json().at("result").as_object()), "over TLS");
    EXPECT_EQ(s.http.session_count(), 1u);
  });
}

TEST_F(HttpTls, SseResponseOverHttps) {
  run_http_test(tls_options(), [](test_server& s) -> asio::awaitable<void> {
    tls_connection c(co_await asio::this_coro::executor, s.port(), certs->cert);
    const auto session = co_await open_tls_session(c);
    auto params = tool_call("count", json::object{{"steps", 3}}, "tls-progress");
    const auto call = rpc_request(7, "tools/call", std::move(params));
    auto req = session_post(call, session);
    req.set("Accept", "text/event-stream, application/json");  // prefers a stream
    co_await c.write(req);
    const auto head = co_await c.read_head();
    EXPECT_EQ(head.status, 200u);
    EXPECT_EQ(head.content_type(), "text/event-stream");
    std::vector<json::value> seen;
    while (auto m = co_await c.next_message()) seen.push_back(std::move(*m));
    CO_ASSERT_TRUE(seen.size() == 4u);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(seen[i].at("method"), "notifications/progress");
      EXPECT_EQ(seen[i].at("params").at("progressToken"), "tls-progress");
    }
    EXPECT_EQ(seen[3].at("id"), 7);
    EXPECT_EQ(first_text(seen[3].at("result").as_object()), "counted to 3");

    // The connection goes on after the stream.
    const auto echo = echo_call(8, "after the stream");
    const auto echo_req = session_post(echo, session);
    const auto after = co_await c.send(echo_req);
    EXPECT_EQ(after.status, 200u);
    EXPECT_EQ(first_text(after.json().at("result").as_object()), "after the stream");
  });
}

TEST_F(HttpTls, PlainHttpOnTheTlsPortGetsNoAnswerAndHarmsNothing) {
  run_http_test(tls_options(), [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    for (int attempt = 0; attempt < 3; ++attempt) {
      http_connection plain(ex, s.port());
      const auto init = rpc_request(0, "initialize", initialize_params());
      const auto req = mcp_post(init);
      bool failed = false;
      try {
        const auto reply = co_await plain.send(req, 3s);
        // Whatever came back, it is not an MCP answer.
        EXPECT_NE(reply.status, 200u);
        EXPECT_FALSE(reply.has("Mcp-Session-Id"));
      } catch (const boost::system::system_error&) {
        failed = true;  // the connection closed, or the bytes were no HTTP response
      } catch (const std::runtime_error& e) {
        ADD_FAILURE() << "the server left a plain-HTTP client hanging: " << e.what();
      }
      EXPECT_TRUE(failed);
      plain.close();
    }
    EXPECT_EQ(s.http.session_count(), 0u);
    // The server still serves TLS clients.
    co_await expect_tls_echo(s.port(), certs->cert, "still here");
  });
}

TEST_F(HttpTls, ClientTrustingAnotherCaFailsVerification) {
  run_http_test(tls_options(), [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    {
      tls_connection stranger(ex, s.port(), certs->other_cert);
      bool rejected = false;
      try {
        co_await stranger.connect(3s);
      } catch (const boost::system::system_error& e) {
        rejected = true;
        EXPECT_EQ(e.code().category(), asio::error::get_ssl_category()) << e.what();
      }
      EXPECT_TRUE(rejected) << "a client trusting another CA accepted the server's certificate";
    }
    {
      // The right CA, but a name the certificate does not carry.
      tls_connection misnamed(ex, s.port(), certs->cert, "example.com");
      bool rejected = false;
      try {
        co_await misnamed.connect(3s);
      } catch (const boost::system::system_error&) {
        rejected = true;
      }
      EXPECT_TRUE(rejected) << "host name verification passed for example.com";
    }
    EXPECT_EQ(s.http.session_count(), 0u);
    co_await expect_tls_echo(s.port(), certs->cert, "verified");
  });
}

// --- what our client refuses, what our server refuses (docs/security.md, "TLS") -----

/// A self-signed certificate for localhost and 127.0.0.1 that expired in
/// 2020 (`openssl ca` sets dates that `openssl req` cannot); false when the
/// tool failed.
bool make_expired_certificate(const fs::path& dir, const std::string& cert, const std::string& key) {
  const auto ca = dir / "expired-ca";
  fs::create_directories(ca);
  {
    std::FILE* config = std::fopen((ca / "ca.cnf").c_str(), "w");
    if (!config) return false;
    std::fputs("[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\n"
               "default_md = sha256\npolicy = p\ncopy_extensions = copy\n[p]\ncommonName = supplied\n",
               config);
    std::fclose(config);
  }
  const std::string in_ca = "cd '" + (ca).string() + "' && ";
  const std::string command =
      in_ca + ": > index.txt && echo 01 > serial && " +
      "openssl req -new -newkey rsa:2048 -nodes -subj /CN=localhost "
      "-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout '" + key + "' -out request.csr >/dev/null 2>&1 && " +
      "openssl ca -batch -config ca.cnf -selfsign -keyfile '" + key + "' -in request.csr " +
      "-startdate 20200101000000Z -enddate 20200102000000Z -out '" + cert + "' >/dev/null 2>&1";
  return std::system(command.c_str()) == 0 && fs::exists(cert);
}

/// Why our client (connect_http, trusting `ca_file`) could not open a
/// session at `url`; "" when it could.
asio::awaitable<std::string> client_refusal(std::string url, std::string ca_file) {
  auto ex = co_await asio::this_coro::executor;
  http_client_options options;
  options.ca_file = std::move(ca_file);
  options.connect_timeout = 5s;
  std::string refusal;
  try {
    auto transport = co_await connect_http(ex, std::move(url), std::move(options));
    mcp::client c(ex, legacy_only());
    co_await c.connect(std::move(transport));
    co_await c.close();
  } catch (const std::exception& e) {
    refusal = e.what();
  }
  co_return refusal;
}

TEST_F(HttpTls, OurClientRefusesAnExpiredCertificateAndOneForAnotherHost) {
  const auto expired_cert = (certs->dir / "expired-cert.pem").string();
  const auto expired_key = (certs->dir / "expired-key.pem").string();
  ASSERT_TRUE(make_expired_certificate(certs->dir, expired_cert, expired_key));
  const auto misnamed_cert = (certs->dir / "misnamed-cert.pem").string();
  const auto misnamed_key = (certs->dir / "misnamed-key.pem").string();
  ASSERT_TRUE(certificates::make(misnamed_cert, misnamed_key, "/CN=other.example", "subjectAltName=DNS:other.example"));

  // Each certificate is its own CA and trusted as such: only its dates or its name are wrong.
  const std::vector<std::pair<std::string, std::string>> servers{{expired_cert, expired_key},
                                                                 {misnamed_cert, misnamed_key}};
  for (const auto& files : servers) {
    const std::string cert = files.first;
    http_server_options options;
    options.tls_certificate_file = cert;
    options.tls_private_key_file = files.second;
    run_http_test(options, [&cert](test_server& s) -> asio::awaitable<void> {
      const auto url = "https://localhost:" + std::to_string(s.port()) + "/mcp";
      const auto refusal = co_await client_refusal(url, cert);
      EXPECT_NE(refusal.find("TLS handshake"), std::string::npos) << cert << ": " << refusal;
      EXPECT_NE(refusal.find("certificate verify failed"), std::string::npos) << cert << ": " << refusal;
      EXPECT_EQ(s.http.session_count(), 0u);
    });
  }
  // The same client, given the good certificate, is served (the refusals above were the certificates').
  run_http_test(tls_options(), [](test_server& s) -> asio::awaitable<void> {
    const auto url = "https://localhost:" + std::to_string(s.port()) + "/mcp";
    const auto refusal = co_await client_refusal(url, certs->cert);
    EXPECT_EQ(refusal, "");
  });
}

/// Whether a TLS handshake with the server at `port`, by a client limited to
/// `max_version` and `ciphers` (TLS 1.2 and below), succeeds.
asio::awaitable<bool> handshake_succeeds(std::uint16_t port, int max_version, const char* ciphers) {
  auto ex = co_await asio::this_coro::executor;
  ssl::context context(ssl::context::tls_client);
  SSL_CTX_set_security_level(context.native_handle(), 0);  // let this client offer what OpenSSL would refuse
  SSL_CTX_set_min_proto_version(context.native_handle(), TLS1_VERSION);
  SSL_CTX_set_max_proto_version(context.native_handle(), max_version);
  SSL_CTX_set_cipher_list(context.native_handle(), ciphers);
  context.set_verify_mode(ssl::verify_none);
  beast::ssl_stream<beast::tcp_stream> stream(ex, context);
  stream.next_layer().expires_after(5s);
  const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), port);
  auto [ec] = co_await stream.next_layer().async_connect(endpoint, asio::as_tuple(asio::use_awaitable));
  if (ec) throw boost::system::system_error(ec, "connect");
  auto [hs] = co_await stream.async_handshake(ssl::stream_base::client, asio::as_tuple(asio::use_awaitable));
  co_return !hs;
}

TEST_F(HttpTls, TheServerSpeaksTls12AndUpWithForwardSecretCiphersOnly) {
  run_http_test(tls_options(), [](test_server& s) -> asio::awaitable<void> {
    const bool tls11 = co_await handshake_succeeds(s.port(), TLS1_1_VERSION, "ALL:@SECLEVEL=0");
    EXPECT_FALSE(tls11) << "TLS 1.1";
    const bool static_rsa = co_await handshake_succeeds(s.port(), TLS1_2_VERSION, "AES128-GCM-SHA256:AES256-SHA256");
    EXPECT_FALSE(static_rsa) << "static RSA key exchange (no forward secrecy)";
    const bool cbc = co_await handshake_succeeds(s.port(), TLS1_2_VERSION, "ECDHE-RSA-AES128-SHA256");
    EXPECT_FALSE(cbc) << "CBC";
    const bool modern12 = co_await handshake_succeeds(s.port(), TLS1_2_VERSION, "ECDHE-RSA-AES128-GCM-SHA256");
    EXPECT_TRUE(modern12);
    co_await expect_tls_echo(s.port(), certs->cert, "TLS 1.3 by default");
  });
}

TEST_F(HttpTls, ClientThatNeverHandshakesBlocksNeitherOthersNorStop) {
  run_http_test(tls_options(), [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    // Two clients connect and say nothing.
    std::vector<std::unique_ptr<asio::ip::tcp::socket>> silent;
    const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), s.port());
    for (int i = 0; i < 2; ++i) {
      auto socket = std::make_unique<asio::ip::tcp::socket>(ex);
      co_await socket->async_connect(endpoint, asio::use_awaitable);
      silent.push_back(std::move(socket));
    }
    // Others are served meanwhile.
    co_await expect_tls_echo(s.port(), certs->cert, "first");
    co_await expect_tls_echo(s.port(), certs->cert, "second");

    // stop() does not wait for them either: run() returns at once, and the
    // silent connections are closed rather than left to their handshake deadline.
    const auto started = clock_type::now();
    s.http.stop();
    const std::function<bool()> returned = [&] { return s.state->returned.load(); };
    const bool prompt = co_await wait_until(returned, 3s);
    EXPECT_TRUE(prompt) << "run() did not return 3 s after stop() with clients still in their handshake";
    EXPECT_LT(clock_type::now() - started, 3s);
    for (auto& socket : silent) {
      const bool closed = co_await closed_by_server(*socket, 3s);
      EXPECT_TRUE(closed) << "a connection still in its TLS handshake stayed open after stop()";
    }
  });
}

TEST_F(HttpTls, HandshakeThatNeverComesIsCutOffAtTheWriteTimeout) {
  auto options = tls_options();
  options.write_timeout = 300ms;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    asio::ip::tcp::socket silent(ex);
    const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), s.port());
    co_await silent.async_connect(endpoint, asio::use_awaitable);
    const auto started = clock_type::now();
    const bool closed = co_await closed_by_server(silent, 5s);
    EXPECT_TRUE(closed) << "a client that never handshakes kept its connection past the deadline";
    EXPECT_GE(clock_type::now() - started, 250ms) << "closed before its deadline";
    co_await expect_tls_echo(s.port(), certs->cert, "still served");
  });
}

TEST_F(HttpTls, MissingCertificateOrKeyFileThrowsFromTheConstructor) {
  asio::io_context io;
  auto tools = make_tools();
  {
    http_server_options options;
    options.tls_certificate_file = (certs->dir / "no-such-cert.pem").string();
    options.tls_private_key_file = certs->key;
    try {
      http_server server(io.get_executor(), *tools, options);
      ADD_FAILURE() << "a server with a missing certificate file was constructed";
    } catch (const std::exception& e) {
      EXPECT_FALSE(std::string(e.what()).empty());
    }
  }
  {
    http_server_options options;
    options.tls_certificate_file = certs->cert;
    options.tls_private_key_file = (certs->dir / "no-such-key.pem").string();
    EXPECT_THROW(http_server(io.get_executor(), *tools, options), std::exception);
  }
  {
    // A key that does not belong to the certificate.
    http_server_options options;
    options.tls_certificate_file = certs->cert;
    options.tls_private_key_file = certs->other_key;
    EXPECT_THROW(http_server(io.get_executor(), *tools, options), std::exception);
  }
  {
    // A file that is no PEM at all.
    http_server_options options;
    options.tls_certificate_file = certs->cert;
    options.tls_private_key_file = certs->key;
    options.tls_certificate_file = (certs->dir / "garbage.pem").string();
    {
      std::FILE* f = std::fopen(options.tls_certificate_file.c_str(), "w");
      ASSERT_NE(f, nullptr);
      std::fputs("not a certificate\n", f);
      std::fclose(f);
    }
    EXPECT_THROW(http_server(io.get_executor(), *tools, options), std::exception);
  }
  // Nothing was left running.
  EXPECT_EQ(io.poll(), 0u);
}

}  // namespace
}  // namespace mcp::test
