#pragma once
// One reply of Redis (RESP2), as a value of our own: copied out of the parser,
// so that nothing of hiredis leaks past the codec.
//
// Error replies are values too (is_error()); they throw error_reply only when
// used as something else, so `co_await c.command({"INCR", k})).as_integer()`
// reports Redis's own message.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail::redis {

class reply {
 public:
  enum class kind { nil, integer, string, status, error, array };

  /// A nil reply.
  reply() = default;
  static reply make_integer(std::int64_t value);
  static reply make_string(std::string value);
  static reply make_status(std::string value);
  static reply make_error(std::string message);
  static reply make_array(std::vector<reply> elements);

  kind type() const noexcept { return kind_; }
  bool is_nil() const noexcept { return kind_ == kind::nil; }
  bool is_integer() const noexcept { return kind_ == kind::integer; }
  bool is_string() const noexcept { return kind_ == kind::string; }
  bool is_status() const noexcept { return kind_ == kind::status; }
  bool is_error() const noexcept { return kind_ == kind::error; }
  bool is_array() const noexcept { return kind_ == kind::array; }

  // Each accessor throws error_reply (with Redis's message) on an error
  // reply, and std::logic_error naming both kinds on any other mismatch.

  std::int64_t as_integer() const;
  /// The text of a bulk string or a status reply ("OK", "PONG").
  const std::string& as_string() const;
  /// A bulk string, or nullopt for nil.
  std::optional<std::string> as_optional_string() const;
  const std::vector<reply>& as_array() const;
  /// The element at `index` of an array; std::out_of_range past its end.
  const reply& at(std::size_t index) const;
  /// The message of an error reply ("WRONGTYPE Operation against a key...");
  /// empty for any other kind.
  std::string_view error_message() const noexcept;
  /// Whether it is an error reply whose code (first word) is `code`.
  bool is_error_code(std::string_view code) const noexcept;
  /// A status reply equal to `text` (is_status_equal("OK")).
  bool is_status_equal(std::string_view text) const noexcept;

  /// A short, readable form for messages and test failures.
  std::string describe() const;

  friend bool operator==(const reply&, const reply&) = default;

 private:
  static reply make_text(kind k, std::string text);  // a string, status or error
  void expect(kind wanted) const;

  kind kind_ = kind::nil;
  std::int64_t integer_ = 0;
  std::string text_;  // string, status or error
  std::vector<reply> elements_;
};

const char* to_string(reply::kind k) noexcept;

}  // namespace mcp::detail::redis
