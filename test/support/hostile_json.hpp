#pragma once
// JSON texts a hostile client sends, made as text (a JSON library would
// refuse to build some of them): for the tests of a server's limits.

#include <string>
#include <string_view>

namespace mcp::test {

/// `open` `depth` times, then `inner`, then `close` `depth` times:
/// nested("[", "", "]", 3) is "[[[]]]".
inline std::string nested(std::string_view open, std::string_view inner, std::string_view close, int depth) {
  std::string text;
  text.reserve((open.size() + close.size()) * static_cast<std::size_t>(depth) + inner.size());
  for (int i = 0; i < depth; ++i) text += open;
  text += inner;
  for (int i = 0; i < depth; ++i) text += close;
  return text;
}

/// An array of `count` copies of `element` (a JSON text): array_of(3, "0") is "[0,0,0]".
inline std::string array_of(int count, std::string_view element) {
  std::string text = "[";
  text.reserve(static_cast<std::size_t>(count) * (element.size() + 1) + 2);
  for (int i = 0; i < count; ++i) {
    if (i) text += ',';
    text += element;
  }
  text += ']';
  return text;
}

}  // namespace mcp::test
