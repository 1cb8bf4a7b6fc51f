#include "call_table.hpp"

#include <mcp/protocol/methods.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>

namespace mcp::detail {

namespace {

// The request's frame with `members` written into its params' `_meta` (which
// goes last, after the params' other members) next to the `_meta`'s own.
std::string frame_with_meta(std::int64_t id, std::string method, json::object params, std::string_view members) {
  json::value own;
  if (const auto it = params.find("_meta"); it != params.end()) {
    own = std::move(it->value());
    params.erase(it);
  }
  const bool other_params = !params.empty();
  std::string frame = serialize(request{id, std::move(method), std::move(params)});
  frame.pop_back();  // the message's `}`: `_meta` follows the other params
  if (other_params) {
    frame.back() = ',';  // the params' `}`
  } else {
    frame += R"(,"params":{)";
  }
  frame += R"("_meta":{)";
  frame += members;
  if (const auto* fields = own.if_object(); fields && !fields->empty()) {
    const auto text = json::serialize(*fields);
    frame += ',';
    frame.append(text, 1, text.size() - 2);  // without its braces
  }
  frame += "}}}";
  return frame;
}

}  // namespace

call_table::opened call_table::open(std::string method, json::object params, terms asked, time_point now) {
  const std::int64_t id = next_id_++;
  if (asked.on_progress) {
    auto& meta = params["_meta"];
    if (!meta.is_object()) meta = json::object{};
    meta.get_object()["progressToken"] = id;
  }
  std::string frame = asked.meta_members && !asked.meta_members->empty()
                          ? frame_with_meta(id, std::move(method), std::move(params), *asked.meta_members)
                          : serialize(request{id, std::move(method), std::move(params)});
  const auto hard_deadline = now + asked.max_total;
  const auto deadline = std::min(now + asked.timeout, hard_deadline);
  calls_.try_emplace(id, call{asked.timeout, hard_deadline, deadline, std::move(asked.on_progress), {}});
  return {id, std::move(frame), deadline};
}

std::optional<call_table::extension> call_table::on_progress(const json::object& params, time_point now) {
  const auto* token = params.if_contains("progressToken");
  if (!token || !token->is_int64()) return std::nullopt;
  const auto it = calls_.find(token->get_int64());
  if (it == calls_.end() || !it->second.on_progress) return std::nullopt;
  // Only the waiting call itself removes its entry (finish, expire, cancel,
  // withdraw), and it cannot run inside the handler: `owner` outlives it.
  auto& owner = it->second;
  owner.on_progress(params);
  const auto later = std::min(now + owner.timeout, owner.hard_deadline);
  if (later <= owner.deadline) return std::nullopt;
  owner.deadline = later;
  return extension{it->first, later};
}

std::optional<std::int64_t> call_table::deliver(message reply) {
  const request_id* id = nullptr;
  if (auto* r = std::get_if<response>(&reply)) id = &r->id;
  if (auto* e = std::get_if<error_response>(&reply); e && e->id) id = &*e->id;
  // Our ids are integers: a string id answers nothing we sent.
  const auto* number = id ? std::get_if<std::int64_t>(id) : nullptr;
  if (!number) return std::nullopt;
  const auto it = calls_.find(*number);
  if (it == calls_.end()) return std::nullopt;
  it->second.reply = std::move(reply);
  return it->first;
}

void call_table::close() {
  for (auto& [id, waiting] : calls_) waiting.failed = true;
}

bool call_table::settled(std::int64_t id) const {
  const auto& waiting = calls_.at(id);
  return waiting.reply || waiting.failed;
}

call_table::time_point call_table::deadline(std::int64_t id) const { return calls_.at(id).deadline; }

std::optional<json::object> call_table::finish(std::int64_t id) {
  auto node = calls_.extract(id);
  auto& reply = node.mapped().reply;
  if (!reply) return std::nullopt;
  if (auto* error = std::get_if<error_response>(&*reply)) throw protocol_error(std::move(error->error));
  auto& result = std::get<response>(*reply).result;
  if (!result.is_object())
    throw protocol_error(errc::internal_error, "Malformed response: result is not an object");
  return std::move(result.get_object());
}

std::string call_table::expire(std::int64_t id) { return give_up(id, "Request timed out"); }

std::string call_table::cancel(std::int64_t id) { return give_up(id, "Request cancelled"); }

std::string call_table::give_up(std::int64_t id, std::string_view reason) {
  calls_.erase(id);
  return serialize(notification{methods::notifications_cancelled, {{"requestId", id}, {"reason", reason}}});
}

void call_table::withdraw(std::int64_t id) { calls_.erase(id); }

}  // namespace mcp::detail
