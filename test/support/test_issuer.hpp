#pragma once
// A tiny authorization server for the OAuth integration tests, over HTTPS on
// 127.0.0.1 (port 0) with a test certificate: its RFC 8414 metadata, its
// JWKS (which a test may change: key rotation), and token introspection
// (RFC 7662) of the tokens a test registers. It can be taken "down": then it
// closes every connection at once. Counts the requests to each path.

#include "test_support.hpp"

#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <map>
#include <memory>
#include <string>

namespace mcp::test {

class test_issuer {
 public:
  test_issuer(asio::any_io_executor ex, const std::string& cert_file, const std::string& key_file)
      : tls_(asio::ssl::context::tls_server), acceptor_(ex, {asio::ip::make_address("127.0.0.1"), 0}) {
    tls_.use_certificate_chain_file(cert_file);
    tls_.use_private_key_file(key_file, asio::ssl::context::pem);
    asio::co_spawn(ex, accept_loop(), asio::detached);
  }
  ~test_issuer() { stop(); }

  void stop() {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
  }

  std::string url() const { return "https://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()); }

  std::string jwks = R"({"keys":[]})";
  bool down = false;
  /// Introspection answers by token; unknown tokens are `{"active": false}`.
  std::map<std::string, json::object> introspection;
  /// What an introspection request must carry: `Basic ...` or form credentials.
  std::string expected_basic;       ///< the Authorization header value, when set
  std::string expected_form_secret;  ///< `client_secret=` in the body, when set
  std::map<std::string, int> hits;
  std::string last_introspection_body;

 private:
  using tcp = asio::ip::tcp;

  asio::awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, socket] = co_await acceptor_.async_accept(asio::as_tuple(asio::use_awaitable));
      if (ec) co_return;
      asio::co_spawn(acceptor_.get_executor(), serve(std::move(socket)), asio::detached);
    }
  }

  asio::awaitable<void> serve(tcp::socket socket) {
    if (down) co_return;  // the socket closes: connection reset
    namespace http = boost::beast::http;
    boost::beast::ssl_stream<boost::beast::tcp_stream> stream(std::move(socket), tls_);
    stream.next_layer().expires_after(std::chrono::seconds(5));
    auto [hs] = co_await stream.async_handshake(asio::ssl::stream_base::server, asio::as_tuple(asio::use_awaitable));
    if (hs) co_return;
    boost::beast::flat_buffer buffer;
    for (;;) {
      http::request<http::string_body> req;
      stream.next_layer().expires_after(std::chrono::seconds(5));
      auto [rec, n] = co_await http::async_read(stream, buffer, req, asio::as_tuple(asio::use_awaitable));
      if (rec || down) co_return;
      const std::string path(req.target());
      ++hits[path];
      http::response<http::string_body> res{http::status::ok, req.version()};
      res.set(http::field::content_type, "application/json");
      if (path == "/.well-known/oauth-authorization-server") {
        res.body() = json::serialize(json::object{{"issuer", url()},
                                                  {"jwks_uri", url() + "/jwks"},
                                                  {"introspection_endpoint", url() + "/introspect"}});
      } else if (path == "/jwks") {
        res.body() = jwks;
      } else if (path == "/introspect" && req.method() == http::verb::post) {
        res.body() = introspect(req);
        if (res.body().empty()) res.result(http::status::unauthorized);
      } else {
        res.result(http::status::not_found);
      }
      res.keep_alive(req.keep_alive());
      res.prepare_payload();
      auto [wec, w] = co_await http::async_write(stream, res, asio::as_tuple(asio::use_awaitable));
      if (wec || !req.keep_alive()) co_return;
    }
  }

  // The answer, or empty when the client did not authenticate as expected.
  std::string introspect(const boost::beast::http::request<boost::beast::http::string_body>& req) {
    last_introspection_body = req.body();
    if (!expected_basic.empty() && req[boost::beast::http::field::authorization] != expected_basic) return {};
    if (!expected_form_secret.empty() &&
        req.body().find("client_secret=" + expected_form_secret) == std::string::npos)
      return {};
    const auto& body = req.body();
    const auto start = body.find("token=");
    if (start == std::string::npos) return {};
    auto token = body.substr(start + 6);
    token = token.substr(0, token.find('&'));
    const auto it = introspection.find(token);
    return json::serialize(it == introspection.end() ? json::object{{"active", false}} : it->second);
  }

  asio::ssl::context tls_;
  tcp::acceptor acceptor_;
};

}  // namespace mcp::test
