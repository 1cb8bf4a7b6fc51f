#include "log_options.hpp"

#include "failure.hpp"

#include <mcp/error.hpp>
#include <mcp/log.hpp>

#include <stdexcept>

namespace caduceus {

void apply_log_options(const invocation& inv) {
  if (inv.log_format) mcp::set_sdk_log_format(*inv.log_format);
  if (inv.log_spec.empty()) return;
  try {
    mcp::set_sdk_log_levels(inv.log_spec);
  } catch (const mcp::invalid_argument& e) {
    throw usage_error("--log-level: " + std::string(e.what()));
  }
}

}  // namespace caduceus
