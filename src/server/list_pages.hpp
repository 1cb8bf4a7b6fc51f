#pragma once
// What every paginated list of the server shares (tools, resources,
// templates, prompts, skills, directory entries): the cursor, an opaque
// base64 of "offset:N", and the caching hint a 2026-07-28 page carries.

#include <mcp/protocol/types.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace mcp::detail {

/// The items [begin, end) of one page, and the cursor of the next.
struct page {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::optional<std::string> next_cursor;
};

/// The page `cursor` asks for (none: the first) among `total` items,
/// `page_size` at a time (0: all). Throws protocol_error(-32602) for a
/// cursor we did not make.
page paginate(std::size_t total, const std::optional<std::string>& cursor, std::size_t page_size);

/// `ttlMs` and `cacheScope` of a 2026-07-28 result.
void put_cache_hint(json::object& result, const cache_hint& hint);

}  // namespace mcp::detail
