#pragma once
// The completion token for an operation whose failure is an ordinary outcome
// (a timer cancelled, a peer gone): the coroutine gets the error code with
// the result, as a tuple, instead of an exception.

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail {

inline constexpr auto as_tuple_awaitable = boost::asio::as_tuple(boost::asio::use_awaitable);

}  // namespace mcp::detail
