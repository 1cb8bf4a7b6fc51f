#pragma once
// Boost.JSON's parser, building the same value, except that a number no
// double can hold (`1e400`) is an error instead of an infinity. Boost.JSON
// 1.81 reads such a number as infinity and writes infinity as `Infinity`,
// which is not JSON: a peer's tool arguments echoed back in a result, or a
// value carried in a requestState, would come out as text no one can read
// (found by fuzz/fuzz_request_state.cpp).

#include <boost/json/parse_options.hpp>
#include <boost/json/storage_ptr.hpp>
#include <boost/json/value.hpp>

#include <string_view>

namespace mcp::detail {

/// Parses `text`; on failure sets `ec` (json::error::exponent_overflow for
/// a number out of range) and returns null.
boost::json::value parse_finite_json(std::string_view text, boost::system::error_code& ec,
                                     boost::json::storage_ptr storage, const boost::json::parse_options& options);

}  // namespace mcp::detail
