// The two user agents of the authorization code grant: the headless one
// that follows the authorization URL itself, and the browser flow with a
// loopback redirect receiver (RFC 8252 section 7.3).

#include "urls.hpp"

#include "../../transport/http/client/fetch.hpp"

#include <mcp/client/oauth.hpp>

#include <boost/algorithm/string/predicate.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>

namespace mcp {

namespace {

using detail::oauth::query_of;
using detail::oauth::resolve_reference;

// Whether `url` is the redirect URI (scheme, authority and path alike).
bool lands_on(const std::string& url, const std::string& redirect_uri) {
  const auto strip = [](const std::string& u) { return u.substr(0, u.find_first_of("?#")); };
  return strip(url) == strip(redirect_uri);
}

class headless_user_agent final : public oauth_user_agent {
 public:
  headless_user_agent(asio::any_io_executor ex, headless_options options)
      : options_(std::move(options)), fetcher_(std::move(ex), fetch_options_of(options_)) {}

  std::string redirect_uri() override { return options_.redirect_uri; }

  asio::awaitable<std::string> authorize(std::string url) override {
    for (int hop = 0; hop <= options_.max_redirects; ++hop) {
      detail::http_client::fetch_request request;
      request.url = url;
      if (auto cookie = cookies_for(url); !cookie.empty()) request.headers.emplace_back("Cookie", cookie);
      const auto response = co_await fetcher_.fetch(std::move(request));
      keep_cookies(url, response);
      const auto location = response.header("Location");
      if (response.status / 100 != 3 || location.empty())
        throw oauth_error("signing in without a browser: " + url + " answered HTTP " +
                          std::to_string(response.status) + " instead of a redirect (does it want a person to log in?)");
      url = resolve_reference(url, location);
      if (lands_on(url, options_.redirect_uri)) co_return url;
    }
    throw oauth_error("signing in without a browser: more than " + std::to_string(options_.max_redirects) +
                      " redirects");
  }

 private:
  static detail::http_client::fetch_options fetch_options_of(const headless_options& o) {
    detail::http_client::fetch_options f;
    f.ca_file = o.ca_file;
    f.verify_peer = o.verify_peer;
    f.allow_private_addresses = o.allow_private_addresses;
    return f;
  }

  std::string cookies_for(const std::string& url) const {
    const auto it = jar_.find(detail::oauth::origin_of(url));
    if (it == jar_.end()) return {};
    std::string header;
    for (const auto& [name, value] : it->second) header += (header.empty() ? "" : "; ") + name + "=" + value;
    return header;
  }

  // Name and value of each Set-Cookie, per origin; attributes are not needed
  // for the few requests of one sign-in.
  void keep_cookies(const std::string& url, const detail::http_client::fetch_response& response) {
    for (const auto& [name, value] : response.headers) {
      if (!boost::algorithm::iequals(name, "Set-Cookie")) continue;
      const auto pair = value.substr(0, value.find(';'));
      const auto eq = pair.find('=');
      if (eq == std::string::npos || eq == 0) continue;
      jar_[detail::oauth::origin_of(url)][pair.substr(0, eq)] = pair.substr(eq + 1);
    }
  }

  headless_options options_;
  detail::http_client::http_fetcher fetcher_;
  std::map<std::string, std::map<std::string, std::string>> jar_;
};

void default_open_browser(const std::string& url) {
  std::fprintf(stderr, "Open this URL in a browser to sign in:\n\n  %s\n\n", url.c_str());
#ifdef __APPLE__
  const char* opener = "open";
#else
  const char* opener = "xdg-open";
#endif
  // Best effort: a machine without a desktop just shows the URL above.
  const std::string command = std::string(opener) + " '" + url + "' >/dev/null 2>&1 &";
  if (url.find('\'') == std::string::npos) (void)std::system(command.c_str());
}

constexpr std::size_t max_callback_request = 16 * 1024;

std::string response(std::string_view status, std::string_view html) {
  return "HTTP/1.1 " + std::string(status) + "\r\nContent-Type: text/html; charset=utf-8\r\nConnection: close\r\n" +
         "Content-Length: " + std::to_string(html.size()) + "\r\n\r\n" + std::string(html);
}

class loopback_user_agent final : public oauth_user_agent {
 public:
  loopback_user_agent(asio::any_io_executor ex, loopback_options options)
      : options_(std::move(options)), acceptor_(ex) {
    const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), options_.port);
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen();
    redirect_uri_ = "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + options_.path;
    if (!options_.open_browser) options_.open_browser = default_open_browser;
  }

  std::string redirect_uri() override { return redirect_uri_; }

  asio::awaitable<std::string> authorize(std::string url) override {
    using namespace asio::experimental::awaitable_operators;
    options_.open_browser(url);
    asio::steady_timer deadline(acceptor_.get_executor());
    deadline.expires_after(options_.timeout);
    auto result = co_await (receive() || deadline.async_wait(asio::use_awaitable));
    if (result.index() == 1) throw oauth_error("nobody finished signing in within " +
                                               std::to_string(options_.timeout.count()) + " s");
    co_return std::get<0>(std::move(result));
  }

 private:
  // Serves requests to the port until one comes to the redirect path.
  asio::awaitable<std::string> receive() {
    for (;;) {
      auto socket = co_await acceptor_.async_accept(asio::use_awaitable);
      std::string head;
      auto [ec, n] = co_await asio::async_read_until(socket, asio::dynamic_buffer(head, max_callback_request), "\r\n\r\n",
                                                     asio::as_tuple(asio::use_awaitable));
      if (ec) continue;
      // "GET /callback?code=... HTTP/1.1"
      const auto line = head.substr(0, head.find("\r\n"));
      const auto first = line.find(' ');
      const auto last = line.rfind(' ');
      const auto target = first == std::string::npos || last <= first ? std::string() : line.substr(first + 1, last - first - 1);
      const bool ours = line.starts_with("GET ") && target.substr(0, target.find('?')) == options_.path;
      const auto answer = ours ? response("200 OK", "<!doctype html><title>Signed in</title>"
                                                    "<p>Done: you can close this window and go back.</p>\n")
                               : response("404 Not Found", "");
      co_await asio::async_write(socket, asio::buffer(answer), asio::as_tuple(asio::use_awaitable));
      if (ours) co_return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + target;
    }
  }

  loopback_options options_;
  asio::ip::tcp::acceptor acceptor_;
  std::string redirect_uri_;
};

}  // namespace

std::shared_ptr<oauth_user_agent> make_headless_user_agent(asio::any_io_executor ex, headless_options options) {
  return std::make_shared<headless_user_agent>(std::move(ex), std::move(options));
}

std::shared_ptr<oauth_user_agent> make_loopback_user_agent(asio::any_io_executor ex, loopback_options options) {
  return std::make_shared<loopback_user_agent>(std::move(ex), std::move(options));
}

}  // namespace mcp
