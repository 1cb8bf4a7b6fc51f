// bench-loadgen: the load generator of the benchmarks (options.hpp says how
// to run it). It checks every reply it gets and counts what is wrong.

#include "options.hpp"
#include "scenarios.hpp"

#include <csignal>
#include <iostream>

int main(int argc, char** argv) {
  loadgen::options options;
  try {
    options = loadgen::parse_options(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "bench-loadgen: " << e.what() << " (see bench/loadgen/options.hpp)\n";
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN);  // a server that dies fails a write, not the generator
  try {
    if (options.scenario == "soak") {
      std::cout << loadgen::run_soak(options) << std::endl;
      return 0;
    }
    loadgen::run_result result;
    if (options.scenario == "http") result = loadgen::run_http_load(options);
    else if (options.scenario == "sessions") result = loadgen::run_sessions(options);
    else if (options.scenario == "listen") result = loadgen::run_listen(options);
    else if (options.scenario == "stdio") result = loadgen::run_stdio_load(options);
    else result = loadgen::run_startup(options);
    std::cout << loadgen::to_json_line(result) << std::endl;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "bench-loadgen: " << e.what() << "\n";
    return 1;
  }
}
