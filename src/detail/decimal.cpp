#include "decimal.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <version>

#if !defined(__cpp_lib_to_chars)
#include <locale>
#include <sstream>
#include <string>
#endif

namespace mcp::detail {

namespace {

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Skips a run of digits; false when there is none.
bool skip_digits(std::string_view& text) {
  std::size_t n = 0;
  while (n < text.size() && digit(text[n])) ++n;
  text.remove_prefix(n);
  return n > 0;
}

}  // namespace

bool is_decimal(std::string_view text) {
  if (text.starts_with('-')) text.remove_prefix(1);
  bool digits = skip_digits(text);
  if (text.starts_with('.')) {
    text.remove_prefix(1);
    digits = skip_digits(text) || digits;
  }
  if (!digits) return false;
  if (text.starts_with('e') || text.starts_with('E')) {
    text.remove_prefix(1);
    if (text.starts_with('+') || text.starts_with('-')) text.remove_prefix(1);
    if (!skip_digits(text)) return false;
  }
  return text.empty();
}

namespace {

std::optional<double> convert(std::string_view text) {
  double number = 0;
#if defined(__cpp_lib_to_chars)
  const auto [end, failure] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (failure != std::errc() || end != text.data() + text.size()) return std::nullopt;
#else
  // The classic locale's num_get reads with strtod_l in the C locale
  // (correctly rounded); a value out of range sets failbit.
  std::istringstream in{std::string(text)};
  in.imbue(std::locale::classic());
  in >> number;
  if (in.fail() || in.peek() != std::char_traits<char>::eof()) return std::nullopt;
#endif
  if (!std::isfinite(number)) return std::nullopt;
  return number;
}

}  // namespace

std::optional<double> read_decimal(std::string_view text) {
  if (!is_decimal(text)) return std::nullopt;
  return convert(text);
}

}  // namespace mcp::detail
