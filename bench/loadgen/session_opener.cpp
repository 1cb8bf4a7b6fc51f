#include "session_opener.hpp"

#include "http_reply_check.hpp"
#include "messages.hpp"

namespace loadgen {

asio::awaitable<opened_session> open_session(http_connection& connection, const http_mode& mode,
                                             std::int64_t request_id) {
  opened_session session;
  const std::string initialize = initialize_request(request_id);
  const post_headers initialize_headers{mode.accept, {}, false};
  http_reply reply = co_await connection.post(initialize, initialize_headers);
  const auto message = message_of(reply, mode.style, session.problem);
  if (!message) co_return session;
  if (auto problem = check_initialize_reply(*message, request_id, peer_kind::mcp)) {
    session.problem = std::move(*problem);
    co_return session;
  }
  if (reply.session_id.empty()) {
    session.problem = "initialize answered without an Mcp-Session-Id";
    co_return session;
  }
  const std::string initialized = initialized_notification();
  const post_headers session_headers{mode.accept, reply.session_id, true};
  const http_reply accepted = co_await connection.post(initialized, session_headers);
  if (auto problem = check_accepted(accepted)) {
    session.problem = std::move(*problem);
    co_return session;
  }
  session.id = std::move(reply.session_id);
  co_return session;
}

}  // namespace loadgen
