#pragma once
// How caduceus fails: one line `caduceus: <reason>` on stderr and an exit code.

#include <exception>
#include <stdexcept>
#include <string>

namespace caduceus {

inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;    ///< the server, the connection, a tool error
inline constexpr int exit_usage = 2;      ///< bad command line or argument
inline constexpr int exit_cancelled = 130;  ///< Ctrl-C (128 + SIGINT)

/// A mistake on the command line: exit code 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The one-line reason for a failure (no line breaks in it).
std::string describe_failure(std::exception_ptr failure);
/// The exit code for a failure: 2 for usage errors, 1 for the rest.
int exit_code_of(std::exception_ptr failure);
/// Prints `caduceus: <reason>` on stderr and returns the exit code.
int report_failure(std::exception_ptr failure);

}  // namespace caduceus
