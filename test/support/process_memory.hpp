#pragma once
// How much memory a process holds (its resident set, VmRSS, and its peak),
// for tests that check a server's memory stays bounded under hostile load,
// and how they report what they measured.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include <malloc.h>
#include <sys/types.h>

namespace mcp::test {

/// Whether this build runs under AddressSanitizer or ThreadSanitizer. Their
/// allocators keep freed memory aside (ASan's quarantine alone holds up to
/// 256 MiB) and shadow every byte, so resident-set bounds only mean
/// something in a plain build: tests measure there, and report elsewhere.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool sanitized_build = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool sanitized_build = true;
#else
inline constexpr bool sanitized_build = false;
#endif
#else
inline constexpr bool sanitized_build = false;
#endif

inline std::string proc_file(pid_t pid, const char* name) {
  return (pid == 0 ? std::string("/proc/self/") : "/proc/" + std::to_string(pid) + "/") + name;
}

/// A field of /proc/PID/status given in kB ("VmRSS:  1234 kB"), in bytes.
inline std::size_t status_bytes(pid_t pid, std::string_view field) {
  const auto path = proc_file(pid, "status");
  std::ifstream status(path);
  std::string line;
  while (std::getline(status, line))
    if (line.starts_with(field) && line.size() > field.size() && line[field.size()] == ':')
      return std::stoul(line.substr(field.size() + 1)) * 1024;
  throw std::runtime_error("no " + std::string(field) + " in " + path);
}

/// The resident set of process `pid` (0: this process) now, in bytes.
/// Throws std::runtime_error when the process is gone.
inline std::size_t resident_bytes(pid_t pid = 0) { return status_bytes(pid, "VmRSS"); }

/// The largest resident set since the process started or since
/// reset_peak_resident (VmHWM), in bytes: what an attack cost at its worst,
/// which memory freed by its end no longer shows.
inline std::size_t peak_resident_bytes(pid_t pid = 0) { return status_bytes(pid, "VmHWM"); }

/// Starts measuring the peak anew from the resident set of now (Linux
/// clear_refs "5"). Throws std::runtime_error when it cannot.
inline void reset_peak_resident(pid_t pid = 0) {
  std::ofstream clear(proc_file(pid, "clear_refs"));
  clear << "5";
  clear.flush();
  if (!clear) throw std::runtime_error("cannot reset the peak resident set of " + proc_file(pid, ""));
}

/// How far a process's memory rose over a stretch of time: its peak
/// resident set since construction, above its resident set then.
class memory_watch {
 public:
  explicit memory_watch(pid_t pid = 0) : pid_(pid) {
    // Freed memory this process still holds would hide new allocations
    // that reuse it: it goes back to the system first.
    if (pid_ == 0) ::malloc_trim(0);
    reset_peak_resident(pid_);
    start_ = resident_bytes(pid_);
  }
  /// The growth at its peak so far, in MiB.
  double peak_growth_mib() const {
    const auto peak = peak_resident_bytes(pid_);
    return peak > start_ ? double(peak - start_) / (1024.0 * 1024.0) : 0.0;
  }
  std::size_t start_bytes() const noexcept { return start_; }

 private:
  pid_t pid_;
  std::size_t start_ = 0;
};

inline constexpr std::size_t mebibyte = 1024 * 1024;

/// Reports a measured figure in the test's output ("[ measured ] ...") and
/// in its XML record.
inline void report_measured(const std::string& what, double value, const char* unit) {
  std::printf("[ measured ] %s: %.1f %s\n", what.c_str(), value, unit);
  ::testing::Test::RecordProperty(what, std::to_string(value) + " " + unit);
}

/// Reports how far the memory `memory` watches rose at its peak, and checks
/// it stayed under `bound_mib` (in a plain build: see sanitized_build).
inline void expect_peak_growth_under(const memory_watch& memory, double bound_mib, const std::string& what) {
  const double grown = memory.peak_growth_mib();
  report_measured(what + ": peak RSS growth", grown, "MiB");
  if (!sanitized_build) {
    EXPECT_LT(grown, bound_mib) << what;
  }
}

}  // namespace mcp::test
