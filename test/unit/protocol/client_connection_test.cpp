// The client side of a connection as data: what each message a server sends
// comes to, and a server request it cancels. No io_context, no socket.

#include "../../src/protocol/client_connection.hpp"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mcp::detail {
namespace {

using client_core = client_connection;

struct client_runner final : cancellable {
  void cancel() noexcept override {}
};

// One line per action of one frame.
std::vector<std::string> actions(client_core& c, const std::string& text) {
  std::vector<std::string> done;
  auto cursor = c.receive(inbound_frame{.text = text});
  while (auto action = c.next(cursor)) {
    if (auto* frame = std::get_if<outgoing_frame>(&*action)) done.push_back("answer " + frame->frame);
    if (auto* req = std::get_if<client_core::serve_server_request>(&*action)) done.push_back("serve " + req->req.method);
    if (std::get_if<client_core::route_progress>(&*action)) done.push_back("progress");
    if (auto* reply = std::get_if<client_core::deliver_response>(&*action)) done.push_back("deliver " + serialize(reply->reply));
    if (auto* n = std::get_if<client_core::deliver_notification>(&*action))
      done.push_back("notice " + std::to_string(static_cast<int>(n->kind)) + " " + std::string(n->subject) +
                     (n->stop ? " stop" : ""));
  }
  return done;
}

TEST(ClientConnection, EachMessageGoesWhereItBelongs) {
  client_core c;
  using v = std::vector<std::string>;
  EXPECT_EQ(actions(c, R"({"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}})"),
            v{"serve sampling/createMessage"});
  EXPECT_EQ(actions(c, R"({"jsonrpc":"2.0","id":1,"result":{}})"), v{R"(deliver {"jsonrpc":"2.0","id":1,"result":{}})"});
  EXPECT_EQ(actions(c, R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1}})"),
            v{"progress"});
  EXPECT_EQ(actions(c, R"({"jsonrpc":"2.0","id":2})"),
            v{R"(answer {"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: expected a method, or exactly one of result and error"}})"});
  EXPECT_TRUE(actions(c, "[" + std::string(R"({"jsonrpc":"2.0","method":"x"})") + "," +
                             R"({"jsonrpc":"2.0","method":"y"})" + "]")
                  .size() == 2);
  auto cursor = c.receive(inbound_frame{.text = {}, .oversized = true});
  EXPECT_FALSE(c.next(cursor));
  // A frame the transport parsed already (HTTP) is not parsed again: its text is not read.
  auto parsed = c.receive(inbound_frame{.text = "not read", .parsed = json::parse(R"({"jsonrpc":"2.0","id":3,"result":{}})")});
  const auto reply = c.next(parsed);
  ASSERT_TRUE(reply && std::holds_alternative<client_core::deliver_response>(*reply));
  EXPECT_EQ(serialize(std::get<client_core::deliver_response>(*reply).reply), R"({"jsonrpc":"2.0","id":3,"result":{}})");
}

TEST(ClientConnection, NotificationsSayWhatTheyMean) {
  client_core c;
  using v = std::vector<std::string>;
  const auto notice = [&](std::string method, std::string params = "{}") {
    return actions(c, R"({"jsonrpc":"2.0","method":")" + method + R"(","params":)" + params + "}");
  };
  EXPECT_EQ(notice("notifications/subscriptions/acknowledged"), v{"notice 2 "});
  EXPECT_EQ(notice("notifications/message", R"({"level":"info","data":1})"), v{"notice 3 "});
  EXPECT_EQ(notice("notifications/tools/list_changed"), v{"notice 4 tools"});
  // Lists this build does not know are announced too.
  EXPECT_EQ(notice("notifications/widgets/list_changed"), v{"notice 4 widgets"});
  EXPECT_EQ(notice("notifications/list_changed"), v{"notice 0 "});
  EXPECT_EQ(notice("notifications/resources/updated", R"({"uri":"a://x"})"), v{"notice 5 a://x"});
  EXPECT_EQ(notice("notifications/resources/updated", R"({"uri":7})"), v{"notice 0 "});
  EXPECT_EQ(notice("notifications/whatever"), v{"notice 0 "});
}

TEST(ClientConnection, TheServerCancelsARequestBeingAnswered) {
  client_core c;
  client_runner r;
  c.requests().start(request_id{4}, 0, r);
  const std::string cancel = R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}})";
  EXPECT_EQ(actions(c, cancel), std::vector<std::string>{"notice 1  stop"});
  const auto answer = c.requests().answer(request_id{4}, 0, response{request_id{4}, json::object{}});
  EXPECT_FALSE(answer.write);  // answered by nothing
  EXPECT_EQ(actions(c, cancel), std::vector<std::string>{"notice 1 "});  // no longer running
}

}  // namespace
}  // namespace mcp::detail
