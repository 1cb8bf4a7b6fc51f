#pragma once
// Reading an endpoint's answer as one of the documents of wire.hpp.

#include <mcp/json/convert.hpp>

#include <boost/json/parse.hpp>

#include <optional>
#include <string_view>

namespace mcp::detail::oauth {

/// `text` as a T when it is a JSON object of that shape; std::nullopt otherwise.
template <class T>
std::optional<T> read_json_as(std::string_view text) {
  boost::system::error_code ec;
  const auto value = boost::json::parse(text, ec);
  if (ec || !value.is_object()) return std::nullopt;
  try {
    return from_json<T>(value);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace mcp::detail::oauth
