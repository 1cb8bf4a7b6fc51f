#pragma once
// JSON Schema's regular expressions (ECMA-262 dialect) on Boost.Regex.
//
// Not std::regex: libstdc++'s std::regex recurses once per input character
// and overflows the stack on a string of about 100 KB even for "^[a-z]+$", a
// crash any client could trigger with one tool argument. Boost.Regex matches
// without recursion and gives up on pathological patterns with an exception.
//
// Matching runs on code points (wregex over UTF-32), so "." is one character
// whatever its UTF-8 length. Where wchar_t has 16 bits (Windows) it runs on
// UTF-16 code units instead, as ECMA-262 itself does without the `u` flag: a
// character beyond U+FFFF is two there (docs/platforms.md). As in ECMA-262, ^ and $ anchor the whole string
// (not each line), "." does not match a line break, and \uXXXX and \u{X...}
// escapes name code points.

#include <boost/regex.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp::detail {

struct compiled_regex {
  std::string source;   ///< as written, for messages
  boost::wregex regex;  ///< matched against code points
};

/// Appends `code` as one wchar_t, or as a UTF-16 surrogate pair where
/// wchar_t has 16 bits and the code point needs two.
inline void append_code_point(std::wstring& out, char32_t code) {
  if constexpr (sizeof(wchar_t) == 2) {
    if (code > 0xFFFF) {
      code -= 0x10000;
      out += static_cast<wchar_t>(0xD800 + (code >> 10));
      out += static_cast<wchar_t>(0xDC00 + (code & 0x3FF));
      return;
    }
  }
  out += static_cast<wchar_t>(code);
}

/// UTF-8 decoded to one wchar_t per code point (two for one beyond U+FFFF
/// where wchar_t has 16 bits). A byte that does not start a well-formed
/// sequence becomes U+FFFD.
inline std::wstring to_code_points(std::string_view text) {
  std::wstring out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    char32_t code = 0;
    if (lead < 0x80) {
      length = 1;
      code = lead;
    } else if ((lead & 0xE0) == 0xC0) {
      length = 2;
      code = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
      length = 3;
      code = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
      length = 4;
      code = lead & 0x07;
    }
    bool well_formed = length != 0 && i + length <= text.size();
    for (std::size_t k = 1; well_formed && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      well_formed = (next & 0xC0) == 0x80;
      code = (code << 6) | (next & 0x3F);
    }
    append_code_point(out, well_formed ? code : U'\uFFFD');
    i += well_formed ? length : 1;
  }
  return out;
}

inline int hex_digit(wchar_t c) {
  if (c >= L'0' && c <= L'9') return c - L'0';
  if (c >= L'a' && c <= L'f') return c - L'a' + 10;
  if (c >= L'A' && c <= L'F') return c - L'A' + 10;
  return -1;
}

/// Reads the hex digits of \uXXXX or \u{X...} from `i` (just after the 'u').
/// Returns the code point and moves `i` past them, or returns -1.
inline long read_unicode_escape(std::wstring_view p, std::size_t& i) {
  const bool braced = i < p.size() && p[i] == L'{';
  std::size_t j = braced ? i + 1 : i;
  long code = 0;
  std::size_t digits = 0;
  while (j < p.size() && hex_digit(p[j]) >= 0 && (braced || digits < 4) && code <= 0x10FFFF) {
    code = code * 16 + hex_digit(p[j++]);
    ++digits;
  }
  if (braced ? (digits == 0 || j >= p.size() || p[j] != L'}') : digits != 4) return -1;
  if (code > 0x10FFFF) return -1;
  i = braced ? j + 1 : j;
  return code;
}

/// ECMAScript spells a code point \uXXXX (two of them for a surrogate pair)
/// or \u{X...}; Boost.Regex spells it \x{X...}.
inline std::wstring translate_unicode_escapes(std::wstring_view p) {
  std::wstring out;
  for (std::size_t i = 0; i < p.size();) {
    if (p[i] != L'\\' || i + 1 >= p.size()) {
      out += p[i++];
      continue;
    }
    std::size_t after = i + 2;
    long code = p[i + 1] == L'u' ? read_unicode_escape(p, after) : -1;
    if (code < 0) {  // another escape: copy it whole so that "\\u" stays a backslash and a u
      out.append(p.substr(i, 2));
      i += 2;
      continue;
    }
    if (code >= 0xD800 && code <= 0xDBFF && after + 1 < p.size() && p[after] == L'\\' &&
        p[after + 1] == L'u') {
      std::size_t low_end = after + 2;
      const long low = read_unicode_escape(p, low_end);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        after = low_end;
      }
    }
    std::wstring units;
    append_code_point(units, static_cast<char32_t>(code));
    for (const wchar_t unit : units) {
      std::wstring hex;
      for (unsigned long rest = static_cast<unsigned long>(unit); rest > 0 || hex.empty(); rest /= 16)
        hex.insert(hex.begin(), L"0123456789ABCDEF"[rest % 16]);
      out += L"\\x{" + hex + L"}";
    }
    i = after;
  }
  return out;
}

/// @throws boost::regex_error when `source` is not a valid regular expression.
inline compiled_regex compile_ecmascript_regex(std::string_view source) {
  constexpr auto flags =
      boost::regex::ECMAScript | boost::regex::no_mod_m | boost::regex::no_mod_s;
  return {std::string(source),
          boost::wregex(translate_unicode_escapes(to_code_points(source)), flags)};
}

enum class search_result { found, not_found, too_complex };

/// Whether `pattern` matches anywhere in `text` (JSON Schema's semantics).
inline search_result search(const compiled_regex& pattern, std::string_view text) {
  try {
    return boost::regex_search(to_code_points(text), pattern.regex) ? search_result::found
                                                                    : search_result::not_found;
  } catch (const std::runtime_error&) {  // Boost.Regex's complexity and memory limits
    return search_result::too_complex;
  }
}

}  // namespace mcp::detail
