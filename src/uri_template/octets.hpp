#pragma once
// The octets of RFC 3986 and RFC 6570 as URI templates see them: character
// classes, pct-encoded triplets, UTF-8, and prefixes counted in characters.

#include <cstddef>
#include <string>
#include <string_view>

namespace mcp::detail::rfc6570 {

constexpr bool is_alpha(unsigned char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool is_digit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_hex(unsigned char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
constexpr unsigned hex_value(unsigned char c) noexcept {
  return is_digit(c) ? unsigned(c - '0') : unsigned((c | 0x20) - 'a' + 10);
}
constexpr bool is_unreserved(unsigned char c) noexcept {
  return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}
constexpr bool is_reserved(unsigned char c) noexcept {
  return std::string_view(":/?#[]@!$&'()*+,;=").find(char(c)) != std::string_view::npos;
}
inline bool is_triplet(std::string_view s, std::size_t i) noexcept {
  return i + 2 < s.size() && s[i] == '%' && is_hex(s[i + 1]) && is_hex(s[i + 2]);
}
inline unsigned triplet_value(std::string_view s, std::size_t i) noexcept {
  return hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]);
}
constexpr bool is_continuation(unsigned b) noexcept { return b >= 0x80 && b <= 0xBF; }

inline void append_pct(std::string& out, unsigned char b) {
  constexpr char digits[] = "0123456789ABCDEF";
  out += '%';
  out += digits[b >> 4];
  out += digits[b & 15];
}

// Decodes one UTF-8 sequence at s[i]; returns its length, 0 when invalid.
inline std::size_t utf8_decode(std::string_view s, std::size_t i, char32_t& cp) noexcept {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t len = 0;
  char32_t min = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (!is_continuation(b)) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

// RFC 6570 `ucschar / iprivate`: the non-ASCII characters a literal may hold.
constexpr bool is_ucschar_or_iprivate(char32_t cp) noexcept {
  if (cp >= 0xA0 && cp <= 0xD7FF) return true;
  if (cp >= 0xE000 && cp <= 0xFDCF) return true;   // iprivate E000-F8FF, ucschar F900-FDCF
  if (cp >= 0xFDF0 && cp <= 0xFFEF) return true;
  if (cp >= 0x10000 && cp <= 0xDFFFD) return (cp & 0xFFFF) <= 0xFFFD;
  if (cp >= 0xE1000 && cp <= 0xEFFFD) return true;
  if (cp >= 0xF0000 && cp <= 0x10FFFD) return (cp & 0xFFFF) <= 0xFFFD;
  return false;
}

// Keeps the first n characters of `value`. A character starts at every
// octet that is not a UTF-8 continuation; with `triplets`, an existing
// pct-encoded triplet is one octet (the one it encodes).
inline std::string_view prefix_of(std::string_view value, unsigned n, bool triplets) noexcept {
  unsigned seen = 0;
  std::size_t i = 0;
  while (i < value.size()) {
    const bool trip = triplets && is_triplet(value, i);
    const unsigned b = trip ? triplet_value(value, i) : static_cast<unsigned char>(value[i]);
    if (!is_continuation(b) && seen++ == n) break;
    i += trip ? 3 : 1;
  }
  return value.substr(0, i);
}

}  // namespace mcp::detail::rfc6570
