#pragma once
// The load: `window` callers, each calling `tools/call echo` with a text of
// its own, one call after the other, while the run issues; every result is
// checked (one text block, the text sent) and counted in the run.

#include "clients.hpp"

#include "../loadgen/load_run.hpp"

#include <cstddef>
#include <functional>

namespace bench_client {

/// Starts the callers; `done` runs once the last one has ended. A caller
/// ends when the run stops issuing, or at a call that threw (its connection
/// is then likely gone).
void start_echo_calls(asio::any_io_executor ex, clients& c, std::size_t window, loadgen::load_run& run,
                      std::function<void()> done);

}  // namespace bench_client
