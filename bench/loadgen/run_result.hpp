#pragma once
// What one run of the generator measured, printed as one JSON line.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loadgen {

struct run_result {
  std::uint64_t sent = 0;     ///< requests (or sessions) sent
  std::uint64_t checked = 0;  ///< replies received and checked
  std::uint64_t errors = 0;   ///< replies that failed their check, and requests without one
  std::vector<std::string> error_samples;  ///< the first few problems
  std::uint64_t measured = 0;  ///< replies in the measured window
  double seconds = 0;          ///< its length
  double p50_us = 0, p99_us = 0;
  std::optional<double> server_cpu_us;  ///< the server's CPU time over the window
  double loadgen_cpu_us = 0;            ///< ours
  /// Extra figures of one scenario (resident memory, start-up time...).
  std::vector<std::pair<std::string, double>> extra;
};

/// One line of JSON, with the rates and per-request figures derived.
std::string to_json_line(const run_result& result);

}  // namespace loadgen
