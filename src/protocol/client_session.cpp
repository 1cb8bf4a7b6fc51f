#include "client_session.hpp"

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/wire.hpp>

#include "../detail/json_members.hpp"
#include "modern_era.hpp"
#include "read_params.hpp"

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
  auto given = read_if<discover_result>(result, read_options{.skip_mistyped_optionals = true});
  if (!given) return std::nullopt;  // not a DiscoverResult: the client falls back to initialize
  const auto chosen = newest_shared(given->supported_versions);
  if (!chosen) return std::nullopt;
  initialize_result found{*chosen, std::move(given->capabilities), {"unknown", ""}, std::move(given->instructions)};
  // (The result's `_meta` is the envelope's, open to any key: read where it is.)
  if (const auto* meta = object_at(result, {"_meta"}))
    if (const auto* info = meta->if_contains(meta_key::server_info))
      found.server_info = parse_implementation(*info, "/result/_meta/io.modelcontextprotocol~1serverInfo");
  return found;
}

namespace {

// A -32022's data as the HTTP client hands it on: the server's inside `serverData`.
struct relayed_error_data {
  std::optional<unsupported_version_data> server_data;
};
BOOST_DESCRIBE_STRUCT(relayed_error_data, (), (server_data))
[[maybe_unused]] auto mcp_fields(type_t<relayed_error_data>) {
  return std::tuple{field(&relayed_error_data::server_data).key("serverData")};
}

// (Not a list of names: nothing we could speak.)
std::optional<unsupported_version_data> version_data_in(const json::value& data) {
  if (auto direct = read_if<unsupported_version_data>(data)) return direct;
  if (auto relayed = read_if<relayed_error_data>(data)) return std::move(relayed->server_data);
  return std::nullopt;
}

}  // namespace

std::optional<protocol_version> version_choice::offered_instead(const rpc_error& refusal) const {
  if (refusal.code != errc::unsupported_protocol_version) return std::nullopt;
  const auto offered = version_data_in(refusal.data);
  if (!offered) return std::nullopt;
  return newest_shared(offered->supported);
}

std::optional<asked_round> request_rounds::input_asked(const json::object& result) {
  if (result_type_of(result) != "input_required") return std::nullopt;
  if (++round_ == max_rounds)
    throw protocol_error(errc::internal_error, "the server asked for input " + std::to_string(round_) +
                                                   " times for one " + method_ + "; giving up");
  auto members = read_input_required(result);
  asked_round asked{{}, std::move(members.request_state)};
  if (!members.input_requests) return asked;
  for (auto& [key, value] : *members.input_requests) {
    input_request input;
    try {
      input = from_json<input_request>(value, read_options{.skip_mistyped_optionals = true});
    } catch (const conversion_error&) {
      throw protocol_error(errc::invalid_params, "Malformed inputRequests entry " + std::string(key));
    }
    request asking{request_id{std::int64_t{0}}, std::move(input.method), std::move(input.params)};
    asked.requests.push_back({std::string(key), std::move(asking)});
  }
  return asked;
}

void request_rounds::next_round(json::object& params, json::object answers,
                                std::optional<std::string> request_state) {
  params.erase("inputResponses");
  params.erase("requestState");
  if (!answers.empty()) params["inputResponses"] = std::move(answers);
  if (request_state) params["requestState"] = std::move(*request_state);
}

}  // namespace mcp::detail
