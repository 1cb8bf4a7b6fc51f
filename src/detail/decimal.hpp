#pragma once
// Decimal text read as a double, correctly rounded and whatever the
// program's locale: std::from_chars where the standard library has it for
// floating point, a stream in the classic locale where it does not (libc++
// before 20, and so macOS's before a macOS 26 deployment target).

#include <mcp/export.hpp>

#include <optional>
#include <string_view>

namespace mcp::detail {

/// Whether all of `text` is a decimal number:
/// -?digits(.digits?)?([eE][+-]?digits)?, or with .digits alone before the
/// exponent; no sign +, whitespace, hexadecimal, infinity or NaN.
// (MCP_API on both: caduceus::skills calls them, a library of its own in a
// shared build.)
MCP_API bool is_decimal(std::string_view text);

/// `text` as a double when it is_decimal and a double holds it; otherwise
/// nullopt, also when it is out of a double's range.
MCP_API std::optional<double> read_decimal(std::string_view text);

}  // namespace mcp::detail
