#include "pipe_handshake.hpp"

#include "messages.hpp"

#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace loadgen {

asio::awaitable<void> write_to(child_process& child, const std::string& text) {
  const auto bytes = asio::buffer(text);
  co_await asio::async_write(child.input(), bytes, asio::use_awaitable);
}

asio::awaitable<pipe_handshake> handshake(child_process& child, line_reader& reader, peer_kind peer,
                                          std::int64_t request_id) {
  const std::string initialize = initialize_request(request_id) + "\n";
  co_await write_to(child, initialize);
  std::optional<std::string_view> line = reader.pop_line();
  while (!line) {
    co_await reader.fill();
    line = reader.pop_line();
  }
  pipe_handshake result;
  result.replied_at = clock::now();
  result.problem = check_initialize_reply(*line, request_id, peer).value_or("");
  if (result.problem.empty() && peer == peer_kind::mcp) {
    const std::string initialized = initialized_notification() + "\n";
    co_await write_to(child, initialized);
  }
  co_return result;
}

}  // namespace loadgen
