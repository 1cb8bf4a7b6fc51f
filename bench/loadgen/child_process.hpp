#pragma once
// A server started by the generator, its stdin and stdout piped to us (its
// stderr is ours). It is killed if the generator dies (PR_SET_PDEATHSIG) and
// when this object is destroyed, so no run leaves a server behind.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace loadgen {

namespace asio = boost::asio;

class child_process {
 public:
  /// Starts `command` (looked up in PATH). Throws std::system_error when it cannot.
  child_process(asio::any_io_executor ex, const std::vector<std::string>& command);
  ~child_process();
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  pid_t pid() const { return pid_; }
  asio::posix::stream_descriptor& input() { return input_; }    ///< the child's stdin
  asio::posix::stream_descriptor& output() { return output_; }  ///< the child's stdout

  /// Closes its stdin (its cue to exit) and waits up to `grace` for it to
  /// exit, then kills it. Idempotent.
  void stop(std::chrono::milliseconds grace);
  /// Kills it now (the pipes stay open until stop()).
  void kill();

 private:
  pid_t pid_ = -1;
  asio::posix::stream_descriptor input_;
  asio::posix::stream_descriptor output_;
};

}  // namespace loadgen
