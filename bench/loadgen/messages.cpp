#include "messages.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>

namespace loadgen {

std::string modern_envelope(std::string_view client_capabilities) {
  std::string text = R"("_meta":{"io.modelcontextprotocol/protocolVersion":")";
  text += modern_protocol_version;
  text += R"(","io.modelcontextprotocol/clientInfo":{"name":"caduceus-bench","version":"1.0.0"},)"
          R"("io.modelcontextprotocol/clientCapabilities":)";
  text += client_capabilities;
  text += '}';
  return text;
}

namespace {

// params._meta of the echo, discover and input_required requests (their
// client takes elicitation).
std::string envelope() { return modern_envelope(R"({"elicitation":{}})"); }

std::string quoted(std::string_view text) { return boost::json::serialize(boost::json::string(text)); }

// A tools/call of echo with the text echo_text(id), and the envelope or none.
std::string echo_request(std::int64_t id, bool with_envelope) {
  std::string text = R"({"jsonrpc":"2.0","id":)";
  text += std::to_string(id);
  text += R"(,"method":"tools/call","params":{"name":"echo","arguments":{"text":")";
  text += echo_text(id);
  text += R"("})";
  if (with_envelope) {
    text += ',';
    text += envelope();
  }
  text += "}}";
  return text;
}

// A tools/call of confirm with `more` (members of params, each followed by a comma).
std::string confirm_request(std::int64_t id, std::string_view more) {
  std::string text = R"({"jsonrpc":"2.0","id":)";
  text += std::to_string(id);
  text += R"(,"method":"tools/call","params":{"name":"confirm","arguments":{"question":)";
  text += quoted(confirm_question);
  text += "},";
  text += more;
  text += envelope();
  text += "}}";
  return text;
}

}  // namespace

std::string initialize_request(std::int64_t id) {
  std::string text = R"({"jsonrpc":"2.0","id":)";
  text += std::to_string(id);
  text += R"(,"method":"initialize","params":{"protocolVersion":")";
  text += protocol_version;
  text += R"(","capabilities":{},"clientInfo":{"name":"caduceus-bench","version":"1.0.0"}}})";
  return text;
}

std::string initialized_notification() {
  return R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
}

std::string echo_call(std::int64_t id) { return echo_request(id, false); }

std::string echo_text(std::int64_t id) { return "bench " + std::to_string(id); }

std::string long_task_call(std::int64_t id, int steps, int step_ms) {
  const auto n = std::to_string(id);
  return R"({"jsonrpc":"2.0","id":)" + n + R"(,"method":"tools/call","params":{"name":"long_task","arguments":{"steps":)" +
         std::to_string(steps) + R"(,"step_ms":)" + std::to_string(step_ms) + R"(},"_meta":{"progressToken":"p)" + n +
         R"("}}})";
}

std::string cancelled_notification(std::int64_t id) {
  return R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":)" + std::to_string(id) +
         R"(,"reason":"soak"}})";
}

std::string modern_echo_call(std::int64_t id) { return echo_request(id, true); }

std::string discover_request(std::int64_t id) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"server/discover","params":{)" + envelope() +
         "}}";
}

std::string confirm_call(std::int64_t id) { return confirm_request(id, ""); }

std::string confirm_retry(std::int64_t id, std::string_view input_key,
                          const std::optional<std::string>& request_state) {
  std::string more = R"("inputResponses":{)";
  more += quoted(input_key);
  more += R"(:{"action":"accept","content":{"confirm":true}}},)";
  if (request_state) {
    more += R"("requestState":)";
    more += quoted(*request_state);
    more += ',';
  }
  return confirm_request(id, more);
}

}  // namespace loadgen
