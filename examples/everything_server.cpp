// everything-server: a demo of every server feature of the high-level API
// (the demo itself is in everything_demo.cpp; `caduceus serve-demo` serves
// the same one). The benchmarks and the interop tests drive it, so its
// contract is fixed: tools echo, add, long_task, sample, confirm, list_roots,
// emit_logs, media, toggle_bonus, touch, fail; resources demo://readme,
// demo://logo.png and demo://items/1..25; the template demo://users/{id};
// prompts greeting and with_image; completions for greeting's style and the
// template's id.
//
//   build/bin/everything-server [--stdio | --http [HOST:]PORT [--json] [--stateless]] [--page-size N]

#include "everything_demo.hpp"

#include <mcp/server/http_server.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

int main(int argc, char** argv) {
  mcp::server_settings settings = demo::settings();
  std::optional<mcp::http_server_options> http;
  bool json_only = false;
  bool stateless = false;
  std::string tls_certificate;
  std::string tls_key;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--stdio") continue;
    if (arg == "--json") {
      json_only = true;
      continue;
    }
    if (arg == "--stateless") {
      stateless = true;
      continue;
    }
    if (arg == "--page-size" && i + 1 < argc) {
      settings.page_size = std::strtoul(argv[++i], nullptr, 10);
      continue;
    }
    if (arg == "--http" && i + 1 < argc) {  // [HOST:]PORT
      const std::string address = argv[++i];
      http.emplace();
      const auto colon = address.rfind(':');
      if (colon != std::string::npos) http->host = address.substr(0, colon);
      http->port = static_cast<std::uint16_t>(std::stoul(address.substr(colon == std::string::npos ? 0 : colon + 1)));
      continue;
    }
    if (arg == "--tls" && i + 2 < argc) {  // CERT.pem KEY.pem
      tls_certificate = argv[++i];
      tls_key = argv[++i];
      continue;
    }
    std::cerr << "usage: everything-server [--stdio | --http [HOST:]PORT [--json] [--stateless] "
                 "[--tls CERT.pem KEY.pem]] [--page-size N]\n";
    return 2;
  }
  mcp::server srv(demo::info(), settings);
  demo::add_everything(srv);
  if (http) {
    http->json_only = json_only;
    http->stateless = stateless;
    http->tls_certificate_file = tls_certificate;
    http->tls_private_key_file = tls_key;
    try {
      return mcp::run_http_server(srv, *http);
    } catch (const std::exception& e) {  // the port is taken, a TLS file is unreadable...
      std::cerr << "everything-server: " << e.what() << "\n";
      return 1;
    }
  }
  return mcp::run_stdio_server(srv);
}
