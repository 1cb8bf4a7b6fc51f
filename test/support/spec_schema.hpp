#pragma once
// The official JSON Schema of a protocol revision (shared/spec/<rev>/
// schema.json), read for tests that hold our tables to it.

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#ifndef CADUCEUS_SPEC_DIR
#define CADUCEUS_SPEC_DIR ""
#endif

namespace mcp::test {

/// Where the schemas are; empty when this checkout has none beside it.
inline std::filesystem::path spec_dir() {
  const std::filesystem::path dir = CADUCEUS_SPEC_DIR;
  return !dir.empty() && std::filesystem::is_directory(dir) ? dir : std::filesystem::path();
}

class spec_schema {
 public:
  explicit spec_schema(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    root_ = boost::json::parse(text.str());
    const auto& obj = root_.as_object();
    if (const auto* d = obj.if_contains("definitions")) defs_ = &d->as_object();
    else if (const auto* d2 = obj.if_contains("$defs")) defs_ = &d2->as_object();
  }

  bool ok() const { return defs_ != nullptr; }
  bool has(std::string_view def) const { return defs_->contains(def); }
  const boost::json::object& definitions() const { return *defs_; }

  // The properties of a definition, following a local $ref.
  const boost::json::object* properties(std::string_view def) const {
    const auto* d = defs_->if_contains(def);
    return d ? properties_of(*d) : nullptr;
  }

  bool has_property(std::string_view def, std::string_view prop) const {
    const auto* props = properties(def);
    return props && props->contains(prop);
  }

  // The properties of property `prop` of definition `def` (e.g. the params of a notification).
  const boost::json::object* nested_properties(std::string_view def, std::string_view prop) const {
    const auto* props = properties(def);
    const auto* p = props ? props->if_contains(prop) : nullptr;
    return p ? properties_of(*p) : nullptr;
  }

  /// The definitions a union (anyOf / oneOf of $refs) names.
  std::vector<std::string> union_members(std::string_view def) const {
    std::vector<std::string> out;
    const auto* d = defs_->if_contains(def);
    const auto* obj = d ? d->if_object() : nullptr;
    if (!obj) return out;
    for (const char* key : {"anyOf", "oneOf"})
      if (const auto* list = obj->if_contains(key); list && list->is_array())
        for (const auto& item : list->get_array())
          if (const auto* ref = item.is_object() ? item.get_object().if_contains("$ref") : nullptr; ref && ref->is_string()) {
            const std::string_view target = ref->get_string();
            out.emplace_back(target.substr(target.rfind('/') + 1));
          }
    // A union of one member is written as that member itself (2026-07-28's
    // ClientNotification is notifications/cancelled).
    if (out.empty() && !method_of(def).empty()) out.emplace_back(def);
    return out;
  }

  /// The `method` constant of a request or notification definition; empty when none.
  std::string method_of(std::string_view def) const {
    const auto* props = properties(def);
    const auto* method = props ? props->if_contains("method") : nullptr;
    const auto* obj = method ? method->if_object() : nullptr;
    const auto* value = obj ? obj->if_contains("const") : nullptr;
    return value && value->is_string() ? std::string(value->get_string()) : std::string();
  }

 private:
  const boost::json::object* properties_of(const boost::json::value& schema) const {
    const auto* obj = schema.if_object();
    if (!obj) return nullptr;
    if (const auto* ref = obj->if_contains("$ref"); ref && ref->is_string()) {
      std::string_view target = ref->get_string();
      const auto slash = target.rfind('/');
      return properties(target.substr(slash == std::string_view::npos ? 0 : slash + 1));
    }
    const auto* props = obj->if_contains("properties");
    return props ? props->if_object() : nullptr;
  }

  boost::json::value root_;
  const boost::json::object* defs_ = nullptr;
};

}  // namespace mcp::test
