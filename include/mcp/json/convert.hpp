#pragma once
// Conversion between JSON values and C++ types, with errors that say where
// (a JSON pointer) and why. Boost.JSON parses and serializes; the mapping
// between its values and C++ types is ours, because Boost.JSON 1.81 rejects a
// described struct with a missing std::optional member or an extra key.
//
// Types, both ways:
//   bool                         boolean
//   integers                     integer; range-checked (300 does not fit std::uint8_t),
//                                3.0 is accepted, 3.5 is not. Character types are not numbers.
//   float, double, long double   number
//   std::string                  string
//   std::optional<T>             T, or absent: null reads as absent too, nullopt is written
//                                as absent (as null when it is the whole value)
//   std::vector<T>               array
//   std::map<std::string, T>     object
//   std::variant<Ts...>          read: the first alternative that converts, in order;
//                                written: the alternative held
//   described enums              the enumerator's name (BOOST_DESCRIBE_ENUM)
//   described structs            object (BOOST_DESCRIBE_STRUCT; public members, bases' included)
//   boost::json::value, object, array, string: copied as they are
//
// Described structs, when read:
//   - a member absent from the input keeps its value in a default-constructed T
//     (`int days = 1;` reads as 1), or takes the default given by the mcp_fields hook;
//   - a member is required unless it is a std::optional, or T{} gives it a value other
//     than a value-initialized member (a default of its own), or the hook gives it a
//     default or says .not_required(); .required() forces it;
//   - null reads as absent for a member the hook marks .omit_if_default();
//   - keys the struct does not describe are ignored;
//   - a member is read from the key its hook gives (.key("inputSchema")), else its name.
// Described structs, when written: members in the order BOOST_DESCRIBE_STRUCT
// lists them, absent optionals and .omit_if_default() members at their
// default left out.
// Bounds, lengths and patterns from the hook are not checked here: they are
// part of schema_of<T>(), which schema_validator checks (the server does both).

#include <mcp/json/conversion_error.hpp>
#include <mcp/json/detail/traits.hpp>
#include <mcp/json/fields.hpp>
#include <mcp/json/read_options.hpp>

#include <boost/json/value.hpp>

namespace mcp {

namespace json = boost::json;

/// The types from_json and to_json_value accept (see the table above). For a
/// described struct the check is shallow: its members are checked, with a
/// static_assert, where it is converted.
template <class T>
concept json_convertible = detail::convertible_v<T>;

/// Reads a T from `value`.
/// @throws conversion_error naming the first offending place, e.g.
///         "/items/2/name: is required" or "/days: expected integer, got string".
template <class T>
T from_json(const json::value& value, const read_options& options = {});

/// Reads a described struct from an object it was handed as one (a tool's
/// `arguments`), without copying it into a json::value first.
template <class T>
  requires detail::described_struct<T>
T from_json(const json::object& object, const read_options& options = {});

/// Writes `value` as JSON; an rvalue's JSON values and objects are moved, not copied.
/// @throws conversion_error only for an enum value that has no described name.
template <class T>
json::value to_json_value(T&& value);

}  // namespace mcp

#include <mcp/json/impl/convert.hpp>
