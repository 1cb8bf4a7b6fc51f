#include "finite_json.hpp"

#include "../detail/decimal.hpp"

#include <mcp/error.hpp>

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/error.hpp>
#include <boost/json/value_stack.hpp>

#include <boost/system/system_error.hpp>

#include <cmath>

namespace mcp::detail {

namespace {

namespace json = boost::json;
using boost::system::error_code;

// Far deeper than any message read (jsonrpc.cpp's 128) plus its record.
constexpr std::size_t max_stored_depth = 256;

// What json::parser's own handler does, but for on_double.
struct finite_value_handler {
  static constexpr std::size_t max_object_size = json::object::max_size();
  static constexpr std::size_t max_array_size = json::array::max_size();
  static constexpr std::size_t max_key_size = json::string::max_size();
  static constexpr std::size_t max_string_size = json::string::max_size();

  json::value_stack stack;

  explicit finite_value_handler(json::storage_ptr temporary, unsigned char* buffer, std::size_t size)
      : stack(std::move(temporary), buffer, size) {}

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_object_begin(error_code&) { return true; }
  bool on_object_end(std::size_t n, error_code&) { return stack.push_object(n), true; }
  bool on_array_begin(error_code&) { return true; }
  bool on_array_end(std::size_t n, error_code&) { return stack.push_array(n), true; }
  bool on_key_part(json::string_view s, std::size_t, error_code&) { return stack.push_chars(s), true; }
  bool on_key(json::string_view s, std::size_t, error_code&) { return stack.push_key(s), true; }
  bool on_string_part(json::string_view s, std::size_t, error_code&) { return stack.push_chars(s), true; }
  bool on_string(json::string_view s, std::size_t, error_code&) { return stack.push_string(s), true; }
  bool on_number_part(json::string_view, error_code&) { return true; }
  bool on_int64(std::int64_t i, json::string_view, error_code&) { return stack.push_int64(i), true; }
  bool on_uint64(std::uint64_t u, json::string_view, error_code&) { return stack.push_uint64(u), true; }
  bool on_double(double d, json::string_view text, error_code& ec) {
    if (!std::isfinite(d)) {
      ec = json::error::exponent_overflow;
      return false;
    }
    // `text` is the whole number: parse_finite_json gives the parser the
    // whole text at once, so no number comes in parts. Out of range is an
    // underflow here, where Boost.JSON's value (0 or a subnormal) stands.
    stack.push_double(read_decimal(text).value_or(d));
    return true;
  }
  bool on_bool(bool b, error_code&) { return stack.push_bool(b), true; }
  bool on_null(error_code&) { return stack.push_null(), true; }
  bool on_comment_part(json::string_view, error_code&) { return true; }
  bool on_comment(json::string_view, error_code&) { return true; }
};

}  // namespace

json::value parse_finite_json(std::string_view text, error_code& ec, json::storage_ptr storage,
                              const json::parse_options& options) {
  unsigned char temporary[BOOST_JSON_STACK_BUFFER_SIZE];
  json::basic_parser<finite_value_handler> parser(options, json::storage_ptr(), temporary, sizeof temporary);
  parser.handler().stack.reset(std::move(storage));
  const auto used = parser.write_some(false, text.data(), text.size(), ec);
  if (!ec && used < text.size()) ec = json::error::extra_data;
  if (!ec && !parser.done()) ec = json::error::incomplete;
  if (ec) return nullptr;
  return parser.handler().stack.release();
}

json::value parse_stored_json(std::string_view text, error_code& ec) {
  json::parse_options options;
  options.max_depth = max_stored_depth;
  return parse_finite_json(text, ec, {}, options);
}

json::value parse_stored_json(std::string_view text) {
  error_code ec;
  auto value = parse_stored_json(text, ec);
  if (ec) throw mcp::error(ec);
  return value;
}

}  // namespace mcp::detail
