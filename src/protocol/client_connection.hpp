#pragma once
// The client side of one connection, sans-io: it takes the frames a server
// sent and says what each message comes to: answer a malformed one, serve a
// server request (on the side: a handler may wait for its user), route
// progress or a response to the request we sent, or hand a notification to
// the client with what it means. It keeps the server's requests being
// answered (an inbound_table, as the server's core does), so that a
// `notifications/cancelled` stops the right one. The driver
// (client/client.cpp) reads, runs the handlers and callbacks, and writes.

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/transport/frame.hpp>

#include "inbound_table.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

namespace mcp::detail {

class client_connection {
 public:
  // Actions that carry a message refer to it in the frame: the driver takes
  // it (moves from it) before it asks for the next action.

  /// A request of the server's, to answer on the side.
  struct serve_server_request {
    request& req;
  };
  /// `notifications/progress` params, for the requests we sent.
  struct route_progress {
    const json::object& params;
  };
  /// A response to a request we sent.
  struct deliver_response {
    message& reply;
  };
  /// What a notification means to a client.
  enum class notice : std::uint8_t {
    other,
    cancelled,            ///< the server gave up a request of its own
    listen_acknowledged,  ///< notifications/subscriptions/acknowledged
    log_message,
    list_changed,      ///< `subject`: what changed ("tools", "prompts", ...)
    resource_updated,  ///< `subject`: the resource's URI
  };
  /// A notification for the client's callbacks.
  struct deliver_notification {
    const notification& note;
    notice kind = notice::other;
    std::string_view subject = {};
    /// The handler to stop, for a cancelled request still being answered.
    cancellable* stop = nullptr;
  };
  using action = std::variant<outgoing_frame, serve_server_request, route_progress, deliver_response,
                              deliver_notification>;

  /// One frame's messages, handed out in order by next().
  class frame_cursor {
   private:
    friend class client_connection;
    std::vector<frame_item> items;
    std::size_t position = 0;
  };

  /// Reads a frame; one over the size limit is dropped (and logged).
  frame_cursor receive(inbound_frame&& frame);
  /// What to do next for the frame; nothing once it is done.
  std::optional<action> next(frame_cursor& frame);

  /// The server's requests being answered.
  inbound_table& requests() noexcept { return requests_; }

 private:
  action on_notification(const notification& n);

  inbound_table requests_;
};

}  // namespace mcp::detail
