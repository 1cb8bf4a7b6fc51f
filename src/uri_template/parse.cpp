// Parsing a URI template (RFC 6570 section 2) into literals and expressions,
// with the column of the first error.

#include "program.hpp"

#include <mcp/error.hpp>

#include <stdexcept>

namespace mcp {

using namespace detail::rfc6570;

namespace {

[[noreturn]] void fail_at(std::string_view text, std::size_t index, const std::string& what) {
  throw mcp::invalid_argument("uri_template: column " + std::to_string(index + 1) + ": " + what +
                              " in \"" + std::string(text) + "\"");
}

std::string show(char c) {
  const auto b = static_cast<unsigned char>(c);
  if (b < 0x20 || b >= 0x7F) {
    std::string s = "octet 0x";
    constexpr char digits[] = "0123456789ABCDEF";
    s += digits[b >> 4];
    s += digits[b & 15];
    return s;
  }
  return std::string("'") + c + "'";
}

literal make_literal(std::string encoded) {
  literal l;
  for (std::size_t i = 0; i < encoded.size();) {
    if (is_triplet(encoded, i)) {
      l.units.push_back(normalise(triplet_value(encoded, i), true));
      i += 3;
    } else {
      l.units.push_back(normalise(static_cast<unsigned char>(encoded[i]), false));
      ++i;
    }
  }
  l.encoded = std::move(encoded);
  return l;
}

}  // namespace

void uri_template::impl::parse() {
  const std::string_view t = text;
  std::string lit;
  std::size_t occurrences = 0;
  auto flush = [&] {
    if (!lit.empty()) parts.emplace_back(make_literal(std::move(lit)));
    lit.clear();
  };

  std::size_t i = 0;
  while (i < t.size()) {
    const auto c = static_cast<unsigned char>(t[i]);
    if (c == '{') {
      const std::size_t open = i;
      const std::size_t close = t.find('}', open + 1);
      if (close == std::string_view::npos)
        fail_at(t, open, "unclosed expression: '{' has no matching '}'");
      flush();
      literal_only = false;
      expression e;
      std::size_t p = open + 1;
      if (p == close) fail_at(t, open, "empty expression '{}'");
      const char opc = t[p];
      if (const op_info* op = find_op(opc)) {
        e.op = op;
        ++p;
      } else if (std::string_view("=,!@|").find(opc) != std::string_view::npos) {
        fail_at(t, p, std::string("operator '") + opc + "' is reserved by RFC 6570 and not supported");
      } else if (!(is_alpha(opc) || is_digit(opc) || opc == '_' || opc == '%')) {
        fail_at(t, p, "invalid operator " + show(opc) + " (expected one of + # . / ; ? & or a variable name)");
      } else {
        e.op = &op_simple;
      }
      // variable-list = varspec *( "," varspec )
      for (;;) {
        const std::size_t name_start = p;
        bool need_char = true;  // at start or after '.'
        while (p < close) {
          const char ch = t[p];
          if (is_alpha(ch) || is_digit(ch) || ch == '_') {
            ++p;
            need_char = false;
          } else if (ch == '%') {
            if (!is_triplet(t.substr(0, close), p))
              fail_at(t, p, "invalid percent-encoding in variable name");
            p += 3;
            need_char = false;
          } else if (ch == '.') {
            if (p == name_start) fail_at(t, p, "variable name cannot start with '.'");
            if (need_char) fail_at(t, p, "variable name cannot contain '..'");
            ++p;
            need_char = true;
          } else {
            break;
          }
        }
        if (p == name_start) {
          if (p < close && t[p] != ',')
            fail_at(t, p, "invalid character " + show(t[p]) + " in variable name");
          fail_at(t, p, "empty variable name");
        }
        if (need_char) fail_at(t, p - 1, "variable name cannot end with '.'");
        varspec v;
        v.name = std::string(t.substr(name_start, p - name_start));
        if (p < close && t[p] == ':') {
          const std::size_t digits = ++p;
          while (p < close && is_digit(t[p])) ++p;
          if (p == digits) fail_at(t, digits, "prefix modifier ':' needs a length");
          if (t[digits] == '0' || p - digits > 4)
            fail_at(t, digits, "prefix length must be between 1 and 9999");
          for (std::size_t k = digits; k < p; ++k) v.prefix = v.prefix * 10 + unsigned(t[k] - '0');
        } else if (p < close && t[p] == '*') {
          fail_at(t, p,
                  "explode modifier '*' is not supported (variable values are strings, not lists or "
                  "associative arrays)");
        }
        if (p < close && t[p] != ',') {
          if (t[p] == '{') fail_at(t, p, "nested '{' inside an expression");
          if (v.prefix) fail_at(t, p, "unexpected character " + show(t[p]) + " after the prefix length");
          fail_at(t, p, "invalid character " + show(t[p]) + " in variable name");
        }
        if (++occurrences > max_variables)
          fail_at(t, name_start, "too many variables (at most " + std::to_string(max_variables) + ")");
        const auto known = std::find(variables.begin(), variables.end(), v.name);
        v.var = std::size_t(known - variables.begin());
        if (known == variables.end()) variables.push_back(v.name);
        v.slot = slots.size();
        slots.push_back({v.var, v.prefix});
        e.vars.push_back(std::move(v));
        if (p == close) break;
        ++p;  // ','
        if (p == close) fail_at(t, p, "empty variable name");
      }
      parts.emplace_back(std::move(e));
      i = close + 1;
      continue;
    }
    if (c == '}') fail_at(t, i, "unmatched '}'");
    if (c == '%') {
      if (!is_triplet(t, i)) fail_at(t, i, "'%' must start a percent-encoded octet (%XX)");
      lit.append(t.substr(i, 3));
      i += 3;
      continue;
    }
    if (c < 0x80) {
      // literals = %x21 / %x23-24 / %x26 / %x28-3B / %x3D / %x3F-5B / %x5D / %x5F / %x61-7A / %x7E
      if (c <= 0x20 || c == 0x7F || std::string_view("\"'<>\\^`|").find(char(c)) != std::string_view::npos)
        fail_at(t, i, "character " + show(char(c)) + " is not allowed in a URI template");
      lit += char(c);
      ++i;
      continue;
    }
    char32_t cp = 0;
    const std::size_t len = utf8_decode(t, i, cp);
    if (len == 0) fail_at(t, i, "invalid UTF-8");
    if (!is_ucschar_or_iprivate(cp)) fail_at(t, i, "character not allowed in a URI template");
    for (std::size_t k = 0; k < len; ++k) append_pct(lit, static_cast<unsigned char>(t[i + k]));
    i += len;
  }
  flush();
}

}  // namespace mcp
