#pragma once
// JSON pointers (RFC 6901) as they appear in the fragment of a $ref: split
// into reference tokens, percent-decoded (RFC 3986) and unescaped, then
// followed through a document.

#include <boost/json/value.hpp>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

inline std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    const int high = hex_value(text[i + 1]);
    const int low = hex_value(text[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

/// "~0" is '~' and "~1" is '/'; any other '~' is malformed.
inline std::optional<std::string> unescape_token(std::string_view token) {
  std::string out;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] != '~') {
      out += token[i];
      continue;
    }
    if (i + 1 >= token.size() || (token[i + 1] != '0' && token[i + 1] != '1')) return std::nullopt;
    out += token[++i] == '0' ? '~' : '/';
  }
  return out;
}

/// The reference tokens of a URI fragment ("" is the whole document,
/// "/a~1b/0" is ["a/b", "0"]), or nullopt when it is not a JSON pointer.
inline std::optional<std::vector<std::string>> pointer_tokens(std::string_view fragment) {
  const auto pointer = percent_decode(fragment);
  if (!pointer || (!pointer->empty() && pointer->front() != '/')) return std::nullopt;
  std::vector<std::string> tokens;
  for (std::size_t start = 1; start <= pointer->size();) {
    const auto end = std::min(pointer->find('/', start), pointer->size());
    auto token = unescape_token(std::string_view(*pointer).substr(start, end - start));
    if (!token) return std::nullopt;
    tokens.push_back(std::move(*token));
    start = end + 1;
  }
  return tokens;
}

/// The element of `array` a token names ("0", "12"; no sign, no leading zero), or null.
inline const boost::json::value* array_element(const boost::json::array& array,
                                               std::string_view token) {
  const auto is_digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  const bool canonical = !token.empty() && token.size() <= 9 &&
                         (token == "0" || token.front() != '0') &&
                         std::all_of(token.begin(), token.end(), is_digit);
  if (!canonical) return nullptr;
  const auto index = std::stoul(std::string(token));
  return index < array.size() ? &array[index] : nullptr;
}

/// The value `tokens` lead to from `document`, or null when there is none.
inline const boost::json::value* follow_pointer(const boost::json::value& document,
                                                const std::vector<std::string>& tokens) {
  const boost::json::value* at = &document;
  for (const auto& token : tokens) {
    if (const auto* object = at->if_object())
      at = object->if_contains(token);
    else if (const auto* array = at->if_array())
      at = array_element(*array, token);
    else
      at = nullptr;
    if (at == nullptr) return nullptr;
  }
  return at;
}

}  // namespace mcp::detail
