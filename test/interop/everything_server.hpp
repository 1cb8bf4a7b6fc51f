#pragma once
// The official TypeScript "everything" server (@modelcontextprotocol/server-
// everything, pinned in package.json) as a peer for our client and CLI: where
// it is, the three transports it speaks, and its HTTP servers started on a
// free port of 127.0.0.1 and always stopped.

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

#include <sys/types.h>

namespace mcp::test {

enum class everything_transport {
  stdio,            ///< `index.js stdio`, spawned by the client
  streamable_http,  ///< `index.js streamableHttp`: POST/GET/DELETE /mcp
  legacy_sse,       ///< `index.js sse`: the HTTP+SSE transport of 2024-11-05, GET /sse
};

/// "stdio", "streamable_http", "legacy_sse" (test names).
std::string to_string(everything_transport transport);
/// How gtest prints a test's parameter.
inline void PrintTo(everything_transport transport, std::ostream* out) { *out << to_string(transport); }

/// The node program CMake found.
std::string node_program();
/// server-everything's dist/index.js.
std::string everything_script();
/// Its dist/docs folder: its instructions, and the files it serves as resources.
std::string everything_docs();
/// A whole file, as text.
std::string file_text(const std::string& path);

/// Set in every server's environment: the `get-env` tool shows it.
inline constexpr const char* marker_variable = "CADUCEUS_INTEROP_MARKER";
inline constexpr const char* marker_value = "set by the interop tests";

/// server-everything over HTTP (`streamableHttp` or `sse`) in its own process
/// group, listening on 127.0.0.1 on a port the system picked. The constructor
/// returns once it accepts connections (or throws, the process stopped); the
/// destructor stops the whole group: SIGTERM, then SIGKILL. Should this
/// process die first, the server gets SIGKILL too (PR_SET_PDEATHSIG).
class everything_http_server {
 public:
  /// `transport`: streamable_http or legacy_sse.
  explicit everything_http_server(everything_transport transport,
                                  std::chrono::milliseconds start_limit = std::chrono::seconds(15));
  ~everything_http_server();
  everything_http_server(const everything_http_server&) = delete;
  everything_http_server& operator=(const everything_http_server&) = delete;

  /// The endpoint a client starts from: http://127.0.0.1:PORT/mcp, or /sse.
  std::string url() const;
  /// False once the server has exited.
  bool running() const;

 private:
  /// Everything the server wrote on stdout and stderr so far.
  std::string output() const;
  void stop() noexcept;

  everything_transport transport_;
  int log_fd_ = -1;  // its stdout and stderr
  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
};

}  // namespace mcp::test
