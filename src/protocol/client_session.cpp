#include "client_session.hpp"

#include <mcp/protocol/envelope.hpp>

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

std::optional<protocol_version> version_choice::newest_shared(const json::value* offered) const {
  std::optional<protocol_version> best;
  if (!offered || !offered->is_array()) return best;
  for (const auto& name : offered->get_array()) {
    const auto v = name.is_string() ? parse_protocol_version(name.get_string()) : std::nullopt;
    if (v && is_modern(*v) && std::ranges::find(ours_, *v) != ours_.end() && (!best || *v > *best)) best = v;
  }
  return best;
}

std::optional<initialize_result> version_choice::read_discover_result(const json::object& result) const {
  const auto chosen = newest_shared(result.if_contains("supportedVersions"));
  if (!chosen) return std::nullopt;
  initialize_result found{*chosen, {}, {"unknown", ""}, std::nullopt};
  if (const auto* caps = result.if_contains("capabilities"); caps && caps->is_object())
    found.capabilities = caps->get_object();
  if (const auto* meta = result.if_contains("_meta"); meta && meta->is_object())
    if (const auto* info = meta->get_object().if_contains(meta_key::server_info))
      found.server_info = parse_implementation(*info, "/result/_meta/io.modelcontextprotocol~1serverInfo");
  if (const auto* text = result.if_contains("instructions"); text && text->is_string())
    found.instructions = std::string(text->get_string());
  return found;
}

std::optional<protocol_version> version_choice::offered_instead(const rpc_error& refusal) const {
  if (refusal.code != errc::unsupported_protocol_version) return std::nullopt;
  const auto* data = refusal.data.if_object();
  const auto* supported = data ? data->if_contains("supported") : nullptr;
  if (const auto* server_data = data ? data->if_contains("serverData") : nullptr; !supported && server_data)
    supported = server_data->is_object() ? server_data->get_object().if_contains("supported") : nullptr;
  return newest_shared(supported);
}

std::optional<std::vector<asked_input>> request_rounds::input_asked(const json::object& result) {
  const auto* type = result.if_contains("resultType");
  if (!type || *type != "input_required") return std::nullopt;
  if (++round_ == max_rounds)
    throw protocol_error(errc::internal_error, "the server asked for input " + std::to_string(round_) +
                                                   " times for one " + method_ + "; giving up");
  std::vector<asked_input> asked;
  const auto* requests = result.if_contains("inputRequests");
  if (!requests || !requests->is_object()) return asked;
  for (const auto& [key, value] : requests->get_object()) {
    const auto* input = value.if_object();
    const auto* method = input ? input->if_contains("method") : nullptr;
    if (!method || !method->is_string())
      throw protocol_error(errc::invalid_params, "Malformed inputRequests entry " + std::string(key));
    asked_input one{std::string(key), request{request_id{std::int64_t{0}}, std::string(method->get_string()), {}}};
    if (const auto* params = input->if_contains("params"); params && params->is_object())
      one.req.params = params->get_object();
    asked.push_back(std::move(one));
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
