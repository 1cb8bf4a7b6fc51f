#pragma once
// The start of a session over a server's stdin and stdout: initialize, its
// reply checked, then notifications/initialized (not to the echo ceiling,
// which would echo it back).

#include "child_process.hpp"
#include "line_reader.hpp"
#include "load_run.hpp"
#include "reply_check.hpp"

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <string>

namespace loadgen {

/// Writes all of `text` (whole lines) to the child's stdin.
asio::awaitable<void> write_to(child_process& child, const std::string& text);

struct pipe_handshake {
  std::string problem;             ///< empty when the reply was right
  clock::time_point replied_at{};  ///< when the initialize reply was read
};

/// Throws boost::system::system_error when a pipe fails (asio::error::eof:
/// the server closed its stdout).
asio::awaitable<pipe_handshake> handshake(child_process& child, line_reader& reader, peer_kind peer,
                                          std::int64_t request_id);

}  // namespace loadgen
