#include <mcp/protocol/versions.hpp>

#include <algorithm>
#include <array>

namespace mcp {

namespace {

using v = protocol_version;
constexpr auto legacy_era = protocol_era::legacy;
constexpr auto modern_era = protocol_era::modern;

// clang-format off
//                                                  batch  prog   audio  annot  compl  struct title  elicit header icons  urlEl  tasks  ext
constexpr std::array<dialect, 5> dialects{{
  {v::v2024_11_05, "2024-11-05", legacy_era,        false, false, false, false, false, false, false, false, false, false, false, false, false},
  {v::v2025_03_26, "2025-03-26", legacy_era,        true,  true,  true,  true,  true,  false, false, false, false, false, false, false, false},
  {v::v2025_06_18, "2025-06-18", legacy_era,        false, true,  true,  true,  true,  true,  true,  true,  true,  false, false, false, false},
  {v::v2025_11_25, "2025-11-25", legacy_era,        false, true,  true,  true,  true,  true,  true,  true,  true,  true,  true,  true,  false},
  {v::v2026_07_28, "2026-07-28", modern_era,        false, true,  true,  true,  true,  true,  true,  true,  true,  true,  true,  false, true},
}};
// clang-format on

constexpr std::array<protocol_version, 5> all_list{v::v2024_11_05, v::v2025_03_26, v::v2025_06_18,
                                                   v::v2025_11_25, v::v2026_07_28};

}  // namespace

std::span<const dialect> all_dialects() noexcept { return dialects; }

const dialect& dialect_of(protocol_version version) noexcept {
  return dialects[static_cast<std::size_t>(version)];
}

bool is_modern(protocol_version v) noexcept { return dialect_of(v).era == protocol_era::modern; }

std::string_view to_string(protocol_version version) noexcept { return dialect_of(version).name; }

std::optional<protocol_version> parse_protocol_version(std::string_view text) noexcept {
  for (const auto& d : dialects)
    if (d.name == text) return d.version;
  return std::nullopt;
}

std::span<const protocol_version> all_versions() noexcept { return all_list; }

std::span<const protocol_version> legacy_versions() noexcept {
  return std::span(all_list).first(4);  // all but the modern era
}

protocol_version negotiate_version(std::string_view requested,
                                   std::span<const protocol_version> supported) noexcept {
  auto is_legacy = [](protocol_version x) { return dialect_of(x).era == protocol_era::legacy; };
  if (auto wanted = parse_protocol_version(requested);
      wanted && is_legacy(*wanted) && std::ranges::find(supported, *wanted) != supported.end())
    return *wanted;
  auto best = latest_legacy_version;
  bool found = false;
  for (auto candidate : supported) {
    if (!is_legacy(candidate)) continue;
    if (!found || candidate > best) best = candidate;
    found = true;
  }
  return best;
}

}  // namespace mcp
