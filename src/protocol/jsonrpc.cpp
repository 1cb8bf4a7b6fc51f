#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/wire.hpp>

#include "finite_json.hpp"
#include "message_arena.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/serializer.hpp>

#include <limits>

namespace mcp {

namespace {

// Deep enough for any real tool argument; shallow enough that hostile nesting
// cannot exhaust the stack of the parser or of code walking the value.
constexpr std::size_t max_json_depth = 128;

struct id_reading {
  enum class state { absent, null, valid, malformed } what = state::absent;
  request_id id;
};

id_reading read_id(const json::value* v) {
  if (!v) return {};
  if (v->is_null()) return {id_reading::state::null, {}};
  if (auto id = parse_request_id(*v)) return {id_reading::state::valid, std::move(*id)};
  return {id_reading::state::malformed, {}};
}

// The members of a message that JSON-RPC gives a meaning, found in one pass
// over it (a lookup each would walk its members once per name).
struct envelope_members {
  json::value* jsonrpc = nullptr;
  json::value* id = nullptr;
  json::value* method = nullptr;
  json::value* params = nullptr;
  json::value* result = nullptr;
  json::value* error = nullptr;
};

envelope_members find_members(json::object& obj) {
  envelope_members found;
  for (auto& member : obj) {
    const auto key = member.key();
    auto* value = &member.value();
    if (key == "id") found.id = value;
    else if (key == "method") found.method = value;
    else if (key == "params") found.params = value;
    else if (key == "jsonrpc") found.jsonrpc = value;
    else if (key == "result") found.result = value;
    else if (key == "error") found.error = value;
  }
  return found;
}

json::object error_object(const rpc_error& error) { return to_json_value(error).as_object(); }

invalid_message invalid(std::optional<request_id> id, int code, std::string text) {
  return {make_error(std::move(id), code, std::move(text))};
}

frame_item classify_call(const envelope_members& m, const id_reading& id) {
  std::optional<request_id> reply_id;
  if (id.what == id_reading::state::valid) reply_id = id.id;
  if (!m.method->is_string())
    return invalid(reply_id, errc::invalid_request, "Invalid Request: method must be a string");
  if (m.result || m.error)
    return invalid(reply_id, errc::invalid_request,
                   "Invalid Request: a request carries no result or error");
  if (id.what == id_reading::state::null)
    return invalid({}, errc::invalid_request, "Invalid Request: a request id must not be null");
  if (id.what == id_reading::state::malformed)
    return invalid({}, errc::invalid_request,
                   "Invalid Request: id must be a string or an integer");

  auto* p = m.params;
  if (p && !p->is_object()) {
    // An array is valid JSON-RPC, but every MCP method takes named parameters.
    if (p->is_array() && reply_id)
      return invalid(reply_id, errc::invalid_params, "Invalid params: params must be an object");
    return invalid(reply_id, errc::invalid_request, "Invalid Request: params must be an object");
  }
  // Move-constructed, so that the params keep the storage they were parsed into.
  json::object params = p ? json::object(std::move(p->get_object())) : json::object();
  std::string name(m.method->get_string());
  if (reply_id) return message{request{std::move(*reply_id), std::move(name), std::move(params)}};
  return message{notification{std::move(name), std::move(params)}};
}

frame_item classify_reply(const envelope_members& m, const id_reading& id) {
  const bool has_result = m.result != nullptr;
  const auto* error = m.error;
  std::optional<request_id> reply_id;
  if (id.what == id_reading::state::valid) reply_id = id.id;
  if (has_result == (error != nullptr))
    return invalid(reply_id, errc::invalid_request,
                   "Invalid Request: expected a method, or exactly one of result and error");
  if (id.what == id_reading::state::malformed || id.what == id_reading::state::absent)
    return invalid({}, errc::invalid_request, "Invalid Request: a response needs a valid id");
  if (has_result) {
    if (!reply_id)
      return invalid({}, errc::invalid_request, "Invalid Request: a result needs a non-null id");
    return message{response{std::move(*reply_id), std::move(*m.result)}};
  }
  try {
    return message{error_response{std::move(reply_id), from_json<rpc_error>(*error)}};  // (data, rare, is copied)
  } catch (const conversion_error&) {
    return invalid(reply_id, errc::invalid_request,
                   "Invalid Request: error needs an integer code and a string message");
  }
}

}  // namespace

json::value to_json(const request_id& id) {
  return std::visit([](const auto& v) { return json::value(v); }, id);
}

std::string to_json_text(const request_id& id) {
  // Integer ids, the usual kind, without a JSON value and a serializer.
  if (const auto* n = std::get_if<std::int64_t>(&id)) return std::to_string(*n);
  return json::serialize(json::string_view(std::get<std::string>(id)));
}

std::optional<request_id> parse_request_id(const json::value& v) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64() && v.get_uint64() <= std::uint64_t(std::numeric_limits<std::int64_t>::max()))
    return static_cast<std::int64_t>(v.get_uint64());
  if (v.is_string()) return std::string(v.get_string());
  return std::nullopt;
}

std::string to_string(const request_id& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id)) return std::to_string(*n);
  return std::get<std::string>(id);
}

error_response make_error(std::optional<request_id> id, int code, std::string text,
                          json::value data) {
  return {std::move(id), rpc_error{code, std::move(text), std::move(data)}};
}

frame_item classify(json::value value) {
  auto* obj = value.if_object();
  if (!obj) return invalid({}, errc::invalid_request, "Invalid Request: a message is a JSON object");
  const auto members = find_members(*obj);
  const id_reading id = read_id(members.id);
  const auto* version = members.jsonrpc;
  if (!version || !version->is_string() || version->get_string() != "2.0") {
    std::optional<request_id> reply_id;
    if (id.what == id_reading::state::valid) reply_id = id.id;
    return invalid(reply_id, errc::invalid_request, "Invalid Request: jsonrpc must be \"2.0\"");
  }
  if (members.method) return classify_call(members, id);
  return classify_reply(members, id);
}

json::value parse_json(std::string_view text, boost::system::error_code& ec) {
  json::parse_options options;
  options.max_depth = max_json_depth;
  // One arena per message instead of an allocation per key, string and
  // container: a message is parsed, served and dropped as a whole. Values
  // assigned out of it (into a session, say) leave it behind. Not for a
  // batch: its requests may run on several threads at once, and an arena is
  // not thread safe.
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '[') return detail::parse_finite_json(text, ec, {}, options);
  return detail::parse_finite_json(text, ec, detail::make_message_arena(), options);
}

parsed_frame parse_frame(std::string_view text) {
  boost::system::error_code ec;
  json::value value = parse_json(text, ec);
  if (!ec) return classify_frame(std::move(value));
  parsed_frame frame;
  frame.items.push_back(invalid({}, errc::parse_error, "Parse error: " + ec.message()));
  return frame;
}

parsed_frame classify_frame(json::value value) {
  parsed_frame frame;
  auto* batch = value.if_array();
  if (!batch) {
    frame.items.push_back(classify(std::move(value)));
    return frame;
  }
  if (batch->empty()) {
    frame.items.push_back(invalid({}, errc::invalid_request, "Invalid Request: empty batch"));
    return frame;
  }
  frame.batch = true;
  frame.items.reserve(batch->size());
  for (auto& element : *batch) frame.items.push_back(classify(std::move(element)));
  return frame;
}

json::object to_json(const message& m) {
  json::object out;
  out["jsonrpc"] = "2.0";
  std::visit(
      [&](const auto& msg) {
        using T = std::decay_t<decltype(msg)>;
        if constexpr (std::is_same_v<T, request>) {
          out["id"] = to_json(msg.id);
          out["method"] = msg.method;
          if (!msg.params.empty()) out["params"] = msg.params;
        } else if constexpr (std::is_same_v<T, notification>) {
          out["method"] = msg.method;
          if (!msg.params.empty()) out["params"] = msg.params;
        } else if constexpr (std::is_same_v<T, response>) {
          out["id"] = to_json(msg.id);
          out["result"] = msg.result;
        } else {
          out["id"] = msg.id ? to_json(*msg.id) : json::value(nullptr);
          out["error"] = error_object(msg.error);
        }
      },
      m);
  return out;
}

namespace {

// Serializes straight into `out`, without a copy of the value.
template <class Value>
void append_json(std::string& out, const Value& value) {
  json::serializer serializer;
  if constexpr (std::is_same_v<Value, json::string_view>)
    serializer.reset(value);
  else
    serializer.reset(&value);
  while (!serializer.done()) {
    const auto used = out.size();
    out.resize(std::max<std::size_t>(out.capacity(), used + 256));
    const auto written = serializer.read(out.data() + used, out.size() - used);
    out.resize(used + written.size());
  }
}

void append_id(std::string& out, const request_id& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id)) {
    out += std::to_string(*n);
    return;
  }
  append_json(out, json::string_view(std::get<std::string>(id)));
}

// The text of to_json(m), written directly: a reply's result is not copied
// into a new object first (this runs for every message sent).
void append_message(std::string& out, const message& m) {
  out += R"({"jsonrpc":"2.0",)";
  std::visit(
      [&](const auto& msg) {
        using T = std::decay_t<decltype(msg)>;
        if constexpr (std::is_same_v<T, request> || std::is_same_v<T, notification>) {
          if constexpr (std::is_same_v<T, request>) {
            out += R"("id":)";
            append_id(out, msg.id);
            out += ',';
          }
          out += R"("method":)";
          append_json(out, json::string_view(msg.method));
          if (!msg.params.empty()) {
            out += R"(,"params":)";
            append_json(out, msg.params);
          }
        } else if constexpr (std::is_same_v<T, response>) {
          out += R"("id":)";
          append_id(out, msg.id);
          out += R"(,"result":)";
          append_json(out, msg.result);
        } else {
          out += R"("id":)";
          if (msg.id) append_id(out, *msg.id);
          else out += "null";
          out += R"(,"error":)";
          append_json(out, error_object(msg.error));
        }
      },
      m);
  out += '}';
}

}  // namespace

std::string serialize(const message& m) {
  std::string out;
  out.reserve(512);  // most messages fit: written without growing the string
  append_message(out, m);
  return out;
}

std::string serialize_batch(const std::vector<message>& replies) {
  std::string out = "[";
  for (const auto& reply : replies) {
    if (out.size() > 1) out += ',';
    append_message(out, reply);
  }
  out += ']';
  return out;
}

}  // namespace mcp
