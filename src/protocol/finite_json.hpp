#pragma once
// Boost.JSON's parser, building the same value, except for two kinds of
// numbers that Boost.JSON 1.81 reads wrongly (both found by
// fuzz/fuzz_request_state.cpp):
// - a number no double can hold (`1e400`) is an error instead of an
//   infinity, which Boost.JSON writes as `Infinity`, not JSON: a peer's tool
//   arguments echoed back in a result, or a value carried in a
//   requestState, would come out as text no one can read;
// - a decimal is read correctly rounded (detail::read_decimal). Boost.JSON 1.81
//   trades that for speed and can be one unit in the last place off (1.83
//   made precise reading its default), even on the shortest text it wrote
//   itself: a double stored in Redis, relayed between nodes or sealed in a
//   requestState moved a little on every round trip.

#include <mcp/export.hpp>

#include <boost/json/parse_options.hpp>
#include <boost/json/storage_ptr.hpp>
#include <boost/json/value.hpp>

#include <string_view>

namespace mcp::detail {

/// Parses `text`; on failure sets `ec` (json::error::exponent_overflow for
/// a number out of range) and returns null.
boost::json::value parse_finite_json(std::string_view text, boost::system::error_code& ec,
                                     boost::json::storage_ptr storage, const boost::json::parse_options& options);

/// Parses JSON the library wrote itself: a record in Redis, a message
/// relayed between nodes, a sealed requestState. Its depth may exceed that
/// of the message it holds by a few levels (Boost.JSON's default of 32 is
/// too low for a message read at 128). (MCP_API on both: caduceus::cluster
/// calls them, a library of its own in a shared build.)
MCP_API boost::json::value parse_stored_json(std::string_view text, boost::system::error_code& ec);

/// The same, throwing boost::system::system_error on failure.
MCP_API boost::json::value parse_stored_json(std::string_view text);

}  // namespace mcp::detail
