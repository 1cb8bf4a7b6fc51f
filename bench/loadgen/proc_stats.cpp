#include "proc_stats.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>

namespace loadgen {

namespace {

std::string read_proc_file(pid_t pid, const char* name) {
  const std::string path = "/proc/" + std::to_string(pid) + "/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

std::chrono::microseconds process_cpu_time(pid_t pid) {
  const std::string stat = read_proc_file(pid, "stat");
  // The command name (field 2) may hold spaces and parentheses: fields are
  // counted from the last ')'. It is followed by field 3, state.
  std::istringstream fields(stat.substr(stat.rfind(')') + 1));
  std::string skipped;
  for (int field = 3; field <= 13; ++field) fields >> skipped;
  unsigned long long utime = 0, stime = 0;
  fields >> utime >> stime;
  if (!fields) throw std::runtime_error("unreadable /proc/" + std::to_string(pid) + "/stat");
  const auto ticks_per_second = static_cast<unsigned long long>(sysconf(_SC_CLK_TCK));
  return std::chrono::microseconds((utime + stime) * 1'000'000ULL / ticks_per_second);
}

std::chrono::microseconds own_cpu_time() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto total = [](const timeval& t) { return t.tv_sec * 1'000'000LL + t.tv_usec; };
  return std::chrono::microseconds(total(usage.ru_utime) + total(usage.ru_stime));
}

long resident_bytes(pid_t pid) {
  std::istringstream status(read_proc_file(pid, "status"));
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6)) * 1024;
  throw std::runtime_error("no VmRSS for process " + std::to_string(pid));
}

}  // namespace loadgen
