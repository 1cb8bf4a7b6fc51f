#include "options.hpp"

#include <stdexcept>
#include <string_view>

namespace loadgen {

namespace {

std::chrono::milliseconds seconds(const std::string& text) {
  return std::chrono::milliseconds(static_cast<long long>(std::stod(text) * 1000));
}

}  // namespace

options parse_options(int argc, char** argv) {
  if (argc < 2) throw std::invalid_argument("no scenario given");
  options o;
  o.scenario = argv[1];
  if (o.scenario != "http" && o.scenario != "sessions" && o.scenario != "stdio" && o.scenario != "startup" &&
      o.scenario != "soak" && o.scenario != "listen")
    throw std::invalid_argument("unknown scenario " + o.scenario);
  for (int i = 2; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "--") {
      o.command.assign(argv + i + 1, argv + argc);
      break;
    }
    if (i + 1 >= argc) throw std::invalid_argument("missing value after " + std::string(flag));
    const std::string value = argv[++i];
    if (flag == "--url") o.url = value;
    else if (flag == "--mode") o.mode = value;
    else if (flag == "--peer") o.peer = parse_peer_kind(value);
    else if (flag == "--connections") o.connections = std::stoi(value);
    else if (flag == "--window") o.window = std::stoul(value);
    else if (flag == "--era") {
      if (value != "legacy" && value != "modern") throw std::invalid_argument("--era takes legacy or modern");
      o.modern_era = value == "modern";
    }
    else if (flag == "--warmup") o.limits.warmup = seconds(value);
    else if (flag == "--duration") o.limits.duration = seconds(value);
    else if (flag == "--grace") o.limits.grace = seconds(value);
    else if (flag == "--max-count") o.limits.max_count = std::stoull(value);
    else if (flag == "--rate") o.rate = std::stod(value);
    else if (flag == "--sample-every") o.sample_every = seconds(value);
    else if (flag == "--server-pid") o.server_pid = std::stoi(value);
    else if (flag == "--cpu-pid") {
      const auto equals = value.find('=');
      if (equals == std::string::npos || equals == 0) throw std::invalid_argument("--cpu-pid takes NAME=PID");
      o.cpu_pids.emplace_back(value.substr(0, equals), std::stoi(value.substr(equals + 1)));
    }
    else throw std::invalid_argument("unknown option " + std::string(flag));
  }
  const bool over_http = o.scenario == "http" || o.scenario == "sessions" || o.scenario == "soak" ||
                         o.scenario == "listen";
  if (over_http && o.url.empty()) throw std::invalid_argument(o.scenario + " needs --url");
  if (!over_http && o.command.empty()) throw std::invalid_argument(o.scenario + " needs -- COMMAND");
  if (o.scenario == "sessions" && (o.server_pid == 0 || o.limits.max_count == UINT64_MAX))
    throw std::invalid_argument("sessions needs --server-pid and --max-count");
  if (o.scenario == "listen" && o.server_pid == 0) throw std::invalid_argument("listen needs --server-pid");
  if (o.scenario == "soak" && (o.server_pid == 0 || o.rate <= 0))
    throw std::invalid_argument("soak needs --server-pid and --rate");
  if (o.connections < 1 || o.window < 1) throw std::invalid_argument("--connections and --window must be at least 1");
  return o;
}

}  // namespace loadgen
