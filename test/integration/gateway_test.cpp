// `caduceus gateway` in front of our stdio test servers, run as a user runs
// it, with our client over Streamable HTTP and raw HTTP where a client that
// misbehaves is the point: a child for each session and its end with the
// session, the bound on sessions, idle expiry, cancellation and progress
// relayed, a dying child, shutdown, the 2026-07-28 era, stdio in front, and
// the endpoint protected with OAuth.

#include "caduceus_cli.hpp"
#include "http_client.hpp"
#include "jwt_test_keys.hpp"
#include "test_certificates.hpp"
#include "test_issuer.hpp"
#include "test_support.hpp"

#include <mcp/client/client.hpp>
#include <mcp/transport/http_client.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace mcp::test {
namespace {


/// Whether process `pid` has ended and been reaped (no /proc entry, or one
/// of another process by now).
bool ended(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;
  std::string line;
  std::getline(stat, line);
  return line.find("slow-server") == std::string::npos;
}

/// Waits up to `limit` for `pid` to end.
asio::awaitable<bool> ends_within(int pid, std::chrono::milliseconds limit) {
  const std::function<bool()> check = [pid] { return ended(pid); };
  co_return co_await wait_until(check, limit);
}

client_options legacy_options() {
  client_options options;
  options.versions.assign(legacy_versions().begin(), legacy_versions().end());
  return options;
}

asio::awaitable<void> connect_to(client& c, const std::string& url) {
  auto ex = co_await asio::this_coro::executor;
  http_client_options options;
  auto transport = co_await connect_http(ex, url, std::move(options));
  co_await c.connect(std::move(transport));
}

/// The pid of the slow-server the client's session reaches.
asio::awaitable<int> upstream_pid(client& c) {
  const auto result = co_await c.call_tool("pid");
  co_return std::stoi(first_text(result));
}

/// Connects `a` and `b` to the gateway; the pids of their upstreams.
asio::awaitable<std::pair<int, int>> connect_both(client& a, client& b, const std::string& url) {
  co_await connect_to(a, url);
  co_await connect_to(b, url);
  const int pid_a = co_await upstream_pid(a);
  const int pid_b = co_await upstream_pid(b);
  co_return std::pair{pid_a, pid_b};
}

TEST(Gateway, EachSessionHasAChildOfItsOwnThatEndsWithIt) {
  gateway_process gateway(slow_server_command);
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client a(ex, legacy_options());
    client b(ex, legacy_options());
    const auto [pid_a, pid_b] = co_await connect_both(a, b, gateway.url);
    EXPECT_EQ(a.server().server_info.name, "slow-server");  // what the upstream says of itself
    EXPECT_NE(pid_a, pid_b);
    const int again = co_await upstream_pid(a);
    EXPECT_EQ(again, pid_a);  // the same child for the whole session
    co_await a.close();                          // DELETE: the session, and its child, end
    EXPECT_TRUE(co_await ends_within(pid_a, 10s)) << "the closed session's child " << pid_a << " still runs";
    EXPECT_FALSE(ended(pid_b));
    const int b_again = co_await upstream_pid(b);
    EXPECT_EQ(b_again, pid_b);
    co_await b.close();
    EXPECT_TRUE(co_await ends_within(pid_b, 10s));
  }, 40s);
}

TEST(Gateway, ASessionBeyondTheBoundIsRefusedWith503) {
  gateway_process gateway(slow_server_command, {"--max-sessions", "1"});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client a(ex, legacy_options());
    co_await connect_to(a, gateway.url);
    http_connection raw(ex, gateway.port);
    const auto initialize = mcp_post(rpc_request(1, "initialize", initialize_params()));
    const auto refused = co_await raw.send(initialize);
    EXPECT_EQ(refused.status, 503) << refused.body;
    co_await a.close();
    // Once the first session ended, there is room again.
    http_connection again(ex, gateway.port);
    bool accepted = false;
    for (int attempt = 0; attempt < 50 && !accepted; ++attempt) {
      const auto reply = co_await again.send(initialize);
      accepted = reply.status == 200;
      if (!accepted) co_await sleep_for(100ms);
    }
    EXPECT_TRUE(accepted);
  }, 40s);
}

TEST(Gateway, AVanishedClientsChildEndsAfterTheIdleTimeoutThoughItsStreamWasOpen) {
  gateway_process gateway(slow_server_command, {"--session-timeout", "1"});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    int pid = 0;
    {
      http_connection posts(ex, gateway.port);
      const auto initialize = mcp_post(rpc_request(1, "initialize", initialize_params()));
      const auto opened = co_await posts.send(initialize);
      CO_ASSERT_TRUE(opened.status == 200);
      const auto session = opened.header("Mcp-Session-Id");
      const auto initialized = mcp_post(rpc_notification("notifications/initialized"), session);
      co_await posts.send(initialized);
      json::object pid_call{{"name", "pid"}, {"arguments", json::object()}};
      const auto request = mcp_post(rpc_request(2, "tools/call", std::move(pid_call)), session);
      const auto call = co_await posts.send(request);
      const auto answer = call.content_type() == "text/event-stream" ? call.sse_messages().back() : call.json();
      pid = std::stoi(first_text(answer.at("result").as_object()));
      // The client listens on its GET stream, then vanishes without a word.
      http_connection listening(ex, gateway.port);
      const auto listen = mcp_get(session);
      co_await listening.write(listen);
      const auto head = co_await listening.read_head();
      CO_ASSERT_TRUE(head.status == 200);
      listening.stream().socket().set_option(asio::socket_base::linger(true, 0));  // RST, as a killed host would
      listening.stream().socket().close();
    }
    EXPECT_FALSE(ended(pid));
    EXPECT_TRUE(co_await ends_within(pid, 15s)) << "the child of a vanished client still runs";
  }, 40s);
}

TEST(Gateway, ProgressAndCancellationGoThroughToTheUpstream) {
  gateway_process gateway(slow_server_command);
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex, legacy_options());
    co_await connect_to(c, gateway.url);
    int updates = 0;
    call_options options;
    options.on_progress = [&](const progress_update& update) {
      ++updates;
      EXPECT_EQ(update.total, 200.0);
    };
    json::object short_sleep{{"ms", 200}, {"step_ms", 50}};
    const auto slept = co_await c.call_tool("sleep", std::move(short_sleep), options);
    EXPECT_EQ(first_text(slept), "slept 200 ms");
    EXPECT_EQ(updates, 4);  // each before the answer

    // A call cancelled here is cancelled upstream.
    asio::cancellation_signal cancel;
    bool progressed = false;
    call_options long_call;
    long_call.on_progress = [&](const progress_update&) {
      if (!progressed) cancel.emit(asio::cancellation_type::terminal);
      progressed = true;
    };
    json::object long_sleep{{"ms", 20000}};
    auto call = c.call_tool("sleep", std::move(long_sleep), long_call);
    const auto failure = co_await failure_of(
        asio::co_spawn(ex, std::move(call), asio::bind_cancellation_slot(cancel.slot(), asio::use_awaitable)));
    EXPECT_EQ(failure, asio::error::operation_aborted);
    const auto counted = [&]() -> asio::awaitable<bool> {
      const auto stats = co_await c.call_tool("stats");
      co_return first_text(stats) == "1";
    };
    bool seen = false;
    for (int attempt = 0; attempt < 100 && !seen; ++attempt) {
      seen = co_await counted();
      if (!seen) co_await sleep_for(50ms);
    }
    EXPECT_TRUE(seen) << "the upstream never saw the cancellation";
    co_await c.close();
  }, 40s);
}

TEST(Gateway, AChildThatDiesFailsItsSessionsCallsClearlyAndNoOtherSession) {
  gateway_process gateway(slow_server_command);
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client a(ex, legacy_options());
    client b(ex, legacy_options());
    const auto [pid_a, pid_b] = co_await connect_both(a, b, gateway.url);
    ::kill(pid_a, SIGKILL);
    CO_ASSERT_TRUE(co_await ends_within(pid_a, 10s));
    std::string message;
    try {
      co_await a.call_tool("pid");
    } catch (const protocol_error& e) {
      EXPECT_EQ(e.error().code, errc::internal_error);
      message = e.what();
    }
    EXPECT_NE(message.find("upstream server"), std::string::npos) << message;
    const int b_again = co_await upstream_pid(b);
    EXPECT_EQ(b_again, pid_b);
    co_await b.close();
  }, 40s);
}

TEST(Gateway, StoppingItEndsEveryChild) {
  auto gateway = std::make_unique<gateway_process>(slow_server_command);
  std::vector<int> pids;
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client a(ex, legacy_options());
    client b(ex, legacy_options());
    const auto [pid_a, pid_b] = co_await connect_both(a, b, gateway->url);
    pids = {pid_a, pid_b};
    gateway->process.signal(SIGTERM);
    const std::function<bool()> exited = [&] { return gateway->process.wait(0ms); };
    CO_ASSERT_TRUE(co_await wait_until(exited, 20s));
  }, 40s);
  EXPECT_EQ(gateway->process.exit_code(), 0) << gateway->process.err();
  for (const int pid : pids) EXPECT_TRUE(ended(pid)) << "child " << pid << " outlived the gateway";
}

TEST(Gateway, AModernClientIsServedThroughTheSharedConnection) {
  gateway_process gateway(slow_server_command);
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client a(ex);  // 2026-07-28 when the server offers it: the gateway does
    client b(ex);
    const auto [pid_a, pid_b] = co_await connect_both(a, b, gateway.url);
    EXPECT_EQ(pid_a, pid_b);  // no session, so one upstream connection serves them all
    EXPECT_EQ(a.server().version, protocol_version::v2026_07_28);
    EXPECT_EQ(a.server().server_info.name, "slow-server");
    json::object brief{{"ms", 100}};
    const auto slept = co_await a.call_tool("sleep", std::move(brief));
    EXPECT_EQ(first_text(slept), "slept 100 ms");
  }, 40s);
}

// A 2026-07-28 request to a 2026-07-28 upstream: the upstream's input rounds
// pass through the gateway to the client and its retries back.
TEST(Gateway, AModernClientAnswersWhatTheUpstreamAsksInItsNextRound) {
  gateway_process gateway("'" + test_program("everything-server") + "' --stdio");
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex);
    int asked = 0;
    c.on_elicitation([&](json::object params) -> asio::awaitable<json::object> {
      ++asked;
      EXPECT_EQ(params.at("message"), "Ship it?");
      co_return json::object{{"action", "accept"}, {"content", {{"confirm", true}}}};
    });
    c.on_sampling([&](json::object) -> asio::awaitable<json::object> { co_return sampling_answer("forty-two"); });
    c.set_roots({root{"file:///work", "work"}});
    co_await connect_to(c, gateway.url);
    EXPECT_EQ(c.server().version, protocol_version::v2026_07_28);
    json::object question{{"question", "Ship it?"}};
    const auto confirmed = co_await c.call_tool("confirm", std::move(question));
    EXPECT_EQ(first_text(confirmed), "action=accept, confirm=true");
    EXPECT_EQ(asked, 1);
    json::object prompt{{"prompt", "the answer?"}};
    const auto sampled = co_await c.call_tool("sample", std::move(prompt));
    EXPECT_EQ(first_text(sampled), "LLM said: forty-two");
    const auto roots = co_await c.call_tool("list_roots");
    EXPECT_NE(first_text(roots).find("file:///work"), std::string::npos) << first_text(roots);
  }, 40s);
}

// The same against an upstream of the session-based revisions only, whose
// ask comes as a request while its call runs: the gateway holds the call
// across the client's rounds.
TEST(Gateway, AModernClientAnswersWhatALegacyUpstreamAsksWhileTheCallIsHeld) {
  legacy_http_upstream legacy;
  gateway_process gateway(gateway_arguments{{"--url", legacy.url}});
  const auto& url = gateway.url;
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex);
    int asked = 0;
    c.on_sampling([&](json::object) -> asio::awaitable<json::object> {
      ++asked;
      co_return sampling_answer("held and answered");
    });
    co_await connect_to(c, url);
    EXPECT_EQ(c.server().version, protocol_version::v2026_07_28);
    const auto sampled = co_await c.call_tool("sample");
    EXPECT_NE(first_text(sampled).find("held and answered"), std::string::npos) << first_text(sampled);
    EXPECT_EQ(asked, 1);
    // A client that cannot answer is refused upstream, as its own server would refuse it.
    client unable(ex);
    co_await connect_to(unable, url);
    std::string failure;
    try {
      co_await unable.call_tool("sample");
    } catch (const std::exception& e) {
      failure = e.what();
    }
    EXPECT_NE(failure, "") << "the call should fail: the upstream's sampling was refused";
  }, 40s);
}

// Clients of 2026-07-28 at once in front of a session-based upstream: what
// the upstream asks names no call, so each held call has an upstream
// connection to itself, and each client is asked, and answers, its own.
TEST(Gateway, ConcurrentModernClientsAreEachAskedTheirOwnQuestions) {
  legacy_http_upstream legacy;
  gateway_process gateway(gateway_arguments{{"--url", legacy.url}});
  const auto& url = gateway.url;
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    int wrong = 0, done = 0;
    auto one = [&](std::string name) -> asio::awaitable<void> {
      client c(ex);
      c.on_sampling([name](json::object) -> asio::awaitable<json::object> { co_return sampling_answer(name); });
      co_await connect_to(c, url);
      for (int i = 0; i < 5; ++i) {
        const auto sampled = co_await c.call_tool("sample");
        wrong += first_text(sampled).find(name) == std::string::npos;
      }
      co_await c.close();
      ++done;
    };
    for (const auto* name : {"ann", "bob", "cid", "dee"}) asio::co_spawn(ex, one(name), asio::detached);
    const std::function<bool()> finished = [&] { return done == 4; };
    EXPECT_TRUE(co_await wait_until(finished, 30s));
    EXPECT_EQ(wrong, 0) << "a client got another's answer";
  }, 40s);
}

// --shared: sessions of several clients through one upstream connection.
// What the upstream asks while calls of several clients run names none of
// them: it is refused, never put to (and answered by) the wrong client.
TEST(Gateway, ASharedConnectionNeverAsksOneClientAnothersQuestion) {
  legacy_http_upstream legacy;
  gateway_process gateway(gateway_arguments{{"--url", legacy.url, "--shared"}});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    int wrong = 0, done = 0;
    auto one = [&](std::string name) -> asio::awaitable<void> {
      client c(ex, legacy_options());
      c.on_sampling([name](json::object) -> asio::awaitable<json::object> { co_return sampling_answer(name); });
      co_await connect_to(c, gateway.url);
      for (int i = 0; i < 5; ++i) {
        try {
          const auto sampled = co_await c.call_tool("sample");
          wrong += first_text(sampled).find(name) == std::string::npos;
        } catch (const protocol_error&) {  // refused: it could not be told whose question it was
        }
      }
      co_await c.close();
      ++done;
    };
    for (const auto* name : {"ann", "bob", "cid"}) asio::co_spawn(ex, one(name), asio::detached);
    const std::function<bool()> finished = [&] { return done == 3; };
    EXPECT_TRUE(co_await wait_until(finished, 30s));
    EXPECT_EQ(wrong, 0) << "a client got another's answer";
    // One client's calls alone: its questions are put to it, as before.
    client alone(ex, legacy_options());
    alone.on_sampling([](json::object) -> asio::awaitable<json::object> { co_return sampling_answer("eve"); });
    co_await connect_to(alone, gateway.url);
    EXPECT_NE(first_text(co_await alone.call_tool("sample")).find("eve"), std::string::npos);
    co_await alone.close();
  }, 40s);
}

TEST(Gateway, ServesARemoteServerOverStdioForADesktopHost) {
  gateway_process remote(slow_server_command);
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex);
    process_options options = bin_command("caduceus");
    options.args = {"gateway", "--url", remote.url};
    co_await c.connect(spawn_process(ex, std::move(options)));
    EXPECT_EQ(c.server().server_info.name, "slow-server");
    json::object brief{{"ms", 50}};
    const auto slept = co_await c.call_tool("sleep", std::move(brief));
    EXPECT_EQ(first_text(slept), "slept 50 ms");
    co_await c.close();
  }, 40s);
}

// --auth-*: the gateway's endpoint as an OAuth resource server, its tokens
// checked with the keys of a test authorization server over HTTPS.
class GatewayAuth : public tls_test_suite {};

const std::string gateway_resource = "https://gateway.example/mcp";

const test_key& gateway_signing_key() {
  static const test_key key = test_key::ec("gateway-key");
  return key;
}

TEST_F(GatewayAuth, OnlyTokensOfItsIssuerWithTheScopeReachTheUpstream) {
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    test_issuer issuer(ex, certs->cert, certs->key);
    issuer.jwks = jwks_of({&gateway_signing_key()});
    gateway_process gateway(slow_server_command, {"--auth-resource", gateway_resource, "--auth-issuer", issuer.url(),
                                          "--auth-scope", "mcp:use", "--auth-tool-scope", "sleep=mcp:sleep",
                                          "--auth-ca-file", certs->cert, "--auth-private-network"});
    auto token_with = [&](std::string scope) {
      return gateway_signing_key().sign(token_claims(issuer.url(), gateway_resource, std::move(scope)));
    };
    const auto initialize = mcp_post(rpc_request(1, "initialize", initialize_params()));
    http_connection anonymous(ex, gateway.port);
    const auto refused = co_await anonymous.send(initialize);
    EXPECT_EQ(refused.status, 401) << refused.body;
    EXPECT_NE(refused.header("WWW-Authenticate").find("resource_metadata="), std::string::npos);

    auto lacking = initialize;
    lacking.header("Authorization", "Bearer " + token_with("mcp:other"));
    http_connection unscoped(ex, gateway.port);
    const auto forbidden = co_await unscoped.send(lacking);
    EXPECT_EQ(forbidden.status, 403) << forbidden.body;

    http_client_options options;
    options.headers["Authorization"] = "Bearer " + token_with("mcp:use");
    auto transport = co_await connect_http(ex, gateway.url, std::move(options));
    client c(ex, legacy_options());
    co_await c.connect(std::move(transport));
    const int pid = co_await upstream_pid(c);
    EXPECT_GT(pid, 0);
    // A tool that needs a scope more (step-up): refused with this token.
    json::object brief{{"ms", 10}};
    std::string refusal;
    try {
      co_await c.call_tool("sleep", std::move(brief));
    } catch (const std::exception& e) {
      refusal = e.what();
    }
    EXPECT_NE(refusal.find("HTTP 403"), std::string::npos) << refusal;
    EXPECT_NE(refusal.find("mcp:sleep"), std::string::npos) << refusal;
    co_await c.close();
  }, 40s);
}

// --config: a YAML file says what the flags say.
TEST(Gateway, AConfigurationFileSaysWhatTheFlagsSay) {
  const auto unknown = cli({"gateway", "--config", "/nonexistent/gateway.yaml"});
  EXPECT_EQ(unknown.exit_code, 2) << describe(unknown);
  if (unknown.err.find("reads no configuration file") != std::string::npos)
    GTEST_SKIP() << "this build has no yaml-cpp it can link (a libc++ build)";
  const auto path = std::filesystem::temp_directory_path() / ("caduceus-gateway-" + std::to_string(::getpid()) + ".yaml");
  {
    std::ofstream file(path);
    file << "stdio: " << slow_server_command << "\n"
         << "http: 127.0.0.1:0\n"
         << "max-sessions: 1\n"
         << "shared: false\n"
         << "versions: 2025-06-18\n";
  }
  child_process gateway({caduceus_program, "gateway", "--config", path.string()});
  const auto url = gateway.read_line(20s);
  std::filesystem::remove(path);
  const auto port = static_cast<std::uint16_t>(std::stoi(url.substr(url.rfind(':') + 1)));
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client a(ex, legacy_options());
    co_await connect_to(a, url);
    EXPECT_EQ(a.server().version, protocol_version::v2025_06_18);  // versions: 2025-06-18
    http_connection raw(ex, port);
    const auto initialize = mcp_post(rpc_request(1, "initialize", initialize_params()));
    const auto refused = co_await raw.send(initialize);
    EXPECT_EQ(refused.status, 503) << refused.body;  // max-sessions: 1
    co_await a.close();
  }, 40s);
  gateway.stop(10s);
}

TEST(Gateway, UsageMistakesAreFoundBeforeAnythingStarts) {
  const auto neither = cli({"gateway", "--http", "127.0.0.1:0"});
  EXPECT_EQ(neither.exit_code, 2) << describe(neither);
  EXPECT_NE(neither.err.find("--stdio 'CMD ARGS' or --url URL"), std::string::npos) << neither.err;
  const auto bound_without_http = cli({"gateway", "--stdio", "x", "--max-sessions", "3"});
  EXPECT_EQ(bound_without_http.exit_code, 2) << describe(bound_without_http);
  const auto half_auth = cli({"gateway", "--stdio", "x", "--http", "127.0.0.1:0", "--auth-issuer", "https://a"});
  EXPECT_EQ(half_auth.exit_code, 2) << describe(half_auth);
  EXPECT_NE(half_auth.err.find("--auth-resource"), std::string::npos) << half_auth.err;
  const auto missing = cli({"gateway", "--stdio", "/nonexistent/server", "--http", "127.0.0.1:0"});
  EXPECT_EQ(missing.exit_code, 1) << describe(missing);
  EXPECT_NE(missing.err.find("upstream"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace mcp::test
