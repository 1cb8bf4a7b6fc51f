#pragma once
// The transport to the server the command line names: a child process
// (--stdio) or an HTTP endpoint (--url).

#include "arguments.hpp"

#include <mcp/client/client.hpp>
#include <mcp/transport/transport.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <functional>
#include <memory>
#include <string_view>

namespace caduceus {

/// The client's options: our name and version, the --timeout.
mcp::client_options client_options_for(const invocation& inv);

/// Starts the server process of --stdio. The child's stderr lines go to
/// `on_child_stderr` (null: to our stderr). Throws std::system_error when the
/// program cannot be started.
std::unique_ptr<mcp::message_transport> start_process(boost::asio::any_io_executor ex, const invocation& inv,
                                                      std::function<void(std::string_view line)> on_child_stderr);

/// Starts the server process or prepares the HTTP connection. The child's
/// stderr lines go to `on_child_stderr` (null: to our stderr). Throws
/// std::system_error when the program cannot be started, usage_error for a
/// URL that is not http(s).
boost::asio::awaitable<std::unique_ptr<mcp::message_transport>> open_transport(
    boost::asio::any_io_executor ex, const invocation& inv,
    std::function<void(std::string_view line)> on_child_stderr);

}  // namespace caduceus
