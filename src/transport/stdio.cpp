#include <mcp/transport/stdio.hpp>

#include "line_transport.hpp"

namespace mcp {

namespace {

// The server's side of stdio: what a handler may read is the environment the
// client started it with (e.g. credentials passed as variables).
class stdio_server_transport final : public detail::line_transport {
 public:
  using line_transport::line_transport;

  transport_metadata metadata() const override {
    transport_metadata m;
    m.kind = "stdio";
    m.environment = detail::current_environment();
    return m;
  }
};

}  // namespace

std::unique_ptr<message_transport> make_stdio_transport(asio::any_io_executor ex) {
  return make_stdio_transport(ex, stdio_options{});
}

std::unique_ptr<message_transport> make_stdio_transport(asio::any_io_executor ex,
                                                        stdio_options options) {
  // (byte_stream_posix.cpp, byte_stream_windows.cpp)
  auto streams = detail::take_standard_streams(ex);
  return std::make_unique<stdio_server_transport>(ex, std::move(streams.in), std::move(streams.out),
                                                  options.max_frame_size);
}

}  // namespace mcp
