#pragma once
// Template bodies of mcp/json/schema.hpp.

#include <mcp/json/detail/members.hpp>
#include <mcp/json/detail/traits.hpp>
#include <mcp/json/fields.hpp>

#include <boost/describe/enumerators.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/mp11/algorithm.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>
#include <variant>

namespace mcp::detail {

template <class>
inline constexpr bool always_false = false;

/// `Enclosing` lists the structs being derived around T, to catch a type that contains itself.
template <class T, class... Enclosing>
boost::json::object schema_for();

inline void apply_field_metadata(boost::json::object& schema, const field_metadata& m) {
  if (!m.title.empty()) schema["title"] = m.title;
  if (!m.description.empty()) schema["description"] = m.description;
  if (m.minimum) schema["minimum"] = *m.minimum;
  if (m.maximum) schema["maximum"] = *m.maximum;
  if (m.exclusive_minimum) schema["exclusiveMinimum"] = *m.exclusive_minimum;
  if (m.exclusive_maximum) schema["exclusiveMaximum"] = *m.exclusive_maximum;
  if (m.min_length) schema["minLength"] = *m.min_length;
  if (m.max_length) schema["maxLength"] = *m.max_length;
  if (!m.pattern.empty()) schema["pattern"] = m.pattern;
  if (!m.format.empty()) schema["format"] = m.format;
  if (m.min_items) schema["minItems"] = *m.min_items;
  if (m.max_items) schema["maxItems"] = *m.max_items;
  if (!m.allowed_values.empty()) {
    boost::json::array values;
    for (const auto& v : m.allowed_values) values.emplace_back(v);
    schema["enum"] = std::move(values);
  }
}

// Only the narrow types state their range: a model reading the schema of a
// plain `int` does not need two ten-digit bounds on every field. Conversion
// range-checks every type all the same.
template <json_integer I>
boost::json::object integer_schema() {
  boost::json::object schema{{"type", "integer"}};
  if constexpr (sizeof(I) < sizeof(std::int32_t)) {
    schema["minimum"] = number_to_json(std::numeric_limits<I>::min());
    schema["maximum"] = number_to_json(std::numeric_limits<I>::max());
  } else if constexpr (std::is_unsigned_v<I>) {
    schema["minimum"] = 0;
  }
  return schema;
}

template <described_enum E>
boost::json::object enum_schema() {
  boost::json::array names;
  boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>(
      [&](auto D) { names.emplace_back(D.name); });
  return {{"type", "string"}, {"enum", std::move(names)}};
}

template <described_struct T, class... Enclosing>
boost::json::object struct_schema() {
  boost::json::object properties;
  boost::json::array required;
  const auto& infos = member_infos<T>();
  std::size_t index = 0;
  boost::mp11::mp_for_each<described_members<T>>([&](auto D) {
    using M = std::remove_cvref_t<decltype(std::declval<const T&>().*D.pointer)>;
    static_assert(convertible_v<M>,
                  "mcp::schema_of: a member of this described struct is not JSON-convertible");
    const member_info& info = infos[index++];
    auto property = schema_for<M, T, Enclosing...>();
    apply_field_metadata(property, info.metadata);
    if (info.default_value) property["default"] = *info.default_value;
    properties.emplace(info.key, std::move(property));
    if (info.required) required.emplace_back(info.key);
  });
  boost::json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) schema.emplace("required", std::move(required));
  return schema;
}

template <class... Ts, class... Enclosing>
boost::json::object variant_schema(std::variant<Ts...>*, Enclosing*...) {
  return {{"anyOf", boost::json::array{schema_for<Ts, Enclosing...>()...}}};
}

/// The schema of T's kind, before the type's own title and description.
template <class T, class... Enclosing>
boost::json::object kind_schema() {
  if constexpr (std::same_as<T, boost::json::value>) {
    return {};
  } else if constexpr (std::same_as<T, boost::json::object>) {
    return {{"type", "object"}};
  } else if constexpr (std::same_as<T, boost::json::array>) {
    return {{"type", "array"}};
  } else if constexpr (std::same_as<T, bool>) {
    return {{"type", "boolean"}};
  } else if constexpr (json_integer<T>) {
    return integer_schema<T>();
  } else if constexpr (std::floating_point<T>) {
    return {{"type", "number"}};
  } else if constexpr (json_text<T>) {
    return {{"type", "string"}};
  } else if constexpr (is_optional_v<T>) {
    return schema_for<typename T::value_type, Enclosing...>();
  } else if constexpr (is_vector_v<T>) {
    return {{"type", "array"}, {"items", schema_for<typename T::value_type, Enclosing...>()}};
  } else if constexpr (is_string_map_v<T>) {
    return {{"type", "object"},
            {"additionalProperties", schema_for<typename T::mapped_type, Enclosing...>()}};
  } else if constexpr (is_variant_v<T>) {
    return variant_schema(static_cast<T*>(nullptr), static_cast<Enclosing*>(nullptr)...);
  } else if constexpr (described_enum<T>) {
    return enum_schema<T>();
  } else if constexpr ((std::is_same_v<T, Enclosing> || ...)) {
    static_assert(always_false<T>,
                  "mcp::schema_of: a type that contains itself has no derived schema");
    return {};
  } else if constexpr (described_struct<T>) {
    return struct_schema<T, Enclosing...>();
  } else {
    static_assert(convertible_v<T>, "mcp::schema_of: this type is not JSON-convertible");
    return {};
  }
}

template <class T, class... Enclosing>
boost::json::object schema_for() {
  auto schema = kind_schema<T, Enclosing...>();
  if constexpr (has_title_hook<T>) schema["title"] = std::string_view(mcp_title(type_t<T>{}));
  if constexpr (has_description_hook<T>)
    schema["description"] = std::string_view(mcp_description(type_t<T>{}));
  return schema;
}

}  // namespace mcp::detail

namespace mcp {

template <class T>
json::object schema_of() {
  static_assert(json_convertible<T>, "mcp::schema_of<T>: T must be JSON-convertible");
  return detail::schema_for<T>();
}

}  // namespace mcp
