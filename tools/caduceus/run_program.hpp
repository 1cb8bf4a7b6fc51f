#pragma once
// Runs a program to its end with text on its stdin, collecting its stdout:
// for --sampling-command. Bounded in time and in output; its stderr is ours.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace caduceus {

struct program_output {
  int exit_status = -1;  ///< its exit status; 128 + N when a signal N ended it
  std::string out;       ///< all of its stdout
};

/// Starts argv[0] (looked up in PATH) in a process group of its own (a
/// terminal's Ctrl-C stays with us), writes `input` to its stdin and closes
/// it, and reads its stdout until it exits. Throws std::runtime_error when it
/// cannot be started, takes longer than `limit`, or prints more than
/// `max_output` bytes; it is killed then, and when the awaiting coroutine is
/// cancelled.
boost::asio::awaitable<program_output> run_program(std::vector<std::string> argv, std::string input,
                                                   std::chrono::milliseconds limit, std::size_t max_output);

}  // namespace caduceus
