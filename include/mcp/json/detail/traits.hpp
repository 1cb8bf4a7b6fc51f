#pragma once
// Compile-time classification of the C++ types the json/ layer converts, and
// the JSON number a C++ number becomes.

#include <boost/describe/enumerators.hpp>
#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/json/value.hpp>

#include <concepts>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace mcp::detail {

template <class T>
inline constexpr bool is_optional_v = false;
template <class T>
inline constexpr bool is_optional_v<std::optional<T>> = true;

template <class T>
inline constexpr bool is_vector_v = false;
template <class T, class A>
inline constexpr bool is_vector_v<std::vector<T, A>> = true;

template <class T>
inline constexpr bool is_string_map_v = false;
template <class T, class C, class A>
inline constexpr bool is_string_map_v<std::map<std::string, T, C, A>> = true;

template <class T>
inline constexpr bool is_variant_v = false;
template <class... Ts>
inline constexpr bool is_variant_v<std::variant<Ts...>> = true;

/// The T in std::optional<T>, or T itself.
template <class T>
struct unwrap_optional {
  using type = T;
};
template <class T>
struct unwrap_optional<std::optional<T>> {
  using type = T;
};
template <class T>
using unwrap_optional_t = typename unwrap_optional<T>::type;

/// Character types hold text units, not numbers, so they are not converted
/// as integers (std::int8_t and std::uint8_t are signed/unsigned char, and are).
template <class T>
concept character_type = std::same_as<T, char> || std::same_as<T, wchar_t> ||
                         std::same_as<T, char8_t> || std::same_as<T, char16_t> ||
                         std::same_as<T, char32_t>;

template <class T>
concept json_integer = std::integral<T> && !std::same_as<T, bool> && !character_type<T>;

template <class T>
concept json_number = json_integer<T> || std::floating_point<T>;

/// The JSON number a C++ number becomes: int64, uint64 or double.
template <json_number N>
boost::json::value number_to_json(N n) noexcept {
  if constexpr (std::floating_point<N>)
    return static_cast<double>(n);
  else if constexpr (std::is_signed_v<N>)
    return static_cast<std::int64_t>(n);
  else
    return static_cast<std::uint64_t>(n);
}

/// Boost.JSON's own types, copied through unchanged.
template <class T>
concept json_passthrough = std::same_as<T, boost::json::value> ||
                           std::same_as<T, boost::json::object> ||
                           std::same_as<T, boost::json::array> ||
                           std::same_as<T, boost::json::string>;

template <class T>
concept json_text = std::same_as<T, std::string> || std::same_as<T, boost::json::string>;

template <class T>
concept described_enum = std::is_enum_v<T> && boost::describe::has_describe_enumerators<T>::value;

template <class T>
concept described_struct = std::is_class_v<T> && boost::describe::has_describe_members<T>::value;

/// The members a described struct converts: public ones, its own and its bases'.
template <class T>
using described_members =
    boost::describe::describe_members<T, boost::describe::mod_public |
                                             boost::describe::mod_inherited>;

// Shallow for described structs: members are checked where they are
// converted, which keeps self-referential types (a node with a vector of
// nodes) from making this definition depend on itself.
template <class T>
inline constexpr bool convertible_v =
    std::same_as<T, bool> || json_number<T> || json_text<T> || json_passthrough<T> ||
    described_enum<T> || (described_struct<T> && std::default_initializable<T>);
template <class T>
inline constexpr bool convertible_v<std::optional<T>> = convertible_v<T>;
template <class T, class A>
inline constexpr bool convertible_v<std::vector<T, A>> = convertible_v<T>;
template <class T, class C, class A>
inline constexpr bool convertible_v<std::map<std::string, T, C, A>> = convertible_v<T>;
template <class... Ts>
inline constexpr bool convertible_v<std::variant<Ts...>> = (convertible_v<Ts> && ...);

}  // namespace mcp::detail
