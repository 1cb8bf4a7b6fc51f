#include "sign_in.hpp"

#include "failure.hpp"

#include <mcp/client/client.hpp>
#include <mcp/transport/http_client.hpp>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/url/parse.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace caduceus {

namespace {

// Other commands never sign in on their own: a person may not be there.
// `asked`, when given, notes that a sign-in was needed.
class login_needed final : public mcp::oauth_user_agent {
 public:
  explicit login_needed(std::string url, std::shared_ptr<bool> asked = nullptr)
      : url_(std::move(url)), asked_(std::move(asked)) {}
  std::string redirect_uri() override { return "http://127.0.0.1/callback"; }
  boost::asio::awaitable<std::string> authorize(std::string) override {
    if (asked_) *asked_ = true;
    throw mcp::oauth_error("signing in to " + url_ + " needs you: run caduceus --url " + url_ + " login");
  }

 private:
  std::string url_;
  std::shared_ptr<bool> asked_;
};

// Whether the user pointed us at this machine (localhost, 127.0.0.0/8, ::1).
bool names_this_machine(const std::string& url) {
  const auto parsed = boost::urls::parse_absolute_uri(url);
  if (!parsed) return false;
  if (parsed->host() == "localhost") return true;
  boost::system::error_code not_address;
  const auto address = boost::asio::ip::make_address(parsed->host_address(), not_address);
  return !not_address && address.is_loopback();
}

mcp::oauth_options options_for(const invocation& inv) {
  mcp::oauth_options options;
  options.client_name = "caduceus (command line)";
  options.client_id = inv.client_id;
  options.client_secret = inv.client_secret;
  options.store = mcp::make_file_oauth_store(token_file_path(inv));
  // A server on this machine may have its authorization server here too;
  // a remote one may not send the sign-in to this machine or its network.
  options.allow_private_addresses = names_this_machine(inv.url);
  return options;
}

// The port of the redirect URI used at the last login to this server, so
// that a registration made then still fits.
std::uint16_t last_callback_port(const invocation& inv) {
  const auto record = mcp::make_file_oauth_store(token_file_path(inv))->load(inv.url);
  if (!record || record->redirect_uris.empty()) return 0;
  const auto url = boost::urls::parse_absolute_uri(record->redirect_uris.back());
  return url && url->has_port() ? url->port_number() : 0;
}

}  // namespace

std::string token_file_path(const invocation& inv) {
  if (!inv.token_file.empty()) return inv.token_file;
  if (const char* path = std::getenv("CADUCEUS_TOKEN_FILE"); path && *path) return path;
  std::filesystem::path folder;
  if (const char* config = std::getenv("XDG_CONFIG_HOME"); config && *config)
    folder = config;
  else if (const char* home = std::getenv("HOME"); home && *home)
    folder = std::filesystem::path(home) / ".config";
  else if (const char* app_data = std::getenv("APPDATA"); app_data && *app_data)
    folder = app_data;  // Windows: the user's roaming application data
  else
    throw usage_error("no HOME (or APPDATA): say where to keep tokens with --token-file");
  folder /= "caduceus";
  std::filesystem::create_directories(folder);
  std::filesystem::permissions(folder, std::filesystem::perms::owner_all, std::filesystem::perm_options::replace);
  return (folder / "oauth.json").string();
}

std::shared_ptr<mcp::oauth_client> command_authorizer(boost::asio::any_io_executor ex, const invocation& inv) {
  auto options = options_for(inv);
  options.user_agent = std::make_shared<login_needed>(inv.url);
  return std::make_shared<mcp::oauth_client>(std::move(ex), std::move(options));
}

boost::asio::awaitable<bool> sign_in_needed(const invocation& inv) {
  auto ex = co_await boost::asio::this_coro::executor;
  auto asked = std::make_shared<bool>(false);
  auto options = options_for(inv);
  options.user_agent = std::make_shared<login_needed>(inv.url, asked);
  mcp::http_client_options http;
  for (const auto& [name, value] : inv.headers) http.headers[name] = value;
  http.authorizer = std::make_shared<mcp::oauth_client>(ex, std::move(options));
  try {
    mcp::client probe(ex);
    co_await probe.connect(co_await mcp::connect_http(ex, inv.url, std::move(http)));
    co_await probe.close();
  } catch (const std::exception&) {  // (what else failed fails again where the connection is made, and says why)
  }
  co_return *asked;
}

boost::asio::awaitable<void> sign_in(const invocation& inv) {
  auto ex = co_await boost::asio::this_coro::executor;
  auto options = options_for(inv);
  if (inv.headless_login) {
    mcp::headless_options headless;
    headless.allow_private_addresses = options.allow_private_addresses;
    options.user_agent = mcp::make_headless_user_agent(ex, std::move(headless));
  } else {
    mcp::loopback_options loopback;
    loopback.port = inv.callback_port ? *inv.callback_port : last_callback_port(inv);
    try {
      options.user_agent = mcp::make_loopback_user_agent(ex, loopback);
    } catch (const std::exception&) {
      if (inv.callback_port || loopback.port == 0) throw;
      loopback.port = 0;  // the last port is taken now: any will do (registering anew)
      options.user_agent = mcp::make_loopback_user_agent(ex, loopback);
    }
  }
  auto client = std::make_shared<mcp::oauth_client>(ex, std::move(options));
  co_await client->sign_in(inv.url);
}

boost::asio::awaitable<int> login(const invocation& inv) {
  co_await sign_in(inv);
  const auto record = mcp::make_file_oauth_store(token_file_path(inv))->load(inv.url);
  std::cout << "signed in to " << inv.url << (record ? " at " + record->issuer : std::string())
            << (record && !record->scope.empty() ? " (scope: " + record->scope + ")" : std::string()) << "\n";
  co_return exit_ok;
}

int logout(const invocation& inv) {
  mcp::make_file_oauth_store(token_file_path(inv))->erase(inv.url);
  std::cout << "signed out of " << inv.url << "\n";
  return exit_ok;
}

}  // namespace caduceus
