#include "reply.hpp"

#include "errors.hpp"

#include <stdexcept>

namespace mcp::detail::redis {

const char* to_string(reply::kind k) noexcept {
  switch (k) {
    case reply::kind::nil: return "nil";
    case reply::kind::integer: return "integer";
    case reply::kind::string: return "string";
    case reply::kind::status: return "status";
    case reply::kind::error: return "error";
    case reply::kind::array: return "array";
  }
  return "?";
}

reply reply::make_integer(std::int64_t value) {
  reply r;
  r.kind_ = kind::integer;
  r.integer_ = value;
  return r;
}

reply reply::make_text(kind k, std::string text) {
  reply r;
  r.kind_ = k;
  r.text_ = std::move(text);
  return r;
}

reply reply::make_string(std::string value) { return make_text(kind::string, std::move(value)); }

reply reply::make_status(std::string value) { return make_text(kind::status, std::move(value)); }

reply reply::make_error(std::string message) { return make_text(kind::error, std::move(message)); }

reply reply::make_array(std::vector<reply> elements) {
  reply r;
  r.kind_ = kind::array;
  r.elements_ = std::move(elements);
  return r;
}

void reply::expect(kind wanted) const {
  if (kind_ == wanted) return;
  if (kind_ == kind::error) throw error_reply(text_);
  throw std::logic_error(std::string("redis reply: expected ") + to_string(wanted) + ", got " + describe());
}

std::int64_t reply::as_integer() const {
  expect(kind::integer);
  return integer_;
}

const std::string& reply::as_string() const {
  if (kind_ != kind::status) expect(kind::string);
  return text_;
}

std::optional<std::string> reply::as_optional_string() const {
  if (kind_ == kind::nil) return std::nullopt;
  return as_string();
}

const std::vector<reply>& reply::as_array() const {
  expect(kind::array);
  return elements_;
}

const reply& reply::at(std::size_t index) const {
  const auto& elements = as_array();
  if (index >= elements.size())
    throw std::out_of_range("redis reply: element " + std::to_string(index) + " of an array of " +
                            std::to_string(elements.size()));
  return elements[index];
}

std::string_view reply::error_message() const noexcept {
  return kind_ == kind::error ? std::string_view(text_) : std::string_view();
}

bool reply::is_error_code(std::string_view code) const noexcept {
  const auto message = error_message();
  return !code.empty() && message.substr(0, code.size()) == code &&
         (message.size() == code.size() || message[code.size()] == ' ');
}

bool reply::is_status_equal(std::string_view text) const noexcept {
  return kind_ == kind::status && text_ == text;
}

std::string reply::describe() const {
  // Long strings are cut: this is for messages, not for data.
  constexpr std::size_t shown = 80;
  auto cut = [&](const std::string& s) {
    return s.size() <= shown ? s : s.substr(0, shown) + "... (" + std::to_string(s.size()) + " bytes)";
  };
  switch (kind_) {
    case kind::nil: return "nil";
    case kind::integer: return "integer " + std::to_string(integer_);
    case kind::string: return "string \"" + cut(text_) + "\"";
    case kind::status: return "status " + cut(text_);
    case kind::error: return "error " + cut(text_);
    case kind::array: return "array of " + std::to_string(elements_.size());
  }
  return "?";
}

}  // namespace mcp::detail::redis
