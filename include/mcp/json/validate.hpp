#pragma once
// A JSON Schema validator for the 2020-12 keywords that tool schemas use, with
// draft-07's forms of items/additionalItems, definitions and dependencies.
// The schema is compiled once; validation collects every error, each with the
// JSON pointer of the offending place in the instance.
//
// Supported: type, enum, const; minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, multipleOf; minLength, maxLength (in code points), pattern
// (ECMAScript, found anywhere in the string); items, prefixItems,
// additionalItems, minItems, maxItems, uniqueItems, contains, minContains,
// maxContains; properties, patternProperties, additionalProperties, required,
// minProperties, maxProperties, propertyNames, dependentRequired,
// dependentSchemas, dependencies; allOf, anyOf, oneOf, not, if/then/else;
// $ref to any JSON pointer in the same document ("#", "#/$defs/x",
// "#/definitions/x", ...), $defs, definitions; true and false as schemas.
//
// Annotations, ignored: $schema, $id (at the root), $comment, title,
// description, default, examples, deprecated, readOnly, writeOnly,
// contentMediaType, contentEncoding, contentSchema, $vocabulary, and format (an
// annotation by default in 2020-12). Keywords no version of JSON Schema
// defines are ignored, as the specification says.
//
// Not supported, and listed by unsupported_keywords() where the schema uses
// them so that the caller can warn: unevaluatedProperties, unevaluatedItems,
// $dynamicRef, $dynamicAnchor, $recursiveRef, $recursiveAnchor, $anchor,
// $id below the root, and the draft-04 boolean exclusiveMinimum/exclusiveMaximum.
// Those keywords are skipped when validating.

#include <mcp/export.hpp>

#include <boost/json/value.hpp>

#include <memory>
#include <string>
#include <vector>

namespace mcp {

namespace json = boost::json;

namespace detail {
struct compiled_schema;
}

/// One reason an instance does not match a schema.
struct MCP_API validation_error {
  std::string pointer;  ///< JSON pointer (RFC 6901) into the instance; "" is the root
  std::string message;  ///< e.g. "must be <= 7", "is required", "expected integer, got string"

  /// "<pointer>: <message>", or the message alone at the root.
  std::string to_string() const;

  /// Same pointer, same message.
  friend bool operator==(const validation_error&, const validation_error&) = default;
};

/// A compiled JSON Schema.
///
/// @par Thread safety
/// A schema_validator does not change after construction: validate() may run
/// on many threads at once, and copies share the compiled form.
class MCP_API schema_validator {
 public:
  /// Compiles `schema` (an object or a boolean).
  /// @throws mcp::invalid_argument for a malformed schema: a keyword with a value of the
  ///         wrong type, a regular expression that does not compile, a $ref that is not a
  ///         local JSON pointer or points at nothing, or a $ref cycle that never reaches
  ///         the instance. The message starts with the schema path.
  explicit schema_validator(json::value schema);

  /// Every way `instance` fails the schema; empty when it matches.
  std::vector<validation_error> validate(const json::value& instance) const;

  /// Keywords the schema uses that this validator does not implement, as
  /// JSON pointers into the schema (e.g. "/properties/tags/unevaluatedItems").
  const std::vector<std::string>& unsupported_keywords() const;

 private:
  std::shared_ptr<const detail::compiled_schema> compiled_;
};

}  // namespace mcp
