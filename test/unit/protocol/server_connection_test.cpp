// The server side of a connection as data: sequences of frames a client
// sends, and what the core says to do with each message (write a frame,
// serve a request, open the session, hand a notification over, stop a
// request, route progress, deliver a response). The test plays the driver:
// it answers a request at once, or lets it run until a step finishes it.
// No io_context, no socket, no coroutine.

#include "../../src/protocol/server_connection.hpp"

#include <mcp/protocol/versions.hpp>

#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace mcp::detail {
namespace {

using core = server_connection;

struct runner final : cancellable {
  bool stopped = false;
  void cancel() noexcept override { stopped = true; }
};

// Plays the driver. A request whose method starts with "slow" runs until a
// step `finish <id>` (or `fail <id>`) ends it; any other is answered at once
// with `{"served":"<method>"}`. `initialize` opens the session.
class driver {
 public:
  explicit driver(std::span<const protocol_version> versions = all_versions()) : core_(versions) {}

  core& connection() { return core_; }

  // Runs one step and returns what was done, one line per action.
  std::vector<std::string> step(const std::string& input) {
    done_.clear();
    if (input.starts_with("finish ") || input.starts_with("fail ")) {
      const auto id = std::stoll(input.substr(input.find(' ') + 1));
      auto& [batch, run] = running_.at(id);
      message reply = input.starts_with("finish ")
                          ? message{response{id, json::object{{"done", true}}}}
                          : message{make_error(request_id{id}, errc::internal_error, "Internal error: boom")};
      write(core_.requests().answer(request_id{id}, batch, std::move(reply)));
      running_.erase(id);
      return done_;
    }
    if (input == "cancel all") {
      for (auto* r : core_.requests().cancel_all()) r->cancel();
      done_.push_back("stopped " + std::to_string(stopped()));
      return done_;
    }
    auto cursor = core_.receive(inbound_frame{.text = input});
    while (auto action = core_.next(cursor)) perform(std::move(*action));
    return done_;
  }

  std::size_t stopped() const {
    std::size_t n = 0;
    for (const auto& [id, run] : running_) n += run.second->stopped;
    return n;
  }

 private:
  void write(std::optional<outgoing_frame> frame) {
    if (!frame) return;
    std::string answers;
    for (const auto& id : frame->route.answers) answers += (answers.empty() ? "" : ",") + id;
    static constexpr const char* refusals[] = {"", " refused: invalid request", " refused: unknown method",
                                               " refused: insufficient scope"};
    done_.push_back("write " + frame->frame + (answers.empty() ? "" : " answers " + answers) +
                    refusals[static_cast<int>(frame->route.refused)]);
  }

  void write(answered reply) {
    if (reply.abandoned) done_.push_back("abandon " + *reply.abandoned);
    write(std::move(reply.write));
  }

  void perform(core::action action) {
    if (auto* frame = std::get_if<outgoing_frame>(&action)) {
      write(std::move(*frame));
    } else if (auto* serving = std::get_if<core::serve_request>(&action)) {
      auto& req = serving->req;
      if (req.method.starts_with("slow")) {
        auto r = std::make_unique<runner>();
        core_.requests().start(req.id, serving->batch, *r);
        running_.emplace(std::get<std::int64_t>(req.id), std::pair{serving->batch, std::move(r)});
        done_.push_back("run " + req.method);
        return;
      }
      write(core_.requests().answer(req.id, serving->batch,
                                    response{req.id, json::object{{"served", req.method}}}));
    } else if (auto* hello = std::get_if<core::open_session>(&action)) {
      done_.push_back("open " + std::string(to_string(hello->version)) + " for " +
                      hello->hello.client_info.name);
      message reply = response{hello->req.id, json::object{{"protocolVersion", to_string(hello->version)}}};
      write(core_.session_opened(hello->version, std::move(reply)));
    } else if (auto* modern = std::get_if<core::serve_modern_request>(&action)) {
      done_.push_back("modern " + modern->req.method + " at " + std::string(to_string(modern->version)));
    } else if (auto* note = std::get_if<core::deliver_notification>(&action)) {
      done_.push_back("notify " + note->note.method);
    } else if (auto* cancelled = std::get_if<core::cancel_request>(&action)) {
      cancelled->runner->cancel();
      done_.push_back("stopped " + std::to_string(stopped()));
    } else if (auto* progress = std::get_if<core::route_progress>(&action)) {
      done_.push_back("progress " + json::serialize(progress->params));
    } else if (auto* reply = std::get_if<core::deliver_response>(&action)) {
      done_.push_back("deliver " + serialize(reply->reply));
    }
  }

  core core_;
  std::map<std::int64_t, std::pair<core::batch_id, std::unique_ptr<runner>>> running_;
  std::vector<std::string> done_;
};

const std::string hello =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})";
const std::string initialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

std::string req(int id, std::string_view method) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + std::string(method) + R"("})";
}

std::string enveloped(int id, std::string_view method, std::string_view version = "2026-07-28") {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + std::string(method) +
         R"(","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":")" + std::string(version) +
         R"(","io.modelcontextprotocol/clientCapabilities":{}}}})";
}

struct exchange {
  std::string input;
  std::vector<std::string> expected;
};

// Runs the exchanges in order on one connection.
void expect_exchanges(const std::vector<exchange>& exchanges, driver d = driver{}) {
  for (const auto& [input, expected] : exchanges) EXPECT_EQ(d.step(input), expected) << "after " << input;
}

TEST(ServerConnection, TheLifecycleAdmitsOnlyPingBeforeInitialize) {
  expect_exchanges({
      {req(7, "tools/list"),
       {R"(write {"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request: the session is not initialized; send initialize first"}} answers 7)"}},
      {req(8, "ping"), {R"(write {"jsonrpc":"2.0","id":8,"result":{}} answers 8)"}},
      {hello,
       {"open 2025-03-26 for c", R"(write {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26"}} answers 1)"}},
      {initialized, {}},
      {req(2, "initialize"),
       {R"(write {"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: the session is already initialized"}} answers 2)"}},
      {req(3, "tools/list"), {R"(write {"jsonrpc":"2.0","id":3,"result":{"served":"tools/list"}} answers 3)"}},
  });
}

TEST(ServerConnection, AnInvalidInitializeIsRefusedAndTheSessionWaits) {
  expect_exchanges({
      {R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{}}})",
       {R"(write {"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: /params/clientInfo is required"}} answers 1)"}},
      {req(2, "tools/list"),
       {R"(write {"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: the session is not initialized; send initialize first"}} answers 2)"}},
  });
}

TEST(ServerConnection, AServerOfTheModernEraOnlyRefusesInitialize) {
  const std::vector<protocol_version> modern_only{protocol_version::v2026_07_28};
  driver d(modern_only);
  const auto done = d.step(hello);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_NE(done[0].find(R"("code":-32022)"), std::string::npos) << done[0];
  EXPECT_NE(done[0].find(R"("supported":["2026-07-28"],"requested":"2025-03-26")"), std::string::npos) << done[0];
}

TEST(ServerConnection, BatchesAreRefusedBeforeInitializeAndAnsweredAsOneArray) {
  const std::string batch = "[" + req(2, "tools/list") + "," + req(3, "slow/a") + "," + initialized + "]";
  expect_exchanges({
      {batch,
       {R"(write {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: initialize must not be part of a batch"}})"}},
      {hello,
       {"open 2025-03-26 for c", R"(write {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26"}} answers 1)"}},
      // Served at once, the first reply waits for the slow one.
      {batch, {"run slow/a"}},
      {"finish 3",
       {R"(write [{"jsonrpc":"2.0","id":2,"result":{"served":"tools/list"}},{"jsonrpc":"2.0","id":3,"result":{"done":true}}] answers 2,3)"}},
      // Only notifications: nothing to answer.
      {"[" + initialized + "]", {}},
  });
}

TEST(ServerConnection, ACancelledRequestIsNotAnsweredButClosesItsBatchSlot) {
  const std::string cancel3 = R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})";
  expect_exchanges({
      {hello,
       {"open 2025-03-26 for c", R"(write {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26"}} answers 1)"}},
      {"[" + req(2, "slow/a") + "," + req(3, "slow/b") + "]", {"run slow/a", "run slow/b"}},
      {cancel3, {"stopped 1"}},
      {cancel3, {"stopped 1"}},  // cancelling again stops nothing new
      {"finish 3", {"abandon 3"}},
      {"finish 2", {R"(write [{"jsonrpc":"2.0","id":2,"result":{"done":true}}] answers 2)"}},
      // Unknown or finished ids: nothing to do.
      {cancel3, {}},
  });
}

TEST(ServerConnection, ARunningRequestsIdIsInUse) {
  expect_exchanges({
      {hello,
       {"open 2025-03-26 for c", R"(write {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26"}} answers 1)"}},
      {req(5, "slow/a"), {"run slow/a"}},
      {req(5, "tools/list"),
       {R"(write {"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request: request id 5 is already in use by a running request"}} answers 5)"}},
      {"fail 5",
       {R"(write {"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"Internal error: boom"}} answers 5)"}},
      {req(5, "tools/list"), {R"(write {"jsonrpc":"2.0","id":5,"result":{"served":"tools/list"}} answers 5)"}},
  });
}

TEST(ServerConnection, NotificationsResponsesAndProgressGoWhereTheyBelong) {
  expect_exchanges({
      // Before initialize a notification for the behaviour is dropped.
      {R"({"jsonrpc":"2.0","method":"notifications/roots/list_changed"})", {}},
      {hello,
       {"open 2025-03-26 for c", R"(write {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26"}} answers 1)"}},
      {R"({"jsonrpc":"2.0","method":"notifications/roots/list_changed"})", {"notify notifications/roots/list_changed"}},
      {R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":4,"progress":1}})",
       {R"(progress {"progressToken":4,"progress":1})"}},
      {R"({"jsonrpc":"2.0","id":4,"result":{"roots":[]}})", {R"(deliver {"jsonrpc":"2.0","id":4,"result":{"roots":[]}})"}},
  });
}

TEST(ServerConnection, MalformedFramesGetTheirErrors) {
  driver d;
  const auto unparsed = d.step("{not json");
  ASSERT_EQ(unparsed.size(), 1u);
  EXPECT_TRUE(unparsed[0].starts_with(R"(write {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: )"))
      << unparsed[0];
  EXPECT_EQ(d.step("[]"), std::vector<std::string>{
                              R"(write {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: empty batch"}})"});
  auto cursor = d.connection().receive(inbound_frame{.text = {}, .oversized = true});
  const auto refusal = d.connection().next(cursor);
  ASSERT_TRUE(refusal && std::holds_alternative<outgoing_frame>(*refusal));
  EXPECT_EQ(std::get<outgoing_frame>(*refusal).frame,
            R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: message exceeds the size limit"}})");
  EXPECT_FALSE(d.connection().next(cursor));
}

TEST(ServerConnection, TheFirstRequestChoosesTheEra) {
  driver modern;
  EXPECT_EQ(modern.step(enveloped(1, "tools/list")), std::vector<std::string>{"modern tools/list at 2026-07-28"});
  EXPECT_EQ(modern.step(enveloped(2, "server/discover")),
            std::vector<std::string>{"modern server/discover at 2026-07-28"});
  EXPECT_EQ(modern.step("[" + enveloped(3, "tools/list") + "]"),
            std::vector<std::string>{
                R"(write {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: batches are not supported in protocol version 2026-07-28"}})"});

  // The probe opens the modern era even without an envelope, which it then lacks.
  driver probe;
  const auto refused = probe.step(req(1, "server/discover"));
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_NE(refused[0].find(R"("data":{"envelope":{"missing":["_meta"]}})"), std::string::npos) << refused[0];

  // After initialize, an envelope does not change the era.
  driver legacy;
  legacy.step(hello);
  EXPECT_EQ(legacy.step(enveloped(1, "tools/list")),
            std::vector<std::string>{R"(write {"jsonrpc":"2.0","id":1,"result":{"served":"tools/list"}} answers 1)"});

  // A server without a modern version refuses the probe as any request
  // before initialize, and the client's initialize then opens the session.
  driver legacy_only(legacy_versions());
  EXPECT_EQ(legacy_only.step(enveloped(1, "server/discover")),
            std::vector<std::string>{
                R"(write {"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the session is not initialized; send initialize first"}} answers 1)"});
  const auto opened = legacy_only.step(hello);
  ASSERT_FALSE(opened.empty());
  EXPECT_EQ(opened[0], "open 2025-03-26 for c");

  driver fixed;
  fixed.connection().set_era(protocol_era::legacy);
  EXPECT_EQ(fixed.step(enveloped(1, "tools/list")),
            std::vector<std::string>{
                R"(write {"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the session is not initialized; send initialize first"}} answers 1)"});
}

TEST(ServerConnection, AModernRequestIsAdmittedOrRefusedBeforeAnyHandler) {
  driver d;
  EXPECT_EQ(d.step(enveloped(1, "tools/call")), std::vector<std::string>{"modern tools/call at 2026-07-28"});
  // The legacy lifecycle is not part of the era: 404 over HTTP.
  EXPECT_EQ(d.step(enveloped(2, "ping")),
            std::vector<std::string>{
                R"(write {"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: ping is not part of protocol version 2026-07-28"}} answers 2 refused: unknown method)"});
  // A version the server does not serve, or no envelope: 400 over HTTP.
  const auto unsupported = d.step(enveloped(3, "tools/list", "2099-01-01"));
  ASSERT_EQ(unsupported.size(), 1u);
  EXPECT_TRUE(unsupported[0].starts_with(R"(write {"jsonrpc":"2.0","id":3,"error":{"code":-32022,)")) << unsupported[0];
  EXPECT_TRUE(unsupported[0].ends_with("answers 3 refused: invalid request")) << unsupported[0];
  const auto bare = d.step(req(4, "tools/list"));
  ASSERT_EQ(bare.size(), 1u);
  EXPECT_TRUE(bare[0].starts_with(R"(write {"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: the request's _meta envelope has )"))
      << bare[0];
  EXPECT_TRUE(bare[0].ends_with("refused: invalid request")) << bare[0];
  // A method no revision of the era has is the behaviour's to refuse.
  EXPECT_EQ(d.step(enveloped(5, "tasks/get")), std::vector<std::string>{"modern tasks/get at 2026-07-28"});
}

TEST(ServerConnection, BatchesFollowTheNegotiatedRevision) {
  driver d;
  d.step(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})");
  EXPECT_EQ(d.step("[" + req(2, "ping") + "]"),
            std::vector<std::string>{
                R"(write {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: batches are not supported in protocol version 2025-06-18"}})"});
}

TEST(ServerConnection, EndingTheConnectionStopsEveryRunningRequest) {
  driver d;
  d.step(hello);
  d.step(req(2, "slow/a"));
  d.step(req(3, "slow/b"));
  EXPECT_EQ(d.connection().requests().running(), 2u);
  EXPECT_EQ(d.step("cancel all"), std::vector<std::string>{"stopped 2"});
  EXPECT_EQ(d.step("finish 2"), std::vector<std::string>{"abandon 2"});
  EXPECT_EQ(d.step("finish 3"), std::vector<std::string>{"abandon 3"});
  EXPECT_EQ(d.connection().requests().running(), 0u);
}

TEST(ServerConnection, ListenStreamsEndWithTheirResultOnlyWhenTheServerClosesThem) {
  inbound_table table;
  runner closed_by_server, cancelled_by_client;
  runner request;
  table.start(request_id{1}, 0, closed_by_server, true);
  table.start(request_id{2}, 0, cancelled_by_client, true);
  table.start(request_id{3}, 0, request);
  EXPECT_EQ(table.cancel(request_id{2}), &cancelled_by_client);
  EXPECT_FALSE(table.end_listen(request_id{2}));
  EXPECT_EQ(table.close_listens(), std::vector<cancellable*>{&closed_by_server});
  EXPECT_TRUE(table.end_listen(request_id{1}));
  EXPECT_FALSE(table.end_listen(request_id{4}));
  EXPECT_EQ(table.running(), 1u);
}

TEST(ServerConnection, RefusalsTellTheTransportHowToAnswer) {
  const auto refusal = [](int code, bool modern) {
    return core::refusal_of(make_error(request_id{1}, code, "x"), modern);
  };
  using r = frame_context::refusal;
  EXPECT_EQ(refusal(errc::method_not_found, true), r::unknown_method);
  EXPECT_EQ(refusal(errc::method_not_found, false), r::none);
  EXPECT_EQ(refusal(errc::unsupported_protocol_version, true), r::invalid_request);
  EXPECT_EQ(refusal(errc::invalid_params, true), r::none);
  EXPECT_EQ(refusal(-32010, false), r::insufficient_scope);
  EXPECT_EQ(core::refusal_of(response{request_id{1}, json::object{}}, true), r::none);
}

}  // namespace
}  // namespace mcp::detail
