#include "client_session.hpp"

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/wire.hpp>

#include <algorithm>

namespace mcp::detail {

namespace {

std::optional<protocol_version> newest_of_era(std::span<const protocol_version> versions, protocol_era era) noexcept {
  std::optional<protocol_version> newest;
  for (const auto v : versions)
    if (dialect_of(v).era == era && (!newest || v > *newest)) newest = v;
  return newest;
}

}  // namespace

std::optional<protocol_version> version_choice::newest_modern() const noexcept {
  return newest_of_era(ours_, protocol_era::modern);
}

std::optional<protocol_version> version_choice::newest_legacy() const noexcept {
  return newest_of_era(ours_, protocol_era::legacy);
}

std::optional<protocol_version> version_choice::newest_shared(const std::vector<std::string>& offered) const {
  std::optional<protocol_version> best;
  for (const auto& name : offered) {
    const auto v = parse_protocol_version(name);
    if (v && is_modern(*v) && std::ranges::find(ours_, *v) != ours_.end() && (!best || *v > *best)) best = v;
  }
  return best;
}

std::optional<initialize_result> version_choice::read_discover_result(const json::object& result) const {
  std::optional<discover_result> given;
  try {
    given = from_json<discover_result>(result, read_options{.skip_mistyped_optionals = true});
  } catch (const conversion_error&) {
    return std::nullopt;  // not a DiscoverResult: the client falls back to initialize
  }
  const auto chosen = newest_shared(given->supported_versions);
  if (!chosen) return std::nullopt;
  initialize_result found{*chosen, std::move(given->capabilities), {"unknown", ""}, std::move(given->instructions)};
  // (The result's `_meta` is the envelope's, open to any key: read where it is.)
  if (const auto* meta = result.if_contains("_meta"); meta && meta->is_object())
    if (const auto* info = meta->get_object().if_contains(meta_key::server_info))
      found.server_info = parse_implementation(*info, "/result/_meta/io.modelcontextprotocol~1serverInfo");
  return found;
}

std::optional<protocol_version> version_choice::offered_instead(const rpc_error& refusal) const {
  if (refusal.code != errc::unsupported_protocol_version) return std::nullopt;
  // The error's data (`supported`; over HTTP `serverData.supported`) is open:
  // what is not a string is not a version we could speak.
  const auto* data = refusal.data.if_object();
  const auto* supported = data ? data->if_contains("supported") : nullptr;
  if (const auto* server_data = data ? data->if_contains("serverData") : nullptr; !supported && server_data)
    supported = server_data->is_object() ? server_data->get_object().if_contains("supported") : nullptr;
  std::vector<std::string> names;
  if (supported && supported->is_array())
    for (const auto& name : supported->get_array())
      if (name.is_string()) names.emplace_back(name.get_string());
  return newest_shared(names);
}

std::optional<std::vector<asked_input>> request_rounds::input_asked(const json::object& result) {
  const auto* type = result.if_contains("resultType");
  if (!type || *type != "input_required") return std::nullopt;
  if (++round_ == max_rounds)
    throw protocol_error(errc::internal_error, "the server asked for input " + std::to_string(round_) +
                                                   " times for one " + method_ + "; giving up");
  std::vector<asked_input> asked;
  const auto* requests = result.if_contains("inputRequests");  // (the envelope's member, beside resultType)
  if (!requests || !requests->is_object()) return asked;
  for (const auto& [key, value] : requests->get_object()) {
    input_request input;
    try {
      input = from_json<input_request>(value, read_options{.skip_mistyped_optionals = true});
    } catch (const conversion_error&) {
      throw protocol_error(errc::invalid_params, "Malformed inputRequests entry " + std::string(key));
    }
    request asking{request_id{std::int64_t{0}}, std::move(input.method), std::move(input.params)};
    asked.push_back({std::string(key), std::move(asking)});
  }
  return asked;
}

void request_rounds::next_round(json::object& params, json::object answers, const json::object& result) {
  params.erase("inputResponses");
  params.erase("requestState");
  if (!answers.empty()) params["inputResponses"] = std::move(answers);
  if (const auto* state = result.if_contains("requestState")) params["requestState"] = *state;
}

}  // namespace mcp::detail
