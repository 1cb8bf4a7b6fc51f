#pragma once
// One client command from start to end: connect, run it, close; Ctrl-C
// cancels whatever is under way (a call in flight gets notifications/cancelled).

#include "arguments.hpp"
#include "progress_bar.hpp"

#include <boost/asio/awaitable.hpp>

namespace caduceus {

/// Returns the exit code. Failures are reported (one line on stderr) here.
boost::asio::awaitable<int> run_session(const invocation& inv, progress_bar& bar);

}  // namespace caduceus
