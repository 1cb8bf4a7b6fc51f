#include "http_client_rules.hpp"
#include "../detail/json_members.hpp"
#include "read_params.hpp"

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/methods.hpp>

#include <boost/json/serialize.hpp>

namespace mcp::detail {
namespace {

// An id named by its JSON text; a text that is not an id names none (null).
std::optional<request_id> id_of(std::string_view text) {
  boost::system::error_code ec;
  const auto value = parse_json(text, ec);
  if (ec) return std::nullopt;
  return parse_request_id(value);
}

// What an HTTP error body may carry, read leniently: a server's refusal can
// be any JSON, and whatever part of a JSON-RPC error it holds is passed on.
struct body_error {
  std::optional<int> code;
  std::optional<std::string> message;
  std::optional<json::value> data;
};
BOOST_DESCRIBE_STRUCT(body_error, (), (code, message, data))

struct error_body {
  std::optional<body_error> error;
};
BOOST_DESCRIBE_STRUCT(error_body, (), (error))

std::optional<body_error> error_in(const json::value& body) {
  auto read = read_if<error_body>(body, read_options{.skip_mistyped_optionals = true});
  return read ? std::move(read->error) : std::nullopt;
}

// What a notification says that an HTTP client acts on.
void read_notification(const json::object& message, http_client::outgoing_facts& facts) {
  const auto* method = message.if_contains("method");
  if (!method || message.contains("id")) return;
  if (*method == methods::notifications_initialized) facts.session_ready = true;
  if (*method != methods::notifications_cancelled) return;
  const auto* params = object_at(message, {"params"});
  if (const auto request = params ? cancelled_request(*params) : std::nullopt)
    facts.cancelled.push_back(to_json_text(*request));
}

}  // namespace

http_client::outgoing_facts inspect_outgoing(std::string_view frame) {
  http_client::outgoing_facts facts;
  boost::system::error_code ec;
  const auto value = parse_json(frame, ec);
  if (ec) return facts;
  auto summary = summarize(value);
  facts.requests = std::move(summary.request_ids);
  facts.opens_session = summary.initialize;
  if (const auto* batch = value.if_array()) {
    for (const auto& item : *batch)
      if (const auto* message = item.if_object()) read_notification(*message, facts);
    return facts;
  }
  const auto* message = value.if_object();
  if (!message) return facts;
  read_notification(*message, facts);
  // Only a single request routes itself: a batch or a notification goes within the session.
  if (!facts.requests.empty()) facts.routing_headers = routing_headers(*message);
  return facts;
}

http_client::received_facts inspect_inbound(std::string_view text) {
  http_client::received_facts facts;
  boost::system::error_code ec;
  auto value = parse_json(text, ec);
  if (ec) return facts;
  facts.valid = true;
  auto look = [&](const json::value& v, bool alone) {
    const auto* obj = v.if_object();
    if (!obj || obj->contains("method")) return;
    const auto* id = obj->if_contains("id");
    if (!id || id->is_null()) {
      if (alone && obj->contains("error")) facts.error_without_id = true;
      return;
    }
    if (auto answered = parse_request_id(*id)) facts.answered.push_back(to_json_text(*answered));
  };
  if (const auto* batch = value.if_array())
    for (const auto& item : *batch) look(item, false);
  else
    look(value, true);
  facts.parsed = std::move(value);
  return facts;
}

std::string error_answer(std::string_view id, std::string message) {
  return serialize(make_error(id_of(id), http_failure_code, std::move(message)));
}

std::string http_status_answer(std::string_view id, std::string_view request, unsigned status,
                               std::string_view reason, std::string_view body, std::string_view session_id) {
  json::object data{{"httpStatus", status}};
  std::string message = std::string(request) + " answered HTTP " + std::to_string(status);
  if (!reason.empty()) message += " " + std::string(reason);
  int code = http_failure_code;
  if (status == 404 && !session_id.empty()) {
    data["sessionExpired"] = true;
    message += ": the session " + std::string(session_id) +
               " has expired or was ended by the server; initialize a new session";
    return serialize(make_error(id_of(id), code, std::move(message), std::move(data)));
  }
  boost::system::error_code ec;
  const auto parsed = parse_json(body, ec);
  if (const auto error = ec ? std::nullopt : error_in(parsed)) {
    code = error->code.value_or(code);
    if (error->message) message += ": " + *error->message;
    if (error->data) data["serverData"] = std::move(*error->data);
  } else if (!body.empty() && body.size() <= 200 && ec) {
    message += ": " + std::string(body);  // a short text body says why
  }
  return serialize(make_error(id_of(id), code, std::move(message), std::move(data)));
}

std::string with_id(std::string_view text, std::string_view id) {
  boost::system::error_code ec;
  auto value = parse_json(text, ec);
  const auto request = id_of(id);
  if (ec || !value.is_object() || !request) return std::string(text);
  value.get_object()["id"] = to_json(*request);
  return json::serialize(value);
}

bool says_session_expired(const rpc_error& error) noexcept {
  const auto* data = error.data.if_object();
  return data && flag_member(*data, "sessionExpired");
}

}  // namespace mcp::detail
