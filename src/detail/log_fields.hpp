#pragma once
// Pieces of the log line formats (log_format.cpp) that the earlier sink's
// adapter (log.cpp) also writes.

#include <mcp/log.hpp>

#include <span>
#include <string>

namespace mcp::detail {

/// " key=value" for each field, logfmt-quoted where needed.
void append_logfmt_fields(std::string& out, std::span<const log_field> fields);

}  // namespace mcp::detail
