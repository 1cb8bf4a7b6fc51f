#include "config_file.hpp"

#include "../failure.hpp"

namespace caduceus::gateway {

std::vector<std::string> config_arguments(const std::string& path) {
  throw usage_error("--config " + path + ": this build reads no configuration file (it was built without yaml-cpp)");
}

}  // namespace caduceus::gateway
