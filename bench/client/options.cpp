#include "options.hpp"

#include <stdexcept>
#include <string_view>

namespace bench_client {

namespace {

std::chrono::milliseconds seconds(const std::string& text) {
  return std::chrono::milliseconds(static_cast<long long>(std::stod(text) * 1000));
}

}  // namespace

options parse_options(int argc, char** argv) {
  if (argc < 2) throw std::invalid_argument("no transport given");
  options o;
  o.transport = argv[1];
  if (o.transport != "stdio" && o.transport != "http") throw std::invalid_argument("unknown transport " + o.transport);
  for (int i = 2; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "--") {
      o.command.assign(argv + i + 1, argv + argc);
      break;
    }
    if (flag == "--legacy") {
      o.legacy = true;
      continue;
    }
    if (i + 1 >= argc) throw std::invalid_argument("missing value after " + std::string(flag));
    const std::string value = argv[++i];
    if (flag == "--url") o.url = value;
    else if (flag == "--window") o.window = std::stoul(value);
    else if (flag == "--pool") o.pool = std::stoul(value);
    else if (flag == "--warmup") o.limits.warmup = seconds(value);
    else if (flag == "--duration") o.limits.duration = seconds(value);
    else if (flag == "--grace") o.limits.grace = seconds(value);
    else if (flag == "--max-count") o.limits.max_count = std::stoull(value);
    else if (flag == "--server-pid") o.server_pid = std::stoi(value);
    else throw std::invalid_argument("unknown option " + std::string(flag));
  }
  if (o.transport == "http" && o.url.empty()) throw std::invalid_argument("http needs --url");
  if (o.transport == "stdio" && o.command.empty()) throw std::invalid_argument("stdio needs -- COMMAND");
  if (o.transport == "stdio" && o.pool > 0) throw std::invalid_argument("--pool is for http");
  if (o.window < 1) throw std::invalid_argument("--window must be at least 1");
  return o;
}

}  // namespace bench_client
