#include "list_pages.hpp"

#include <mcp/base64.hpp>

#include "../protocol/invalid_params.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>

namespace mcp::detail {

page paginate(std::size_t total, const std::optional<std::string>& cursor, std::size_t page_size) {
  std::size_t begin = 0;
  if (cursor) {
    const auto decoded = base64_decode(*cursor);
    constexpr std::string_view prefix = "offset:";
    if (!decoded || !decoded->starts_with(prefix)) invalid_params("unknown cursor");
    const auto text = std::string_view(*decoded).substr(prefix.size());
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), begin);
    if (ec != std::errc() || end != text.data() + text.size() || begin > total) invalid_params("unknown cursor");
  }
  page p{begin, total, std::nullopt};
  if (page_size > 0 && total - begin > page_size) {
    p.end = begin + page_size;
    p.next_cursor = base64_encode("offset:" + std::to_string(p.end));
  }
  return p;
}

void put_cache_hint(json::object& result, const cache_hint& hint) {
  result["ttlMs"] = std::max<std::int64_t>(0, hint.ttl.count());
  result["cacheScope"] = hint.shared ? "public" : "private";
}

}  // namespace mcp::detail
