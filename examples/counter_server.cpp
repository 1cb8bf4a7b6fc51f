// counter-server: the model of a low-level server. It implements the
// behaviour interface directly: every request arrives as JSON and every
// result is built by hand. The engine underneath handles the handshake,
// version negotiation, ping, cancellation, concurrency and errors.
//
// One tool, `counter`: returns the session's counter, incrementing it first
// when called with {"increment": true}. Each session counts on its own.
//
//   build/bin/counter-server          (speaks MCP on stdin/stdout)

#include <mcp/protocol/methods.hpp>
#include <mcp/server/behaviour.hpp>
#include <mcp/server/serve.hpp>

namespace {

namespace json = boost::json;

struct counter_state {
  long long value = 0;
};

json::object text_result(std::string text, bool is_error = false) {
  return {{"content", json::array{json::object{{"type", "text"}, {"text", std::move(text)}}}},
          {"isError", is_error}};
}

class counter_server final : public mcp::server_behaviour {
 public:
  mcp::implementation server_info() const override { return {"counter-server", "1.0.0"}; }

  json::object capabilities() const override { return {{"tools", json::object{}}}; }

  boost::asio::awaitable<json::object> handle_request(const mcp::request& req,
                                                      mcp::request_context& ctx) override {
    if (req.method == mcp::methods::tools_list) co_return list_tools();
    if (req.method == mcp::methods::tools_call) co_return call_tool(req.params, ctx.session());
    throw mcp::protocol_error(mcp::errc::method_not_found, "Method not found: " + req.method);
  }

 private:
  static json::object list_tools() {
    json::object schema{{"type", "object"},
                        {"properties", {{"increment", {{"type", "boolean"}}}}}};
    json::object tool{{"name", "counter"},
                      {"description", "Get or increment counter"},
                      {"inputSchema", std::move(schema)}};
    return {{"tools", json::array{std::move(tool)}}};
  }

  static json::object call_tool(const json::object& params, mcp::session& session) {
    const auto* name = params.if_contains("name");
    if (!name || !name->is_string())
      throw mcp::protocol_error(mcp::errc::invalid_params, "Invalid params: name must be a string");
    if (name->get_string() != "counter")
      throw mcp::protocol_error(mcp::errc::invalid_params,
                                "Unknown tool: " + std::string(name->get_string()));
    bool increment = false;
    if (const auto* args = params.if_contains("arguments"); args && !args->is_null()) {
      if (!args->is_object()) return text_result("arguments must be an object", true);
      if (const auto* inc = args->get_object().if_contains("increment")) {
        if (!inc->is_bool()) return text_result("/increment: must be a boolean", true);
        increment = inc->get_bool();
      }
    }
    auto& counter = session.state<counter_state>();
    if (increment) ++counter.value;
    return text_result("Counter value: " + std::to_string(counter.value));
  }
};

}  // namespace

int main() {
  counter_server server;
  return mcp::run_stdio_server(server);
}
