#pragma once
// What /proc says about a process: CPU time used so far (utime + stime of
// all its threads, living and ended) and resident memory.

#include <sys/types.h>

#include <chrono>

namespace loadgen {

/// utime + stime from /proc/PID/stat (clock-tick resolution, 10 ms on Linux).
/// Throws std::runtime_error when the process is gone.
std::chrono::microseconds process_cpu_time(pid_t pid);
/// Of this process, from getrusage (microsecond resolution).
std::chrono::microseconds own_cpu_time();
/// VmRSS from /proc/PID/status, in bytes.
long resident_bytes(pid_t pid);

}  // namespace loadgen
