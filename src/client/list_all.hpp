#pragma once
// Every item of a paginated list method, its pages followed by their
// cursors: the lists of the spec (calls.cpp) and of the skills extension
// (skills.cpp). A page is the list under `key` and `nextCursor`: read here,
// each item by the reader of its declared type (wire_readers.hpp), which
// also applies what the declared form cannot say (a missing name, a tool's
// execution.taskSupport).

#include <mcp/client/client.hpp>
#include <mcp/protocol/errors.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace mcp::detail {

/// The most pages one list is followed through.
inline constexpr std::size_t max_list_pages = 10'000;

/// Every item under `key` of `method`'s pages, asked with `params` and each
/// page's cursor, read with `read`. @throws malformed_result for a page
/// without the list, a cursor handed out twice, or too many pages.
template <class Read>
asio::awaitable<std::vector<std::invoke_result_t<Read, const json::value&>>> list_all(
    client& c, std::string method, std::string key, Read read, json::object params = {}) {
  std::vector<std::invoke_result_t<Read, const json::value&>> items;
  std::optional<std::string> cursor;
  std::set<std::string> seen;  // a server that hands out a cursor twice would loop forever
  for (std::size_t page = 0; page < max_list_pages; ++page) {
    auto asked = params;
    if (cursor) asked["cursor"] = *cursor;
    const auto result = co_await c.request(method, std::move(asked));
    const auto* list = result.if_contains(key);
    if (!list || !list->is_array())
      throw malformed_result("the server's " + method + " result has no `" + key + "` array", method);
    for (const auto& item : list->get_array()) items.push_back(read(item));
    const auto* next = result.if_contains("nextCursor");
    if (!next || !next->is_string() || next->get_string().empty()) co_return items;
    cursor = std::string(next->get_string());
    if (!seen.insert(*cursor).second)
      throw malformed_result("the server's " + method + " repeats cursor " + *cursor, method);
  }
  throw malformed_result("the server's " + method + " never ends (" + std::to_string(max_list_pages) + " pages)",
                         method);
}

}  // namespace mcp::detail
