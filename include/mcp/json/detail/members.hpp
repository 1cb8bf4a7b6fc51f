#pragma once
// What conversion and schema derivation need to know about each member of a
// described struct: its hook metadata, its default and whether it is
// required. Worked out once per type, on first use.

#include <mcp/export.hpp>
#include <mcp/json/conversion_error.hpp>
#include <mcp/json/detail/path.hpp>
#include <mcp/json/detail/traits.hpp>
#include <mcp/json/fields.hpp>
#include <mcp/json/read_options.hpp>

#include <boost/describe/bases.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace mcp::detail {

template <class T>
T read(const boost::json::value& value, const json_path& path, const read_options& options);
template <class T>
boost::json::value write(T&& value, const json_path& path);

struct MCP_API member_info {
  field_metadata metadata;                          ///< from the hook; empty without one
  std::string key;                                  ///< its name in JSON
  std::optional<boost::json::value> default_value;  ///< advertised as the schema's "default"
  /// Set by omit_if_default(): what the member of T{} writes as.
  std::optional<boost::json::value> omitted_value;
  bool required = true;
};

inline constexpr std::size_t no_member = static_cast<std::size_t>(-1);

/// The position of the member `pointer` in T's described members, or no_member.
template <class T, class Pointer>
std::size_t member_index(Pointer pointer) {
  std::size_t index = 0;
  std::size_t found = no_member;
  boost::mp11::mp_for_each<described_members<T>>([&](auto D) {
    if constexpr (std::is_same_v<std::remove_cv_t<decltype(D.pointer)>, Pointer>)
      if (D.pointer == pointer) found = index;
    ++index;
  });
  return found;
}

/// Copies the metadata of Hooked's mcp_fields into the infos of Target's
/// members. Target's own hook must name only described members; a base's hook
/// may name a member that Target hides.
template <class Hooked, class Target>
void apply_fields_hook(std::vector<member_info>& infos) {
  const auto descriptors = mcp_fields(type_t<Hooked>{});
  std::apply(
      [&](const auto&... descriptor) {
        (
            [&] {
              const auto index = member_index<Target>(descriptor.pointer());
              if (index != no_member)
                infos[index].metadata = descriptor.metadata();
              else if (std::is_same_v<Hooked, Target>)
                throw std::logic_error(
                    "mcp_fields names a member that BOOST_DESCRIBE_STRUCT does not list");
            }(),
            ...);
      },
      descriptors);
}

/// Bases first, so that a derived type's hook overrides its bases'.
template <class T, class Target>
void apply_fields_hooks(std::vector<member_info>& infos) {
  if constexpr (boost::describe::has_describe_bases<T>::value)
    boost::mp11::mp_for_each<boost::describe::describe_bases<T, boost::describe::mod_public>>(
        [&](auto B) { apply_fields_hooks<typename decltype(B)::type, Target>(infos); });
  if constexpr (has_fields_hook<T>) apply_fields_hook<T, Target>(infos);
}

/// True when `value`, taken from a default-constructed struct, differs from
/// a value-initialized M: the struct gives the member a default of its own.
template <class M>
bool has_meaningful_default(const M& value) {
  if constexpr (std::is_arithmetic_v<M> || std::is_enum_v<M>)
    return value != M{};  // no JSON detour: an enum's zero may have no name
  else
    return write(value, json_path{}) != write(M{}, json_path{});
}

template <class T>
std::vector<member_info> make_member_infos() {
  std::vector<member_info> infos(boost::mp11::mp_size<described_members<T>>::value);
  apply_fields_hooks<T, T>(infos);
  const T defaults{};
  std::size_t index = 0;
  boost::mp11::mp_for_each<described_members<T>>([&](auto D) {
    using M = std::remove_cvref_t<decltype(defaults.*D.pointer)>;
    member_info& info = infos[index++];
    info.key = info.metadata.key.empty() ? std::string(D.name) : info.metadata.key;
    if (info.metadata.omit_if_default) info.omitted_value = write(defaults.*D.pointer, json_path{});
    if (const auto& given = info.metadata.default_value) {
      try {
        (void)read<M>(*given, json_path{}, read_options{});
      } catch (const conversion_error& e) {
        throw std::logic_error(std::string("mcp_fields: the default of \"") + D.name +
                               "\" does not convert: " + e.what());
      }
      info.default_value = given;
    } else if (has_meaningful_default(defaults.*D.pointer)) {
      info.default_value = write(defaults.*D.pointer, json_path{});
    }
    info.required = info.metadata.required.value_or(!is_optional_v<M> && !info.default_value &&
                                                    !info.metadata.omit_if_default);
  });
  return infos;
}

/// The infos of T's described members, in declaration order (bases first).
template <class T>
const std::vector<member_info>& member_infos() {
  static const std::vector<member_info> infos = make_member_infos<T>();
  return infos;
}

}  // namespace mcp::detail
