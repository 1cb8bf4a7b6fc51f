#include "form.hpp"

#include "ascii.hpp"
#include "json_output.hpp"

#include "../../src/detail/decimal.hpp"

#include <mcp/protocol/errors.hpp>

#include <boost/json/parse.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <regex>

namespace caduceus {

namespace {

using kind = form_field::kind;

std::string string_member(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

std::optional<double> number_member(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_number()) return std::nullopt;
  return v->to_number<double>();
}

std::optional<std::size_t> count_member(const json::object& o, std::string_view key) {
  const auto n = number_member(o, key);
  if (!n || *n < 0 || *n != std::floor(*n)) return std::nullopt;
  return static_cast<std::size_t>(*n);
}

std::string title_of(const json::value& value) {
  return value.is_string() ? std::string(value.get_string()) : json_text(value);
}

// `[{"const": v, "title": t}, ...]` (oneOf, anyOf): titled choices.
std::vector<form_choice> titled_choices(const json::array& options) {
  std::vector<form_choice> out;
  for (const auto& option : options) {
    if (!option.is_object()) continue;
    const auto* value = option.get_object().if_contains("const");
    if (!value) continue;
    auto title = string_member(option.get_object(), "title");
    out.push_back({*value, title.empty() ? title_of(*value) : std::move(title)});
  }
  return out;
}

// `enum`, with the legacy `enumNames` as titles when they match in number.
std::vector<form_choice> enum_choices(const json::object& schema) {
  std::vector<form_choice> out;
  const auto* values = schema.if_contains("enum");
  if (!values || !values->is_array()) return out;
  const auto* names = schema.if_contains("enumNames");
  const bool named = names && names->is_array() && names->get_array().size() == values->get_array().size();
  for (std::size_t i = 0; i < values->get_array().size(); ++i) {
    const auto& value = values->get_array()[i];
    const auto* name = named ? &names->get_array()[i] : nullptr;
    out.push_back({value, name && name->is_string() ? std::string(name->get_string()) : title_of(value)});
  }
  return out;
}

std::vector<form_choice> choices_of(const json::object& schema) {
  for (const auto* key : {"oneOf", "anyOf"})
    if (const auto* options = schema.if_contains(key); options && options->is_array())
      return titled_choices(options->get_array());
  return enum_choices(schema);
}

form_field read_field(std::string name, const json::value& property, bool required) {
  form_field f;
  f.name = std::move(name);
  f.required = required;
  const json::object empty;
  const auto& schema = property.is_object() ? property.get_object() : empty;
  f.label = string_member(schema, "title");
  if (f.label.empty()) f.label = f.name;
  f.description = string_member(schema, "description");
  if (const auto* d = schema.if_contains("default")) f.fallback = *d;
  const auto type = string_member(schema, "type");
  if (type == "array") {
    const auto* items = schema.if_contains("items");
    if (items && items->is_object()) f.choices = choices_of(items->get_object());
    f.type = f.choices.empty() ? kind::json : kind::many_of;
    f.min_items = count_member(schema, "minItems");
    f.max_items = count_member(schema, "maxItems");
    return f;
  }
  f.choices = choices_of(schema);
  if (!f.choices.empty()) {
    f.type = kind::one_of;
    return f;
  }
  if (type == "string") {
    f.type = kind::text;
    f.min_length = count_member(schema, "minLength");
    f.max_length = count_member(schema, "maxLength");
    f.format = string_member(schema, "format");
    f.pattern = string_member(schema, "pattern");
  } else if (type == "number" || type == "integer") {
    f.type = type == "number" ? kind::number : kind::integer;
    f.minimum = number_member(schema, "minimum");
    f.maximum = number_member(schema, "maximum");
    // 2020-12: exclusiveMinimum/Maximum are numbers of their own.
    if (auto x = number_member(schema, "exclusiveMinimum"); x && (!f.minimum || *x >= *f.minimum)) {
      f.minimum = x;
      f.exclusive_minimum = true;
    }
    if (auto x = number_member(schema, "exclusiveMaximum"); x && (!f.maximum || *x <= *f.maximum)) {
      f.maximum = x;
      f.exclusive_maximum = true;
    }
  } else if (type == "boolean") {
    f.type = kind::boolean;
  } else {
    f.type = kind::json;  // not a type the spec allows: any JSON, or else the text as a string
  }
  return f;
}

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::size_t characters(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string number_text(double value) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return std::string(buffer, end);
}

// "3 to 50 characters", "at least 3 characters", "from 18 to 120"...
std::string range_text(std::optional<double> low, bool low_open, std::optional<double> high, bool high_open,
                       std::string_view unit) {
  std::string text;
  const auto suffix = unit.empty() ? std::string() : " " + std::string(unit);
  if (low && high && !low_open && !high_open)
    text = (*low == *high ? number_text(*low) : "from " + number_text(*low) + " to " + number_text(*high)) + suffix;
  else if (low && high)
    text = std::string(low_open ? "over " : "at least ") + number_text(*low) + " and " +
           (high_open ? "under " : "at most ") + number_text(*high) + suffix;
  else if (low)
    text = std::string(low_open ? "over " : "at least ") + number_text(*low) + suffix;
  else if (high)
    text = std::string(high_open ? "under " : "at most ") + number_text(*high) + suffix;
  return text;
}

std::optional<double> as_double(std::optional<std::size_t> n) {
  return n ? std::optional<double>(static_cast<double>(*n)) : std::nullopt;
}

bool leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

bool valid_date(int year, int month, int day) {
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= days[month - 1] + (month == 2 && leap(year) ? 1 : 0);
}

// What is wrong with `text` as a string of `format`; empty when nothing is
// (or when the format is not one we know).
std::string format_error(std::string_view format, const std::string& text) {
  if (format == "email") {
    const auto at = text.find('@');
    const bool ok = at != std::string::npos && at > 0 && at + 1 < text.size() &&
                    text.find('@', at + 1) == std::string::npos &&
                    text.find_first_of(" \t") == std::string::npos;
    return ok ? "" : "not an email address (name@example.com)";
  }
  if (format == "uri") {
    return boost::urls::parse_absolute_uri(text) ? "" : "not an absolute URI (https://example.com/...)";
  }
  if (format == "date" || format == "date-time") {
    static const std::regex date(R"(^(\d{4})-(\d{2})-(\d{2})$)");
    static const std::regex date_time(
        R"(^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$)");
    std::smatch m;
    const bool shaped = std::regex_match(text, m, format == "date" ? date : date_time);
    bool ok = shaped && valid_date(std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]));
    if (ok && format == "date-time") ok = std::stoi(m[4]) < 24 && std::stoi(m[5]) < 60 && std::stoi(m[6]) <= 60;
    if (ok) return "";
    return format == "date" ? "not a date (YYYY-MM-DD)" : "not a date and time (YYYY-MM-DDTHH:MM:SSZ)";
  }
  return "";
}

answer read_text(const form_field& f, std::string text) {
  const auto length = characters(text);
  if ((f.min_length && length < *f.min_length) || (f.max_length && length > *f.max_length))
    return "must have " + range_text(as_double(f.min_length), false, as_double(f.max_length), false, "characters") +
           " (this has " + std::to_string(length) + ")";
  if (auto wrong = format_error(f.format, text); !wrong.empty()) return wrong;
  if (!f.pattern.empty()) {
    try {
      const std::regex pattern(f.pattern, std::regex::ECMAScript);
      if (!std::regex_search(text, pattern)) return "does not match the pattern " + f.pattern;
    } catch (const std::regex_error&) {
      // A pattern we cannot compile is the server's to check.
    }
  }
  return json::value(text);
}

answer read_number(const form_field& f, const std::string& text) {
  std::string_view digits = text;
  if (digits.starts_with('+')) digits.remove_prefix(1);
  const auto* begin = digits.data();
  const auto* end = begin + digits.size();
  std::int64_t whole = 0;
  json::value value;
  double number = 0;
  if (const auto [p, ec] = std::from_chars(begin, end, whole); ec == std::errc() && p == end) {
    value = whole;  // written as typed: 30, not 3E1
    number = static_cast<double>(whole);
  } else {
    if (f.type == kind::integer) return std::string("not a whole number");
    const auto decimal = mcp::detail::read_decimal(digits);
    if (!decimal) return std::string("not a number");
    number = *decimal;
    value = number;
  }
  const bool too_low = f.minimum && (f.exclusive_minimum ? number <= *f.minimum : number < *f.minimum);
  const bool too_high = f.maximum && (f.exclusive_maximum ? number >= *f.maximum : number > *f.maximum);
  if (too_low || too_high)
    return "must be " + range_text(f.minimum, f.exclusive_minimum, f.maximum, f.exclusive_maximum, "");
  return value;
}

answer read_boolean(const std::string& text) {
  const auto word = lower(text);
  if (word == "y" || word == "yes" || word == "true" || word == "1") return json::value(true);
  if (word == "n" || word == "no" || word == "false" || word == "0") return json::value(false);
  return std::string("answer yes or no");
}

// One choice by its number, its value or its title (in any case).
std::optional<std::size_t> find_choice(const form_field& f, const std::string& token) {
  std::size_t number = 0;
  const auto* end = token.data() + token.size();
  if (const auto [p, ec] = std::from_chars(token.data(), end, number); ec == std::errc() && p == end)
    if (number >= 1 && number <= f.choices.size()) return number - 1;
  for (std::size_t i = 0; i < f.choices.size(); ++i)
    if (title_of(f.choices[i].value) == token) return i;
  for (std::size_t i = 0; i < f.choices.size(); ++i)
    if (lower(f.choices[i].title) == lower(token)) return i;
  return std::nullopt;
}

answer read_many(const form_field& f, const std::string& text) {
  json::array values;
  std::vector<std::size_t> taken;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = std::min(text.find(',', start), text.size());
    const auto token = trimmed(std::string_view(text).substr(start, comma - start));
    start = comma + 1;
    if (token.empty()) continue;
    const auto index = find_choice(f, token);
    if (!index) return "not one of the choices: " + token;
    if (std::find(taken.begin(), taken.end(), *index) != taken.end()) continue;
    taken.push_back(*index);
    values.push_back(f.choices[*index].value);
  }
  if ((f.min_items && values.size() < *f.min_items) || (f.max_items && values.size() > *f.max_items))
    return "choose " + range_text(as_double(f.min_items), false, as_double(f.max_items), false, "") +
           " (numbers or values, separated by commas)";
  return json::value(std::move(values));
}

}  // namespace

std::vector<form_field> read_form(const json::object& requested_schema) {
  const auto* properties = requested_schema.if_contains("properties");
  if (properties && !properties->is_object())
    throw mcp::protocol_error(mcp::errc::invalid_params, "requestedSchema.properties must be an object");
  std::vector<std::string> required;
  if (const auto* r = requested_schema.if_contains("required"); r && r->is_array())
    for (const auto& name : r->get_array())
      if (name.is_string()) required.emplace_back(name.get_string());
  std::vector<form_field> fields;
  if (!properties) return fields;
  for (const auto& [name, property] : properties->get_object()) {
    const bool is_required = std::find(required.begin(), required.end(), std::string(name)) != required.end();
    fields.push_back(read_field(std::string(name), property, is_required));
  }
  return fields;
}

std::string describe_field(const form_field& f) {
  std::vector<std::string> notes;
  switch (f.type) {
    case kind::text: {
      notes.push_back("text");
      if (!f.format.empty()) notes.push_back(f.format);
      auto length = range_text(as_double(f.min_length), false, as_double(f.max_length), false, "characters");
      if (!length.empty()) notes.push_back(std::move(length));
      if (!f.pattern.empty()) notes.push_back("matching " + f.pattern);
      break;
    }
    case kind::number:
    case kind::integer: {
      notes.push_back(f.type == kind::number ? "number" : "whole number");
      auto range = range_text(f.minimum, f.exclusive_minimum, f.maximum, f.exclusive_maximum, "");
      if (!range.empty()) notes.push_back(std::move(range));
      break;
    }
    case kind::boolean:
      notes.push_back("yes or no");
      break;
    case kind::one_of:
      notes.push_back("one choice: its number or value");
      break;
    case kind::many_of: {
      auto count = range_text(as_double(f.min_items), false, as_double(f.max_items), false, "");
      notes.push_back((count.empty() ? std::string("any") : count) + " of the choices, separated by commas");
      break;
    }
    case kind::json:
      notes.push_back("JSON");
      break;
  }
  if (f.required) notes.push_back("required");
  std::string text = f.label + " (";
  for (std::size_t i = 0; i < notes.size(); ++i) text += (i ? ", " : "") + notes[i];
  text += ")\n";
  if (!f.description.empty() && f.description != f.label) text += "  " + f.description + "\n";
  for (std::size_t i = 0; i < f.choices.size(); ++i) {
    text += "  " + std::to_string(i + 1) + ") " + f.choices[i].title;
    const auto value = title_of(f.choices[i].value);
    if (value != f.choices[i].title) text += "  [" + value + "]";
    text += "\n";
  }
  return text;
}

std::string show_value(const form_field& f, const json::value& value) {
  auto choice_title = [&](const json::value& v) {
    for (const auto& c : f.choices)
      if (c.value == v) return c.title;
    return title_of(v);
  };
  if (value.is_bool()) return value.get_bool() ? "yes" : "no";
  if (f.type == kind::one_of) return choice_title(value);
  if (f.type == kind::many_of && value.is_array()) {
    std::string text;
    for (const auto& v : value.get_array()) text += (text.empty() ? "" : ", ") + choice_title(v);
    return text;
  }
  return value.is_string() ? std::string(value.get_string()) : json_text(value);
}

answer read_answer(const form_field& f, std::string_view line, const std::optional<json::value>& current) {
  auto text = trimmed(line);
  if (text.empty()) {
    if (current) return *current;
    if (f.required) return std::string("a value is required");
    return left_out{};
  }
  switch (f.type) {
    case kind::text:
      return read_text(f, std::move(text));
    case kind::number:
    case kind::integer:
      return read_number(f, text);
    case kind::boolean:
      return read_boolean(text);
    case kind::one_of: {
      const auto index = find_choice(f, text);
      if (!index) return "not one of the choices: " + text;
      return f.choices[*index].value;
    }
    case kind::many_of:
      return read_many(f, text);
    case kind::json: {
      boost::system::error_code ec;
      auto value = json::parse(text, ec);
      if (ec) return json::value(text);
      return value;
    }
  }
  return std::string("cannot read this field");
}

}  // namespace caduceus
