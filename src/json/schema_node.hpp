#pragma once
// The compiled form of a JSON Schema: one node per (sub)schema, each keyword
// parsed and checked once, regular expressions compiled, $refs resolved to
// the node they point at.

#include "ecmascript_regex.hpp"

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcp::detail {

/// The instance types of the "type" keyword, as bits.
enum type_bits : unsigned {
  null_type = 1u << 0,
  boolean_type = 1u << 1,
  object_type = 1u << 2,
  array_type = 1u << 3,
  number_type = 1u << 4,
  string_type = 1u << 5,
  integer_type = 1u << 6,
};

struct schema_node {
  std::string location;        ///< JSON pointer of this schema in the document
  std::optional<bool> verdict;  ///< set for the boolean schemas true and false

  unsigned types = 0;  ///< type_bits; 0 when there is no "type"
  std::string type_names;  ///< "string or null", for messages
  std::optional<boost::json::array> allowed_values;  ///< enum
  std::optional<boost::json::value> constant;        ///< const
  const schema_node* ref = nullptr;

  std::vector<const schema_node*> all_of, any_of, one_of;
  const schema_node* negated = nullptr;  ///< not
  const schema_node* condition = nullptr;
  const schema_node* then_branch = nullptr;
  const schema_node* else_branch = nullptr;

  std::optional<boost::json::value> minimum, maximum, exclusive_minimum, exclusive_maximum;
  std::optional<boost::json::value> multiple_of;

  std::optional<std::size_t> min_length, max_length;
  std::optional<compiled_regex> pattern;

  std::vector<const schema_node*> prefix_items;  ///< prefixItems, or draft-07 array-form items
  const schema_node* items = nullptr;            ///< every item after prefix_items
  std::optional<std::size_t> min_items, max_items;
  bool unique_items = false;
  const schema_node* contains = nullptr;
  std::size_t min_contains = 1;
  std::optional<std::size_t> max_contains;

  std::map<std::string, const schema_node*, std::less<>> properties;
  std::vector<std::pair<compiled_regex, const schema_node*>> pattern_properties;
  const schema_node* additional_properties = nullptr;
  std::vector<std::string> required;
  std::optional<std::size_t> min_properties, max_properties;
  std::vector<std::pair<std::string, std::vector<std::string>>> dependent_required;
  std::vector<std::pair<std::string, const schema_node*>> dependent_schemas;
  const schema_node* property_names = nullptr;

  /// Which groups of keywords this node has (keyword_group bits), set once
  /// compiled: the evaluator runs only those, not every check on every node.
  unsigned keyword_groups = 0;
};

/// The groups of keywords the evaluator checks one function each.
enum keyword_group : unsigned {
  generic_keywords = 1u << 0,      ///< type, enum, const
  number_keywords = 1u << 1,       ///< minimum, maximum, exclusive*, multipleOf
  string_keywords = 1u << 2,       ///< minLength, maxLength, pattern
  array_keywords = 1u << 3,        ///< items, prefixItems, min/maxItems, uniqueItems, contains
  object_keywords = 1u << 4,       ///< properties, required, additionalProperties, ...
  combinator_keywords = 1u << 5,   ///< $ref, allOf, anyOf, oneOf, not, if
};

/// The keyword_group bits of a compiled node.
unsigned keyword_groups_of(const schema_node& node);

struct compiled_schema {
  std::deque<schema_node> nodes;  ///< a deque: nodes point at each other, so they never move
  const schema_node* root = nullptr;
  std::vector<std::string> unsupported_keywords;
};

}  // namespace mcp::detail
