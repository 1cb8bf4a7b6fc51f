#pragma once
// Template bodies of mcp/json/convert.hpp: one reader and one writer per kind
// of C++ type, dispatched by read<T> and write<T>.

#include <mcp/json/conversion_error.hpp>
#include <mcp/json/detail/kind_name.hpp>
#include <mcp/json/detail/members.hpp>
#include <mcp/json/detail/path.hpp>
#include <mcp/json/detail/traits.hpp>

#include <boost/describe/enum_to_string.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace mcp::detail {

[[noreturn]] inline void fail(const json_path& path, std::string reason) {
  throw conversion_error(path.pointer(), std::move(reason));
}

[[noreturn]] inline void fail_expected(const json_path& path, std::string_view expected,
                                       const boost::json::value& got) {
  fail(path, "expected " + std::string(expected) + ", got " + std::string(kind_name(got)));
}

// --- readers ------------------------------------------------------------------

template <json_integer I>
[[noreturn]] void fail_out_of_range(const json_path& path, bool below) {
  if (below) fail(path, "must be >= " + std::to_string(std::numeric_limits<I>::min()));
  fail(path, "must be <= " + std::to_string(std::numeric_limits<I>::max()));
}

/// Any JSON number with no fractional part (3, and 3.0 too) that fits in I.
template <json_integer I>
I read_integer(const boost::json::value& value, const json_path& path) {
  switch (value.kind()) {
    case boost::json::kind::int64: {
      const std::int64_t n = value.get_int64();
      if (!std::in_range<I>(n)) fail_out_of_range<I>(path, n < 0);
      return static_cast<I>(n);
    }
    case boost::json::kind::uint64: {
      const std::uint64_t n = value.get_uint64();
      if (!std::in_range<I>(n)) fail_out_of_range<I>(path, false);
      return static_cast<I>(n);
    }
    case boost::json::kind::double_: {
      const double d = value.get_double();
      if (!std::isfinite(d) || std::trunc(d) != d) fail_expected(path, "integer", value);
      // long double holds every 64-bit integer exactly, so the bounds are exact.
      const auto x = static_cast<long double>(d);
      if (x < static_cast<long double>(std::numeric_limits<I>::min()))
        fail_out_of_range<I>(path, true);
      if (x > static_cast<long double>(std::numeric_limits<I>::max()))
        fail_out_of_range<I>(path, false);
      return static_cast<I>(d);
    }
    default:
      fail_expected(path, "integer", value);
  }
}

template <std::floating_point F>
F read_floating(const boost::json::value& value, const json_path& path) {
  if (!value.is_number()) fail_expected(path, "number", value);
  const double d = value.to_number<double>();
  if constexpr (sizeof(F) < sizeof(double)) {
    if (std::isfinite(d) && std::abs(d) > static_cast<double>(std::numeric_limits<F>::max()))
      fail(path, "is out of range for float");
  }
  return static_cast<F>(d);
}

template <described_enum E>
std::string enum_names() {
  std::string names;
  boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto D) {
    names += names.empty() ? "\"" : ", \"";
    names += D.name;
    names += '"';
  });
  return "[" + names + "]";
}

template <described_enum E>
E read_enum(const boost::json::value& value, const json_path& path) {
  const auto* name = value.if_string();
  if (name == nullptr) fail_expected(path, "string", value);
  std::optional<E> result;
  boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto D) {
    if (!result && *name == D.name) result = D.value;
  });
  if (!result) fail(path, "must be one of " + enum_names<E>());
  return *result;
}

template <described_struct T>
T read_members(const boost::json::object& object, const json_path& path,
               const read_options& options) {
  T result{};
  const auto& infos = member_infos<T>();
  std::size_t index = 0;
  boost::mp11::mp_for_each<described_members<T>>([&](auto D) {
    using M = std::remove_cvref_t<decltype(result.*D.pointer)>;
    static_assert(convertible_v<M>,
                  "mcp::from_json: a member of this described struct is not JSON-convertible");
    const member_info& info = infos[index++];
    const json_path member_path(path, info.key);
    const auto* given = object.if_contains(info.key);
    // null reads as absent for a member that may be left out (an optional, or
    // one written only when it differs from its default).
    const bool null_is_absent = is_optional_v<M> || info.omitted_value.has_value();
    if (given != nullptr && !(null_is_absent && given->is_null())) {
      if (info.required || !options.skip_mistyped_optionals) {
        result.*D.pointer = read<M>(*given, member_path, options);
        return;
      }
      try {
        result.*D.pointer = read<M>(*given, member_path, options);
        return;
      } catch (const conversion_error& e) {
        if (e.pointer() != member_path.pointer()) throw;  // wrong deeper down
      }
    } else if (info.required) {
      fail(member_path, "is required");
    }
    // Absent, null where null is absent, or skipped: keep T{}'s value, or the hook's default.
    if (info.metadata.default_value)
      result.*D.pointer = read<M>(*info.metadata.default_value, member_path, options);
  });
  return result;
}

template <described_struct T>
T read_struct(const boost::json::value& value, const json_path& path,
              const read_options& options) {
  const auto* object = value.if_object();
  if (object == nullptr) fail_expected(path, "object", value);
  return read_members<T>(*object, path, options);
}

template <class V, std::size_t... I>
V read_variant(const boost::json::value& value, const json_path& path,
               const read_options& options, std::index_sequence<I...>) {
  std::optional<V> result;
  auto try_alternative = [&]<std::size_t N>(std::integral_constant<std::size_t, N>) {
    try {
      result.emplace(std::in_place_index<N>,
                     read<std::variant_alternative_t<N, V>>(value, path, options));
      return true;
    } catch (const conversion_error&) {
      return false;
    }
  };
  if (!(try_alternative(std::integral_constant<std::size_t, I>{}) || ...))
    fail(path, "matches none of the variant's alternatives");
  return std::move(*result);
}

// JSON is copied into the default memory resource, where the member it is
// assigned to lives: a copy in the source's resource (a message's arena)
// would be copied a second time by that assignment.
template <class T>
T read(const boost::json::value& value, const json_path& path, const read_options& options) {
  if constexpr (std::same_as<T, boost::json::value>) {
    return boost::json::value(value, boost::json::storage_ptr());
  } else if constexpr (std::same_as<T, boost::json::object>) {
    if (const auto* object = value.if_object()) return boost::json::object(*object, boost::json::storage_ptr());
    fail_expected(path, "object", value);
  } else if constexpr (std::same_as<T, boost::json::array>) {
    if (const auto* array = value.if_array()) return boost::json::array(*array, boost::json::storage_ptr());
    fail_expected(path, "array", value);
  } else if constexpr (std::same_as<T, boost::json::string>) {
    if (const auto* string = value.if_string()) return boost::json::string(*string, boost::json::storage_ptr());
    fail_expected(path, "string", value);
  } else if constexpr (std::same_as<T, bool>) {
    if (const auto* b = value.if_bool()) return *b;
    fail_expected(path, "boolean", value);
  } else if constexpr (json_integer<T>) {
    return read_integer<T>(value, path);
  } else if constexpr (std::floating_point<T>) {
    return read_floating<T>(value, path);
  } else if constexpr (std::same_as<T, std::string>) {
    if (const auto* string = value.if_string()) return std::string(*string);
    fail_expected(path, "string", value);
  } else if constexpr (is_optional_v<T>) {
    if (value.is_null()) return std::nullopt;
    return read<typename T::value_type>(value, path, options);
  } else if constexpr (is_vector_v<T>) {
    const auto* array = value.if_array();
    if (array == nullptr) fail_expected(path, "array", value);
    T result;
    result.reserve(array->size());
    for (std::size_t i = 0; i < array->size(); ++i)
      result.push_back(read<typename T::value_type>((*array)[i], json_path(path, i), options));
    return result;
  } else if constexpr (is_string_map_v<T>) {
    const auto* object = value.if_object();
    if (object == nullptr) fail_expected(path, "object", value);
    T result;
    for (const auto& member : *object)
      result.emplace(std::string(member.key()),
                     read<typename T::mapped_type>(member.value(), json_path(path, member.key()),
                                                   options));
    return result;
  } else if constexpr (is_variant_v<T>) {
    return read_variant<T>(value, path, options,
                           std::make_index_sequence<std::variant_size_v<T>>{});
  } else if constexpr (described_enum<T>) {
    return read_enum<T>(value, path);
  } else if constexpr (described_struct<T>) {
    return read_struct<T>(value, path, options);
  } else {
    static_assert(convertible_v<T>, "mcp::from_json: this type is not JSON-convertible");
  }
}

// --- writers ------------------------------------------------------------------
// Each writer takes its value as a forwarding reference: an rvalue's members
// are moved into the JSON (a tool result's content is not copied).

/// `member` as an rvalue when its owner is one.
template <class Owner, class Member>
decltype(auto) forward_member(Member& member) {
  if constexpr (std::is_lvalue_reference_v<Owner>)
    return static_cast<const Member&>(member);
  else
    return std::move(member);
}

/// Members that operator== compares without writing them first (a vector's
/// operator== is not constrained, so its items must be checked here).
template <class M>
constexpr bool compared_in_cpp() {
  if constexpr (is_vector_v<M>)
    return compared_in_cpp<typename M::value_type>();
  else
    return json_passthrough<M> || json_number<M> || std::same_as<M, bool> ||
           std::same_as<M, std::string>;
}

/// A default-constructed S, to tell members at their default without writing them.
template <class S>
const S& default_instance() {
  static const S instance{};
  return instance;
}

template <class T>
boost::json::value write_struct(T&& value, const json_path& path) {
  using S = std::remove_cvref_t<T>;
  const auto& infos = member_infos<S>();
  boost::json::object object;
  object.reserve(infos.size());
  std::size_t index = 0;
  boost::mp11::mp_for_each<described_members<S>>([&](auto D) {
    auto& member = value.*D.pointer;
    using M = std::remove_cvref_t<decltype(member)>;
    static_assert(convertible_v<M>,
                  "mcp::to_json_value: a member of this described struct is not JSON-convertible");
    const member_info& info = infos[index++];
    if constexpr (is_optional_v<M>)
      if (!member) return;  // absent, not null
    // Compared in C++ where it can be, so that a member left out costs no JSON value.
    if constexpr (compared_in_cpp<M>()) {
      if (info.omitted_value && member == default_instance<S>().*D.pointer) return;
    }
    if constexpr (json_passthrough<M>) {
      object.emplace(info.key, forward_member<T>(member));  // built in place, not moved twice
    } else {
      auto written = write(forward_member<T>(member), json_path(path, info.key));
      if constexpr (!compared_in_cpp<M>())
        if (info.omitted_value && written == *info.omitted_value) return;
      object.emplace(info.key, std::move(written));
    }
  });
  return object;
}

template <class T>
boost::json::value write(T&& value, const json_path& path) {
  using U = std::remove_cvref_t<T>;
  if constexpr (json_passthrough<U> || std::same_as<U, bool>) {
    return boost::json::value(std::forward<T>(value));
  } else if constexpr (json_number<U>) {
    return number_to_json(value);
  } else if constexpr (std::same_as<U, std::string>) {
    return boost::json::string(value);
  } else if constexpr (is_optional_v<U>) {
    if (!value) return nullptr;
    return write(*std::forward<T>(value), path);
  } else if constexpr (is_vector_v<U>) {
    boost::json::array array;
    array.reserve(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) {
      const json_path item_path(path, i);
      if constexpr (std::same_as<typename U::value_type, bool>)
        array.push_back(static_cast<bool>(value[i]));  // vector<bool> hands out proxies
      else
        array.push_back(write(forward_member<T>(value[i]), item_path));
    }
    return array;
  } else if constexpr (is_string_map_v<U>) {
    boost::json::object object;
    for (auto& [key, item] : value)
      object.emplace(key, write(forward_member<T>(item), json_path(path, key)));
    return object;
  } else if constexpr (is_variant_v<U>) {
    return std::visit([&](auto&& held) { return write(std::forward<decltype(held)>(held), path); },
                      std::forward<T>(value));
  } else if constexpr (described_enum<U>) {
    if (const char* name = boost::describe::enum_to_string(value, nullptr)) return name;
    fail(path, "enum value " +
                   std::to_string(static_cast<std::underlying_type_t<U>>(value)) +
                   " has no described name");
  } else if constexpr (described_struct<U>) {
    return write_struct(std::forward<T>(value), path);
  } else {
    static_assert(convertible_v<U>, "mcp::to_json_value: this type is not JSON-convertible");
  }
}

}  // namespace mcp::detail

namespace mcp {

template <class T>
T from_json(const json::value& value, const read_options& options) {
  static_assert(json_convertible<T>,
                "mcp::from_json<T>: T must be bool, an integer, a floating-point type, "
                "std::string, a Boost.JSON value/object/array/string, a described enum or "
                "struct, or std::optional/std::vector/std::map<std::string, _>/std::variant "
                "of those");
  return detail::read<T>(value, detail::json_path{}, options);
}

template <class T>
  requires detail::described_struct<T>
T from_json(const json::object& object, const read_options& options) {
  return detail::read_members<T>(object, detail::json_path{}, options);
}

template <class T>
json::value to_json_value(T&& value) {
  static_assert(json_convertible<std::remove_cvref_t<T>>,
                "mcp::to_json_value<T>: T must be bool, an integer, a floating-point type, "
                "std::string, a Boost.JSON value/object/array/string, a described enum or "
                "struct, or std::optional/std::vector/std::map<std::string, _>/std::variant "
                "of those");
  return detail::write(std::forward<T>(value), detail::json_path{});
}

}  // namespace mcp
