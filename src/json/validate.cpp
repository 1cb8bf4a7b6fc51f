// The JSON Schema validator: a compiler from schema JSON to schema_node
// trees (run once, in the constructor), and an evaluator that walks a node
// tree and an instance together, collecting errors.
//
// Regular expressions: ecmascript_regex.hpp says why they are not std::regex.

#include <mcp/error.hpp>
#include <mcp/json/validate.hpp>

#include <mcp/json/detail/kind_name.hpp>
#include <mcp/json/detail/path.hpp>

#include "ecmascript_regex.hpp"
#include "json_pointer.hpp"
#include "json_values.hpp"
#include "schema_node.hpp"

#include <boost/regex.hpp>

#include <algorithm>
#include <limits>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace mcp {

namespace detail {
namespace {

[[noreturn]] void invalid(const std::string& at, const std::string& problem) {
  throw mcp::invalid_argument(at.empty() ? problem : at + ": " + problem);
}

std::string child(const std::string& location, std::string_view token) {
  std::string out = location;
  append_pointer_token(out, token);
  return out;
}

// --- keyword values -------------------------------------------------------------

constexpr std::array<std::string_view, 16> annotation_keywords{
    "$schema",    "$comment",         "title",           "description",
    "default",    "examples",         "deprecated",      "readOnly",
    "writeOnly",  "contentMediaType", "contentEncoding", "contentSchema",
    "format",     "$vocabulary",      "$defs",           "definitions"};

constexpr std::array<std::string_view, 7> unsupported_keywords{
    "unevaluatedProperties", "unevaluatedItems", "$dynamicRef",   "$dynamicAnchor",
    "$recursiveRef",         "$recursiveAnchor", "$anchor"};

template <std::size_t N>
bool is_one_of(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

json::value number_of(const json::value& value, const std::string& at) {
  if (!value.is_number()) invalid(at, "must be a number");
  return value;
}

std::size_t count_of(const json::value& value, const std::string& at) {
  if (!is_integral_number(value) || number_value(value) < 0)
    invalid(at, "must be a non-negative integer");
  // A count no instance can reach (`"maxLength": 1e300`) means the largest one.
  constexpr auto largest = std::numeric_limits<std::size_t>::max();
  const double count = number_value(value);
  return count >= static_cast<double>(largest) ? largest : static_cast<std::size_t>(count);
}

bool bool_of(const json::value& value, const std::string& at) {
  if (!value.is_bool()) invalid(at, "must be a boolean");
  return value.get_bool();
}

const json::object& object_of(const json::value& value, const std::string& at) {
  if (!value.is_object()) invalid(at, "must be an object");
  return value.get_object();
}

std::vector<std::string> strings_of(const json::value& value, const std::string& at) {
  if (!value.is_array()) invalid(at, "must be an array of strings");
  std::vector<std::string> out;
  for (const auto& item : value.get_array()) {
    if (!item.is_string()) invalid(at, "must be an array of strings");
    out.emplace_back(item.get_string());
  }
  return out;
}

unsigned type_bit(std::string_view name, const std::string& at) {
  constexpr std::array<std::pair<std::string_view, unsigned>, 7> names{{
      {"null", null_type},
      {"boolean", boolean_type},
      {"object", object_type},
      {"array", array_type},
      {"number", number_type},
      {"string", string_type},
      {"integer", integer_type},
  }};
  for (const auto& [type_name, bit] : names)
    if (type_name == name) return bit;
  invalid(at, "unknown type \"" + std::string(name) + "\"");
}

/// The type bits of "type", and their names joined for messages.
unsigned type_mask(const json::value& value, const std::string& at, std::string& names) {
  if (const auto* name = value.if_string()) {
    names = *name;
    return type_bit(*name, at);
  }
  if (!value.is_array() || value.get_array().empty())
    invalid(at, "must be a type name or a non-empty array of them");
  unsigned mask = 0;
  for (const auto& item : value.get_array()) {
    if (!item.is_string()) invalid(at, "must be a type name or a non-empty array of them");
    mask |= type_bit(item.get_string(), at);
    names += names.empty() ? "" : " or ";
    names += item.get_string();
  }
  return mask;
}

compiled_regex make_regex(std::string_view source, const std::string& at) {
  try {
    return compile_ecmascript_regex(source);
  } catch (const boost::regex_error& e) {
    invalid(at, "invalid regular expression " + std::string(source) + ": " + e.what());
  }
}

// --- the compiler --------------------------------------------------------------------

class schema_compiler {
 public:
  schema_compiler(const json::value& document, compiled_schema& out)
      : document_(document), out_(out) {}

  /// The node of the schema at `location`, compiled on first sight. A node is
  /// registered before its keywords are compiled, so $ref cycles terminate.
  const schema_node* compile(const json::value& schema, const std::string& location) {
    if (const auto known = by_location_.find(location); known != by_location_.end())
      return known->second;
    schema_node& node = out_.nodes.emplace_back();
    node.location = location;
    by_location_.emplace(location, &node);
    if (const auto* verdict = schema.if_bool()) {
      node.verdict = *verdict;
      return &node;
    }
    const auto* object = schema.if_object();
    if (object == nullptr) invalid(location, "a schema must be an object or a boolean");
    for (const auto& keyword : *object)
      compile_keyword(node, keyword.key(), keyword.value(), child(location, keyword.key()));
    compile_items(node, *object);
    return &node;
  }

 private:
  void note_unsupported(const std::string& at) { out_.unsupported_keywords.push_back(at); }

  std::vector<const schema_node*> schema_list(const json::value& value, const std::string& at,
                                              bool may_be_empty = false) {
    if (!value.is_array() || (!may_be_empty && value.get_array().empty()))
      invalid(at, may_be_empty ? "must be an array of schemas"
                               : "must be a non-empty array of schemas");
    std::vector<const schema_node*> out;
    const auto& array = value.get_array();
    for (std::size_t i = 0; i < array.size(); ++i)
      out.push_back(compile(array[i], child(at, std::to_string(i))));
    return out;
  }

  void compile_keyword(schema_node& node, std::string_view keyword, const json::value& value,
                       const std::string& at) {
    if (is_one_of(annotation_keywords, keyword)) return;
    if (is_one_of(unsupported_keywords, keyword)) return note_unsupported(at);
    // A root $id only names the document; below the root it would start a new
    // resource that relative $refs resolve against, which we do not track.
    if (keyword == "$id") {
      if (!node.location.empty()) note_unsupported(at);
    } else if (keyword == "type") {
      node.types = type_mask(value, at, node.type_names);
    } else if (keyword == "enum") {
      if (!value.is_array()) invalid(at, "must be an array");
      node.allowed_values = value.get_array();
    } else if (keyword == "const") {
      node.constant = value;
    } else if (keyword == "$ref") {
      node.ref = resolve_ref(value, at);
    } else if (keyword == "allOf") {
      node.all_of = schema_list(value, at);
    } else if (keyword == "anyOf") {
      node.any_of = schema_list(value, at);
    } else if (keyword == "oneOf") {
      node.one_of = schema_list(value, at);
    } else if (keyword == "not") {
      node.negated = compile(value, at);
    } else if (keyword == "if") {
      node.condition = compile(value, at);
    } else if (keyword == "then") {
      node.then_branch = compile(value, at);
    } else if (keyword == "else") {
      node.else_branch = compile(value, at);
    } else if (keyword == "minimum") {
      node.minimum = number_of(value, at);
    } else if (keyword == "maximum") {
      node.maximum = number_of(value, at);
    } else if (keyword == "exclusiveMinimum" || keyword == "exclusiveMaximum") {
      if (value.is_bool()) return note_unsupported(at);  // draft-04's form
      (keyword == "exclusiveMinimum" ? node.exclusive_minimum : node.exclusive_maximum) =
          number_of(value, at);
    } else if (keyword == "multipleOf") {
      node.multiple_of = number_of(value, at);
      if (number_value(value) <= 0) invalid(at, "must be greater than 0");
    } else if (keyword == "minLength") {
      node.min_length = count_of(value, at);
    } else if (keyword == "maxLength") {
      node.max_length = count_of(value, at);
    } else if (keyword == "pattern") {
      if (!value.is_string()) invalid(at, "must be a string");
      node.pattern = make_regex(value.get_string(), at);
    } else if (keyword == "minItems") {
      node.min_items = count_of(value, at);
    } else if (keyword == "maxItems") {
      node.max_items = count_of(value, at);
    } else if (keyword == "uniqueItems") {
      node.unique_items = bool_of(value, at);
    } else if (keyword == "contains") {
      node.contains = compile(value, at);
    } else if (keyword == "minContains") {
      node.min_contains = count_of(value, at);
    } else if (keyword == "maxContains") {
      node.max_contains = count_of(value, at);
    } else if (keyword == "properties") {
      for (const auto& property : object_of(value, at))
        node.properties.emplace(property.key(),
                                compile(property.value(), child(at, property.key())));
    } else if (keyword == "patternProperties") {
      for (const auto& property : object_of(value, at)) {
        const auto property_at = child(at, property.key());
        node.pattern_properties.emplace_back(make_regex(property.key(), property_at),
                                             compile(property.value(), property_at));
      }
    } else if (keyword == "additionalProperties") {
      node.additional_properties = compile(value, at);
    } else if (keyword == "required") {
      node.required = strings_of(value, at);
    } else if (keyword == "minProperties") {
      node.min_properties = count_of(value, at);
    } else if (keyword == "maxProperties") {
      node.max_properties = count_of(value, at);
    } else if (keyword == "dependentRequired") {
      for (const auto& entry : object_of(value, at))
        node.dependent_required.emplace_back(entry.key(),
                                             strings_of(entry.value(), child(at, entry.key())));
    } else if (keyword == "dependentSchemas") {
      for (const auto& entry : object_of(value, at))
        node.dependent_schemas.emplace_back(entry.key(),
                                            compile(entry.value(), child(at, entry.key())));
    } else if (keyword == "dependencies") {  // draft-07's dependentRequired + dependentSchemas
      for (const auto& entry : object_of(value, at)) {
        const auto entry_at = child(at, entry.key());
        if (entry.value().is_array())
          node.dependent_required.emplace_back(entry.key(), strings_of(entry.value(), entry_at));
        else
          node.dependent_schemas.emplace_back(entry.key(), compile(entry.value(), entry_at));
      }
    } else if (keyword == "propertyNames") {
      node.property_names = compile(value, at);
    }
    // items, prefixItems and additionalItems depend on each other: compile_items.
    // Any other keyword is unknown to JSON Schema, hence an annotation.
  }

  /// prefixItems and items (2020-12), or items as an array and additionalItems (draft-07).
  void compile_items(schema_node& node, const json::object& schema) {
    const auto* prefix = schema.if_contains("prefixItems");
    if (prefix != nullptr)
      node.prefix_items = schema_list(*prefix, child(node.location, "prefixItems"));
    const auto* items = schema.if_contains("items");
    if (items == nullptr) return;  // draft-07 ignores additionalItems without items
    const auto items_at = child(node.location, "items");
    if (!items->is_array()) {
      node.items = compile(*items, items_at);
      return;
    }
    if (prefix != nullptr)
      invalid(items_at, "an array of schemas (draft-07) cannot be combined with prefixItems");
    node.prefix_items = schema_list(*items, items_at, true);
    if (const auto* additional = schema.if_contains("additionalItems"))
      node.items = compile(*additional, child(node.location, "additionalItems"));
  }

  const schema_node* resolve_ref(const json::value& value, const std::string& at) {
    if (!value.is_string()) invalid(at, "must be a string");
    const std::string_view ref = value.get_string();
    const std::string cannot_resolve = "cannot resolve \"" + std::string(ref) + "\": ";
    if (!ref.empty() && ref.front() != '#')
      invalid(at, cannot_resolve + "only references into this document (#...) are supported");
    const std::string_view fragment = ref.empty() ? ref : ref.substr(1);
    if (!fragment.empty() && fragment.front() != '/' && fragment.front() != '%')
      invalid(at, cannot_resolve + "anchors are not supported");
    const auto tokens = pointer_tokens(fragment);
    if (!tokens) invalid(at, cannot_resolve + "not a JSON pointer");
    const json::value* target = follow_pointer(document_, *tokens);
    if (target == nullptr) invalid(at, cannot_resolve + "nothing is there");
    std::string location;
    for (const auto& token : *tokens) append_pointer_token(location, token);
    return compile(*target, location);
  }

  const json::value& document_;
  compiled_schema& out_;
  std::unordered_map<std::string, const schema_node*> by_location_;
};

/// Subschemas that apply to the same instance as their parent. A cycle of
/// these (say, {"$ref":"#"} inside the root's anyOf) would never finish.
std::vector<const schema_node*> in_place_subschemas(const schema_node& node) {
  std::vector<const schema_node*> out{node.ref, node.negated, node.condition, node.then_branch,
                                      node.else_branch};
  out.insert(out.end(), node.all_of.begin(), node.all_of.end());
  out.insert(out.end(), node.any_of.begin(), node.any_of.end());
  out.insert(out.end(), node.one_of.begin(), node.one_of.end());
  for (const auto& entry : node.dependent_schemas) out.push_back(entry.second);
  std::erase(out, nullptr);
  return out;
}

enum class visit_mark { in_progress, done };

void reject_in_place_cycles(const schema_node& node,
                            std::unordered_map<const schema_node*, visit_mark>& marks) {
  const auto [mark, first_visit] = marks.emplace(&node, visit_mark::in_progress);
  if (!first_visit) {
    if (mark->second == visit_mark::in_progress)
      invalid(node.location, "$ref cycle that never reaches a part of the instance");
    return;
  }
  for (const auto* next : in_place_subschemas(node)) reject_in_place_cycles(*next, marks);
  mark->second = visit_mark::done;
}

}  // namespace

unsigned keyword_groups_of(const schema_node& n) {
  unsigned groups = 0;
  if (n.types != 0 || n.allowed_values || n.constant) groups |= generic_keywords;
  if (n.minimum || n.maximum || n.exclusive_minimum || n.exclusive_maximum || n.multiple_of)
    groups |= number_keywords;
  if (n.min_length || n.max_length || n.pattern) groups |= string_keywords;
  if (!n.prefix_items.empty() || n.items || n.min_items || n.max_items || n.unique_items || n.contains)
    groups |= array_keywords;
  if (!n.properties.empty() || !n.pattern_properties.empty() || n.additional_properties ||
      !n.required.empty() || n.min_properties || n.max_properties || !n.dependent_required.empty() ||
      !n.dependent_schemas.empty() || n.property_names)
    groups |= object_keywords;
  if (n.ref || !n.all_of.empty() || !n.any_of.empty() || !n.one_of.empty() || n.negated || n.condition ||
      n.then_branch || n.else_branch)
    groups |= combinator_keywords;
  return groups;
}

namespace {

// --- the evaluator -----------------------------------------------------------------

/// Collects errors, or, when nobody wants them (a branch of anyOf being
/// tried), only remembers that one happened so that evaluation can stop.
class error_sink {
 public:
  explicit error_sink(std::vector<validation_error>* errors) : errors_(errors) {}

  void add(const json_path& path, std::string message) {
    failed_ = true;
    if (errors_ != nullptr) errors_->push_back({path.pointer(), std::move(message)});
  }
  /// Records the outcome of a subschema that reported its own errors to errors().
  void merge(bool matched) { failed_ = failed_ || !matched; }

  std::vector<validation_error>* errors() const { return errors_; }
  bool failed() const { return failed_; }
  bool done() const { return failed_ && errors_ == nullptr; }

 private:
  std::vector<validation_error>* errors_;
  bool failed_ = false;
};

bool matches(const schema_node& node, const json::value& instance, const json_path& path,
             std::vector<validation_error>* errors);

unsigned instance_type_bits(const json::value& instance) {
  switch (instance.kind()) {
    case json::kind::null: return null_type;
    case json::kind::bool_: return boolean_type;
    case json::kind::string: return string_type;
    case json::kind::array: return array_type;
    case json::kind::object: return object_type;
    default: return is_integral_number(instance) ? number_type | integer_type : number_type;
  }
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

void check_generic(const schema_node& node, const json::value& instance, const json_path& path,
                   error_sink& sink) {
  if (node.types != 0 && (instance_type_bits(instance) & node.types) == 0)
    sink.add(path, "expected " + node.type_names + ", got " + std::string(kind_name(instance)));
  if (node.allowed_values &&
      std::none_of(node.allowed_values->begin(), node.allowed_values->end(),
                   [&](const json::value& v) { return json_equal(v, instance); })) {
    std::string list;
    for (const auto& v : *node.allowed_values) list += (list.empty() ? "" : ", ") + format_value(v);
    sink.add(path, "must be one of [" + list + "]");
  }
  if (node.constant && !json_equal(*node.constant, instance))
    sink.add(path, "must be " + format_value(*node.constant));
}

bool is_multiple_of(const json::value& x, const json::value& divisor) {
  const long double q = number_value(x) / number_value(divisor);
  if (!std::isfinite(q)) return false;
  if (is_integral_number(x) && is_integral_number(divisor))
    return std::fmod(number_value(x), number_value(divisor)) == 0;
  // Binary fractions: 0.3 / 0.1 is 2.9999999999999998890, which should count as 3.
  return std::fabs(q - std::round(q)) <= 1e-9L * std::max(1.0L, std::fabs(q));
}

void check_number(const schema_node& node, const json::value& instance, const json_path& path,
                  error_sink& sink) {
  if (!instance.is_number()) return;
  const long double x = number_value(instance);
  if (node.minimum && x < number_value(*node.minimum))
    sink.add(path, "must be >= " + format_number(*node.minimum));
  if (node.maximum && x > number_value(*node.maximum))
    sink.add(path, "must be <= " + format_number(*node.maximum));
  if (node.exclusive_minimum && x <= number_value(*node.exclusive_minimum))
    sink.add(path, "must be > " + format_number(*node.exclusive_minimum));
  if (node.exclusive_maximum && x >= number_value(*node.exclusive_maximum))
    sink.add(path, "must be < " + format_number(*node.exclusive_maximum));
  if (node.multiple_of && !is_multiple_of(instance, *node.multiple_of))
    sink.add(path, "must be a multiple of " + format_number(*node.multiple_of));
}

void check_string(const schema_node& node, const json::value& instance, const json_path& path,
                  error_sink& sink) {
  const auto* text = instance.if_string();
  if (text == nullptr) return;
  if (node.min_length || node.max_length) {
    const auto length = code_point_count(*text);
    if (node.min_length && length < *node.min_length)
      sink.add(path, "must be at least " + plural(*node.min_length, "character", "characters") +
                         " long");
    if (node.max_length && length > *node.max_length)
      sink.add(path, "must be at most " + plural(*node.max_length, "character", "characters") +
                         " long");
  }
  if (node.pattern) {
    const auto result = search(*node.pattern, *text);
    if (result == search_result::not_found)
      sink.add(path, "must match pattern " + node.pattern->source);
    else if (result == search_result::too_complex)
      sink.add(path, "is too complex to match against pattern " + node.pattern->source);
  }
}

void check_array(const schema_node& node, const json::value& instance, const json_path& path,
                 error_sink& sink) {
  const auto* array = instance.if_array();
  if (array == nullptr) return;
  for (std::size_t i = 0; i < array->size() && !sink.done(); ++i) {
    const schema_node* item = i < node.prefix_items.size() ? node.prefix_items[i] : node.items;
    if (item != nullptr) sink.merge(matches(*item, (*array)[i], json_path(path, i), sink.errors()));
  }
  if (node.min_items && array->size() < *node.min_items)
    sink.add(path, "must have at least " + plural(*node.min_items, "item", "items"));
  if (node.max_items && array->size() > *node.max_items)
    sink.add(path, "must have at most " + plural(*node.max_items, "item", "items"));
  if (node.unique_items) {
    bool reported = false;
    for (std::size_t i = 0; i < array->size() && !reported; ++i)
      for (std::size_t j = i + 1; j < array->size() && !reported; ++j)
        if (json_equal((*array)[i], (*array)[j])) {
          sink.add(path, "must have unique items (items " + std::to_string(i) + " and " +
                             std::to_string(j) + " are equal)");
          reported = true;
        }
  }
  if (node.contains != nullptr) {
    const auto count = static_cast<std::size_t>(
        std::count_if(array->begin(), array->end(), [&](const json::value& item) {
          return matches(*node.contains, item, path, nullptr);
        }));
    if (count < node.min_contains)
      sink.add(path, "must contain at least " + plural(node.min_contains, "item", "items") +
                         " matching contains");
    if (node.max_contains && count > *node.max_contains)
      sink.add(path, "must contain at most " + plural(*node.max_contains, "item", "items") +
                         " matching contains");
  }
}

void check_property_name(const schema_node& names, std::string_view key,
                         const json_path& key_path, error_sink& sink) {
  std::vector<validation_error> key_errors;
  const json::value key_value(key);
  const bool ok = matches(names, key_value, json_path{}, sink.errors() ? &key_errors : nullptr);
  sink.merge(ok);
  for (auto& e : key_errors) sink.add(key_path, "property name " + e.message);
}

void check_object(const schema_node& node, const json::value& instance, const json_path& path,
                  error_sink& sink) {
  const auto* object = instance.if_object();
  if (object == nullptr) return;
  for (const auto& member : *object) {
    if (sink.done()) return;
    const json_path member_path(path, member.key());
    bool described = false;
    if (const auto property = node.properties.find(member.key());
        property != node.properties.end()) {
      described = true;
      sink.merge(matches(*property->second, member.value(), member_path, sink.errors()));
    }
    for (const auto& [pattern, schema] : node.pattern_properties) {
      const auto result = search(pattern, member.key());
      if (result == search_result::too_complex)
        sink.add(member_path, "is too complex to match against pattern " + pattern.source);
      if (result != search_result::found) continue;
      described = true;
      sink.merge(matches(*schema, member.value(), member_path, sink.errors()));
    }
    if (!described && node.additional_properties != nullptr)
      sink.merge(matches(*node.additional_properties, member.value(), member_path, sink.errors()));
    if (node.property_names != nullptr)
      check_property_name(*node.property_names, member.key(), member_path, sink);
  }
  for (const auto& name : node.required)
    if (!object->contains(name)) sink.add(json_path(path, name), "is required");
  if (node.min_properties && object->size() < *node.min_properties)
    sink.add(path, "must have at least " + plural(*node.min_properties, "property", "properties"));
  if (node.max_properties && object->size() > *node.max_properties)
    sink.add(path, "must have at most " + plural(*node.max_properties, "property", "properties"));
  for (const auto& [trigger, names] : node.dependent_required) {
    if (!object->contains(trigger)) continue;
    for (const auto& name : names)
      if (!object->contains(name))
        sink.add(json_path(path, name), "is required when \"" + trigger + "\" is present");
  }
  for (const auto& [trigger, schema] : node.dependent_schemas)
    if (object->contains(trigger)) sink.merge(matches(*schema, instance, path, sink.errors()));
}

void check_combinators(const schema_node& node, const json::value& instance,
                       const json_path& path, error_sink& sink) {
  if (node.ref != nullptr) sink.merge(matches(*node.ref, instance, path, sink.errors()));
  for (const auto* schema : node.all_of)
    sink.merge(matches(*schema, instance, path, sink.errors()));
  if (!node.any_of.empty() &&
      std::none_of(node.any_of.begin(), node.any_of.end(), [&](const schema_node* schema) {
        return matches(*schema, instance, path, nullptr);
      }))
    sink.add(path, "must match at least one schema in anyOf");
  if (!node.one_of.empty()) {
    const auto count = std::count_if(node.one_of.begin(), node.one_of.end(),
                                     [&](const schema_node* schema) {
                                       return matches(*schema, instance, path, nullptr);
                                     });
    if (count != 1)
      sink.add(path, "must match exactly one schema in oneOf (matched " + std::to_string(count) +
                         ")");
  }
  if (node.negated != nullptr && matches(*node.negated, instance, path, nullptr))
    sink.add(path, "must not match the schema in not");
  if (node.condition != nullptr) {
    const auto* branch =
        matches(*node.condition, instance, path, nullptr) ? node.then_branch : node.else_branch;
    if (branch != nullptr) sink.merge(matches(*branch, instance, path, sink.errors()));
  }
}

using keyword_check = void (*)(const schema_node&, const json::value&, const json_path&, error_sink&);
constexpr std::pair<keyword_group, keyword_check> keyword_checks[] = {
    {generic_keywords, check_generic}, {number_keywords, check_number},
    {string_keywords, check_string},   {array_keywords, check_array},
    {object_keywords, check_object},   {combinator_keywords, check_combinators}};

bool matches(const schema_node& node, const json::value& instance, const json_path& path,
             std::vector<validation_error>* errors) {
  if (node.verdict) {
    if (!*node.verdict && errors != nullptr) errors->push_back({path.pointer(), "is not allowed"});
    return *node.verdict;
  }
  error_sink sink(errors);
  for (const auto& [group, check] : keyword_checks) {
    if ((node.keyword_groups & group) == 0) continue;
    check(node, instance, path, sink);
    if (sink.done()) break;
  }
  return !sink.failed();
}

}  // namespace
}  // namespace detail

std::string validation_error::to_string() const {
  return pointer.empty() ? message : pointer + ": " + message;
}

schema_validator::schema_validator(json::value schema) {
  auto compiled = std::make_shared<detail::compiled_schema>();
  detail::schema_compiler compiler(schema, *compiled);
  compiled->root = compiler.compile(schema, "");
  for (auto& node : compiled->nodes) node.keyword_groups = detail::keyword_groups_of(node);
  std::unordered_map<const detail::schema_node*, detail::visit_mark> marks;
  for (const auto& node : compiled->nodes) detail::reject_in_place_cycles(node, marks);
  compiled_ = std::move(compiled);
}

std::vector<validation_error> schema_validator::validate(const json::value& instance) const {
  std::vector<validation_error> errors;
  detail::matches(*compiled_->root, instance, detail::json_path{}, &errors);
  return errors;
}

const std::vector<std::string>& schema_validator::unsupported_keywords() const {
  return compiled_->unsupported_keywords;
}

}  // namespace mcp
