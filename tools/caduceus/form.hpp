#pragma once
// The fields of an elicitation form (the `requestedSchema` of a form mode
// `elicitation/create`), as a person at a terminal answers them: what each
// field is, how it is shown, and the value a line of input makes of it.
// No I/O here: the dialog is in server_requests.cpp.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace caduceus {

namespace json = boost::json;

/// One choice of an enum field: its value and what is shown for it.
struct form_choice {
  json::value value;
  std::string title;  ///< the title (oneOf/anyOf, enumNames) or the value itself
};

/// One property of the requested schema (spec 2025-11-25, client/elicitation:
/// strings, numbers, integers, booleans, and single or multi-select enums).
struct form_field {
  enum class kind { text, number, integer, boolean, one_of, many_of, json };

  std::string name;         ///< the property's name: the key of the answer
  std::string label;        ///< its title, else its name
  std::string description;  ///< may be empty
  kind type = kind::text;
  bool required = false;
  std::optional<json::value> fallback;  ///< the schema's `default`

  // text
  std::optional<std::size_t> min_length, max_length;  ///< in characters (code points)
  std::string format;   ///< email, uri, date, date-time (others are not checked)
  std::string pattern;  ///< an ECMAScript regular expression, unanchored
  // number, integer
  std::optional<double> minimum, maximum;
  bool exclusive_minimum = false, exclusive_maximum = false;
  // one_of, many_of
  std::vector<form_choice> choices;
  std::optional<std::size_t> min_items, max_items;
};

/// The fields of a requested schema, in the order of its `properties`.
/// Throws mcp::protocol_error(-32602) for a schema that is not an object
/// schema with an object of properties.
std::vector<form_field> read_form(const json::object& requested_schema);

/// The lines shown before a field's prompt (each ends in a newline): its
/// label, type and bounds, whether it is required, its description, its
/// choices numbered from 1.
std::string describe_field(const form_field& field);

/// A value as the person sees it: a choice by its title, a boolean as
/// yes/no, a string as it is, anything else as JSON.
std::string show_value(const form_field& field, const json::value& value);

/// What a line of input makes of a field.
struct left_out {};  ///< empty input for an optional field without a default
using answer = std::variant<json::value, left_out, std::string /* what is wrong */>;

/// Reads `text` (a line, without its newline) as the field's value. Empty
/// input takes `current` (the default, or the value given before) when there
/// is one. Blanks around the input are ignored.
answer read_answer(const form_field& field, std::string_view text, const std::optional<json::value>& current);

}  // namespace caduceus
