#include "everything_server.hpp"

#include "test_program.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace mcp::test {

namespace {


const std::string everything_dist =
    std::string(CADUCEUS_INTEROP_DIR) + "/node_modules/@modelcontextprotocol/server-everything/dist";

// What lib/listen-on-loopback.mjs writes once the server listens.
constexpr std::string_view listening_line = "caduceus-interop: listening on 127.0.0.1:";

}  // namespace

std::string to_string(everything_transport transport) {
  switch (transport) {
    case everything_transport::stdio: return "stdio";
    case everything_transport::streamable_http: return "streamable_http";
    case everything_transport::legacy_sse: return "legacy_sse";
    case everything_transport::gateway: return "gateway";
  }
  return "unknown";
}

std::string everything_script() { return everything_dist + "/index.js"; }

std::string everything_docs() { return everything_dist + "/docs"; }

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

everything_http_server::everything_http_server(everything_transport transport,
                                               std::chrono::milliseconds start_limit)
    : transport_(transport) {
  if (transport == everything_transport::stdio)
    throw std::invalid_argument("everything_http_server: stdio is not an HTTP transport");
  const std::string marker = std::string(marker_variable) + "=" + marker_value;
  if (transport == everything_transport::gateway) {
    // The gateway prints its endpoint first; its children inherit the marker.
    // Served as the session-based revisions, which server-everything speaks:
    // our client then opens a session with a child of its own, as the
    // clients of today do (test/integration/gateway_test.cpp has 2026-07-28
    // clients through a gateway).
    const auto upstream = "'" + node_program() + "' '" + everything_script() + "' stdio";
    process_ = std::make_unique<background_process>(
        test_program("caduceus"),
        std::vector<std::string>{"gateway", "--stdio", upstream, "--http", "127.0.0.1:0", "--versions", "legacy"},
        std::vector<std::string>{marker});
    const auto port = process_->wait_for_line("http://127.0.0.1:", start_limit, "caduceus gateway");
    port_ = static_cast<std::uint16_t>(std::strtoul(port.c_str(), nullptr, 10));
    return;
  }
  process_ = std::make_unique<node_process>(
      std::vector<std::string>{"--import", std::string(CADUCEUS_INTEROP_DIR) + "/lib/listen-on-loopback.mjs",
                               everything_script(),
                               transport == everything_transport::legacy_sse ? "sse" : "streamableHttp"},
      std::vector<std::string>{"PORT=0", marker});
  const auto port = process_->wait_for_line(listening_line, start_limit, "server-everything " + to_string(transport));
  port_ = static_cast<std::uint16_t>(std::strtoul(port.c_str(), nullptr, 10));
}

std::string everything_http_server::url() const {
  const char* path = transport_ == everything_transport::legacy_sse ? "/sse" : "/mcp";
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

}  // namespace mcp::test
