#pragma once
// The official TypeScript "everything" server (@modelcontextprotocol/server-
// everything, pinned in package.json) as a peer for our client and CLI: where
// it is, the three transports it speaks, and its HTTP servers started on a
// free port of 127.0.0.1 and always stopped.

#include "node_process.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

namespace mcp::test {

enum class everything_transport {
  stdio,            ///< `index.js stdio`, spawned by the client
  streamable_http,  ///< `index.js streamableHttp`: POST/GET/DELETE /mcp
  legacy_sse,       ///< `index.js sse`: the HTTP+SSE transport of 2024-11-05, GET /sse
  /// `index.js stdio` behind `caduceus gateway --http --versions legacy` (a
  /// child for each session), reached over Streamable HTTP
  gateway,
};

/// "stdio", "streamable_http", "legacy_sse", "gateway" (test names).
std::string to_string(everything_transport transport);
/// How gtest prints a test's parameter.
inline void PrintTo(everything_transport transport, std::ostream* out) { *out << to_string(transport); }

/// server-everything's dist/index.js.
std::string everything_script();
/// Its dist/docs folder: its instructions, and the files it serves as resources.
std::string everything_docs();
/// A whole file, as text.
std::string file_text(const std::string& path);

/// Set in every server's environment: the `get-env` tool shows it.
inline constexpr const char* marker_variable = "CADUCEUS_INTEROP_MARKER";
inline constexpr const char* marker_value = "set by the interop tests";

/// server-everything over HTTP (`streamableHttp` or `sse`, or over stdio
/// behind the gateway) as a background_process, listening on 127.0.0.1 on a
/// port the system picked. The constructor returns once it accepts
/// connections (or throws, the process stopped); the destructor stops it.
class everything_http_server {
 public:
  /// `transport`: streamable_http, legacy_sse or gateway.
  explicit everything_http_server(everything_transport transport,
                                  std::chrono::milliseconds start_limit = std::chrono::seconds(15));

  /// The endpoint a client starts from: http://127.0.0.1:PORT/mcp, or /sse.
  std::string url() const;
  /// False once the server has exited.
  bool running() const { return process_->running(); }

 private:
  everything_transport transport_;
  std::unique_ptr<background_process> process_;
  std::uint16_t port_ = 0;
};

}  // namespace mcp::test
