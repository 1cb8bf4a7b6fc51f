#pragma once
// Optional metadata for described structs: descriptions, bounds, formats,
// defaults and requiredness, given by a hook that argument-dependent lookup
// finds next to the type (in the style of fmt's format_as and nlohmann's
// to_json), so plain structs stay plain:
//
//   namespace weather {
//   struct forecast_args { std::string city; int days = 1; };
//   BOOST_DESCRIBE_STRUCT(forecast_args, (), (city, days))
//
//   inline auto mcp_fields(mcp::type_t<forecast_args>) {
//     return std::tuple{mcp::field(&forecast_args::city, "City name").min_length(1),
//                       mcp::field(&forecast_args::days, "Days ahead").range(1, 7)};
//   }
//   inline std::string_view mcp_description(mcp::type_t<forecast_args>) {
//     return "Where and how far ahead to forecast";
//   }
//   }  // namespace weather
//
// mcp_fields returns a std::tuple of field descriptors (mcp::fields(...) builds
// one too); each names a described member by its member pointer, a member of a
// base included. The hook is called once per type and its result kept for the
// life of the program. mcp_title(mcp::type_t<T>) and
// mcp_description(mcp::type_t<T>) give a type's schema its title and description.

#include <mcp/export.hpp>
#include <mcp/json/detail/traits.hpp>

#include <boost/json/value.hpp>

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace mcp {

namespace json = boost::json;

/// The tag the hooks are overloaded on: mcp_fields(mcp::type_t<T>).
template <class T>
struct type_t {};

/// What a field descriptor says about one member; every part is optional.
struct MCP_API field_metadata {
  std::string title;        ///< the property's schema "title"; empty: none
  std::string description;  ///< the property's schema "description"; empty: none
  std::optional<json::value> minimum;  ///< numbers, kept as given (1 stays an integer)
  std::optional<json::value> maximum;  ///< inclusive, like minimum
  std::optional<json::value> exclusive_minimum;  ///< the schema's "exclusiveMinimum"
  std::optional<json::value> exclusive_maximum;  ///< the schema's "exclusiveMaximum"
  std::optional<std::size_t> min_length;  ///< in Unicode code points
  std::optional<std::size_t> max_length;  ///< in Unicode code points
  std::string pattern;  ///< an ECMAScript regular expression, matched anywhere in the string
  std::string format;   ///< an annotation ("uri", "date-time", ...), not checked
  std::optional<std::size_t> min_items;  ///< the fewest items of an array member
  std::optional<std::size_t> max_items;  ///< the most items of an array member
  std::vector<std::string> allowed_values;  ///< the schema's "enum"; empty when not given
  std::optional<json::value> default_value;  ///< the schema's "default", and what from_json reads when absent
  std::optional<bool> required;  ///< overrides the rule that derives requiredness
  std::string key;  ///< the member's name in JSON; empty: its C++ name
  /// Written only when it differs from the member of a default-constructed
  /// struct (an empty list, `false`); such a member is not required.
  bool omit_if_default = false;
};

/// Describes the member `Owner::*pointer`. Built by mcp::field; every setter
/// returns *this so calls chain.
template <class Owner, class Member>
class field_descriptor {
  using value_type = detail::unwrap_optional_t<Member>;
  static constexpr bool is_any_json = std::same_as<value_type, json::value>;
  static constexpr bool is_number = detail::json_number<value_type> || is_any_json;
  static constexpr bool is_text =
      detail::json_text<value_type> || detail::described_enum<value_type> || is_any_json;
  static constexpr bool is_sequence = detail::is_vector_v<value_type> ||
                                      std::same_as<value_type, json::array> || is_any_json;

 public:
  /// Describes `pointer`'s member with `description` (mcp::field makes one).
  field_descriptor(Member Owner::*pointer, std::string description) : pointer_(pointer) {
    metadata_.description = std::move(description);
  }

  /// The member described.
  Member Owner::*pointer() const noexcept { return pointer_; }
  /// What has been said about it so far.
  const field_metadata& metadata() const noexcept { return metadata_; }

  /// The property's schema "title".
  field_descriptor& title(std::string text) {
    metadata_.title = std::move(text);
    return *this;
  }
  /// The property's schema "description", replacing the one given to mcp::field.
  field_descriptor& description(std::string text) {
    metadata_.description = std::move(text);
    return *this;
  }

  /// The smallest value allowed (the schema's "minimum"); numeric members only.
  template <detail::json_number N>
  field_descriptor& minimum(N bound) {
    static_assert(is_number, "mcp::field: minimum() applies to numeric members");
    metadata_.minimum = detail::number_to_json(bound);
    return *this;
  }
  /// The largest value allowed (the schema's "maximum"); numeric members only.
  template <detail::json_number N>
  field_descriptor& maximum(N bound) {
    static_assert(is_number, "mcp::field: maximum() applies to numeric members");
    metadata_.maximum = detail::number_to_json(bound);
    return *this;
  }
  /// Values must be greater than `bound` ("exclusiveMinimum"); numeric members only.
  template <detail::json_number N>
  field_descriptor& exclusive_minimum(N bound) {
    static_assert(is_number, "mcp::field: exclusive_minimum() applies to numeric members");
    metadata_.exclusive_minimum = detail::number_to_json(bound);
    return *this;
  }
  /// Values must be less than `bound` ("exclusiveMaximum"); numeric members only.
  template <detail::json_number N>
  field_descriptor& exclusive_maximum(N bound) {
    static_assert(is_number, "mcp::field: exclusive_maximum() applies to numeric members");
    metadata_.exclusive_maximum = detail::number_to_json(bound);
    return *this;
  }
  /// minimum(low) and maximum(high), both inclusive.
  template <detail::json_number L, detail::json_number H>
  field_descriptor& range(L low, H high) {
    minimum(low);
    return maximum(high);
  }

  /// The shortest string allowed, in Unicode code points ("minLength");
  /// string or enum members only.
  field_descriptor& min_length(std::size_t code_points) {
    static_assert(is_text, "mcp::field: min_length() applies to string members");
    metadata_.min_length = code_points;
    return *this;
  }
  /// The longest string allowed, in Unicode code points ("maxLength").
  field_descriptor& max_length(std::size_t code_points) {
    static_assert(is_text, "mcp::field: max_length() applies to string members");
    metadata_.max_length = code_points;
    return *this;
  }
  /// An ECMAScript regular expression the string must match somewhere in it
  /// ("pattern"; anchor it with ^...$ for the whole string).
  field_descriptor& pattern(std::string ecmascript_regex) {
    static_assert(is_text, "mcp::field: pattern() applies to string members");
    metadata_.pattern = std::move(ecmascript_regex);
    return *this;
  }
  /// The schema's "format" ("uri", "date-time", ...): an annotation, not
  /// checked.
  field_descriptor& format(std::string name) {
    static_assert(is_text, "mcp::field: format() applies to string members");
    metadata_.format = std::move(name);
    return *this;
  }
  /// The only strings the member accepts (the schema's "enum").
  field_descriptor& one_of(std::initializer_list<std::string_view> values) {
    static_assert(is_text, "mcp::field: one_of() applies to string members");
    metadata_.allowed_values.assign(values.begin(), values.end());
    return *this;
  }

  /// The fewest items allowed ("minItems"); vector and array members only.
  field_descriptor& min_items(std::size_t count) {
    static_assert(is_sequence, "mcp::field: min_items() applies to vector members");
    metadata_.min_items = count;
    return *this;
  }
  /// The most items allowed ("maxItems"); vector and array members only.
  field_descriptor& max_items(std::size_t count) {
    static_assert(is_sequence, "mcp::field: max_items() applies to vector members");
    metadata_.max_items = count;
    return *this;
  }

  /// Advertised as the schema's "default" and used by from_json when the
  /// member is absent; makes the member not required unless required() says
  /// so. A default that does not read as the member's type throws
  /// std::logic_error when the type is first converted.
  field_descriptor& default_value(json::value value) {
    metadata_.default_value = std::move(value);
    return *this;
  }
  /// The member must be present, whatever its type and default say.
  field_descriptor& required() {
    metadata_.required = true;
    return *this;
  }
  /// The member may be absent (it keeps its default), whatever its type says.
  field_descriptor& not_required() {
    metadata_.required = false;
    return *this;
  }

  /// The member's name in JSON when it is not its C++ name
  /// (`field(&tool::input_schema).key("inputSchema")`): read, written and
  /// advertised in the schema under this name.
  field_descriptor& key(std::string name) {
    metadata_.key = std::move(name);
    return *this;
  }
  /// Leaves the member out of what to_json_value writes while it holds the
  /// value of a default-constructed struct (an empty list or object, `false`,
  /// an all-absent struct), and lets it be absent when read.
  field_descriptor& omit_if_default() {
    metadata_.omit_if_default = true;
    return *this;
  }

 private:
  Member Owner::*pointer_;
  field_metadata metadata_;
};

/// Starts the description of one member: mcp::field(&args::city, "City name").
template <class Owner, class Member>
field_descriptor<Owner, Member> field(Member Owner::*pointer, std::string description = {}) {
  return {pointer, std::move(description)};
}

/// A tuple of field descriptors, for hooks that prefer a named call to std::tuple{...}.
template <class... Descriptors>
std::tuple<Descriptors...> fields(Descriptors... descriptors) {
  return {std::move(descriptors)...};
}

namespace detail {

template <class T>
concept has_fields_hook = requires { mcp_fields(type_t<T>{}); };

template <class T>
concept has_title_hook = requires {
  { mcp_title(type_t<T>{}) } -> std::convertible_to<std::string_view>;
};

template <class T>
concept has_description_hook = requires {
  { mcp_description(type_t<T>{}) } -> std::convertible_to<std::string_view>;
};

}  // namespace detail
}  // namespace mcp
