#pragma once
// JSON Schema derived from the C++ types that mcp/json/convert.hpp converts,
// so that one struct is the single source of truth for a tool's schema,
// validation and parsing.
//
// The schema uses the 2020-12 dialect but only keywords that draft-07 also
// understands, and carries no "$schema". Per type:
//   bool                          {"type":"boolean"}
//   integers                      {"type":"integer"}; unsigned adds "minimum":0, types narrower
//                                 than 64 bits add their whole range
//   floating point                {"type":"number"}
//   std::string, json::string     {"type":"string"}
//   std::optional<T>              T's schema (the member is left out of "required")
//   std::vector<T>                {"type":"array","items":T}
//   std::map<std::string, T>      {"type":"object","additionalProperties":T}
//   std::variant<Ts...>           {"anyOf":[Ts...]}: from_json takes the first alternative that
//                                 converts, so a value may match several (3 is an int and a double)
//   described enum                {"type":"string","enum":[names]}
//   described struct              {"type":"object","properties":{...},"required":[...]}: properties
//                                 in BOOST_DESCRIBE_STRUCT's order, "required" left out when
//                                 empty, a member's default as "default"; unknown keys are
//                                 allowed (and ignored)
//   json::value                   {}
//   json::object, json::array     {"type":"object"}, {"type":"array"}
// The mcp_fields hook adds, per member: title, description, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern, format,
// minItems, maxItems, enum and default; mcp_title/mcp_description add a type's
// title and description. Output is deterministic, so it can be compared to a golden.
//
// A type that contains itself (a tree node) has no derived schema: that is a
// compile-time error.

#include <mcp/json/convert.hpp>

#include <boost/json/object.hpp>

namespace mcp {

namespace json = boost::json;

/// The JSON Schema of T.
template <class T>
json::object schema_of();

}  // namespace mcp

#include <mcp/json/impl/schema.hpp>
