#include "conformance_client_skills.hpp"

#include <stdexcept>

boost::asio::awaitable<void> run_skills_scenario(mcp::client&, const std::string& scenario) {
  throw std::runtime_error(scenario + ": this build of Caduceus has no skills part (caduceus::skills needs yaml-cpp)");
  co_return;
}
