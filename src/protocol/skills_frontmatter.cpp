// The YAML frontmatter of a SKILL.md read as JSON (protocol/skills.hpp),
// part of the caduceus::skills component. YAML is read by yaml-cpp (Debian's
// libyaml-cpp-dev); its scalars carry no type, so they are typed here by the
// YAML 1.2 core schema, as the TypeScript `yaml` package (the conformance
// suite's) types them.

#include <mcp/protocol/skills.hpp>

#include "../detail/decimal.hpp"

#include <boost/json/value.hpp>

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cstdlib>
#include <limits>

namespace mcp {

namespace {

bool all_of(std::string_view s, auto pred) {
  for (const char c : s)
    if (!pred(static_cast<unsigned char>(c))) return false;
  return true;
}

bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

// YAML's core schema allows a sign + that JSON's number grammar does not.
std::string_view without_plus(std::string_view s) {
  return s.starts_with('+') && !s.substr(1).starts_with('-') ? s.substr(1) : s;
}

// [-+]?[0-9]+ ; 0o[0-7]+ ; 0x[0-9a-fA-F]+
std::optional<json::value> core_int(std::string_view s) {
  int base = 10;
  std::string_view digits = s;
  bool negative = false;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x')) {
    base = s[1] == 'o' ? 8 : 16;
    digits = s.substr(2);
    const bool ok = base == 8 ? all_of(digits, [](unsigned char c) { return c >= '0' && c <= '7'; })
                              : all_of(digits, [](unsigned char c) { return std::isxdigit(c) != 0; });
    if (!ok) return std::nullopt;
  } else {
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
      negative = digits[0] == '-';
      digits.remove_prefix(1);
    }
    if (digits.empty() || !all_of(digits, is_digit)) return std::nullopt;
  }
  std::uint64_t magnitude = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (ec == std::errc() && end == digits.data() + digits.size()) {
    if (!negative && magnitude <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return json::value(static_cast<std::int64_t>(magnitude));
    if (!negative) return json::value(magnitude);
    if (magnitude <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1)
      return json::value(static_cast<std::int64_t>(0 - magnitude));
  }
  // Too large for 64 bits: a number all the same, as a double (as JavaScript reads it).
  if (base == 10) {
    if (const auto d = detail::read_decimal(without_plus(s))) return json::value(*d);
    throw skills::frontmatter_error("frontmatter: " + std::string(s) + " is out of range");
  }
  return json::value(static_cast<double>(std::strtoull(std::string(s).c_str() + 2, nullptr, base)));
}

bool is_special_float(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  return s == ".inf" || s == ".Inf" || s == ".INF" || s == ".nan" || s == ".NaN" || s == ".NAN";
}

constexpr std::string_view yaml_tag_prefix = "tag:yaml.org,2002:";

// A plain scalar, typed by the core schema.
json::value plain_scalar(const std::string& s) {
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  if (s == "~" || s == "null" || s == "Null" || s == "NULL" || s.empty()) return nullptr;
  if (auto integer = core_int(s)) return std::move(*integer);
  if (const auto number = without_plus(s); detail::is_decimal(number)) {
    const auto d = detail::read_decimal(number);
    if (!d) throw skills::frontmatter_error("frontmatter: " + s + " is out of range");
    return *d;
  }
  if (is_special_float(s)) throw skills::frontmatter_error("frontmatter: " + s + " cannot be written as JSON");
  return json::string(s);
}

json::value typed_scalar(const YAML::Node& node) {
  const auto& tag = node.Tag();
  const auto& text = node.Scalar();
  if (tag == "?") return plain_scalar(text);
  if (tag == "!" || tag == std::string(yaml_tag_prefix) + "str") return json::string(text);
  if (tag.starts_with(yaml_tag_prefix)) {
    const auto kind = std::string_view(tag).substr(yaml_tag_prefix.size());
    auto value = plain_scalar(text);
    if ((kind == "int" && value.is_number() && !value.is_double()) || (kind == "float" && value.is_number()) ||
        (kind == "bool" && value.is_bool()) || (kind == "null" && value.is_null()))
      return value;
    throw skills::frontmatter_error("frontmatter: \"" + text + "\" is not a valid !!" + std::string(kind));
  }
  throw skills::frontmatter_error("frontmatter: the tag " + tag + " is not supported");
}

struct converter {
  std::size_t nodes = 0;  // bounds what aliases could multiply
  static constexpr std::size_t max_nodes = 10'000;

  json::value convert(const YAML::Node& node, std::size_t depth) {
    if (++nodes > max_nodes) throw skills::frontmatter_error("frontmatter: too many values");
    if (depth > skills::max_frontmatter_depth) throw skills::frontmatter_error("frontmatter: nested too deeply");
    switch (node.Type()) {
      case YAML::NodeType::Null:
        if (node.Tag() == "!") return json::string();  // an empty quoted string
        return nullptr;
      case YAML::NodeType::Scalar:
        return typed_scalar(node);
      case YAML::NodeType::Sequence: {
        json::array out;
        for (const auto& item : node) out.push_back(convert(item, depth + 1));
        return out;
      }
      case YAML::NodeType::Map: {
        json::object out;
        for (const auto& pair : node) {
          if (!pair.first.IsScalar()) throw skills::frontmatter_error("frontmatter: a key must be a scalar");
          const auto& key = pair.first.Scalar();
          if (out.contains(key)) throw skills::frontmatter_error("frontmatter: the key " + key + " appears twice");
          out[key] = convert(pair.second, depth + 1);
        }
        return out;
      }
      case YAML::NodeType::Undefined:
        break;
    }
    throw skills::frontmatter_error("frontmatter: an undefined value");
  }
};


}  // namespace

namespace skills {

json::object parse_frontmatter(std::string_view skill_md) {
  const auto text = frontmatter_text(skill_md);
  if (!text) throw frontmatter_error("SKILL.md does not begin with a --- delimited YAML frontmatter");
  if (text->size() > max_frontmatter_bytes)
    throw frontmatter_error("the frontmatter is longer than " + std::to_string(max_frontmatter_bytes) + " bytes");
  YAML::Node root;
  try {
    root = YAML::Load(std::string(*text));
  } catch (const YAML::Exception& e) {
    throw frontmatter_error(std::string("the frontmatter is not YAML: ") + e.what());
  }
  if (!root.IsMap()) throw frontmatter_error("the frontmatter is not a YAML mapping");
  try {
    converter c;
    return c.convert(root, 0).as_object();
  } catch (const YAML::Exception& e) {
    throw frontmatter_error(std::string("the frontmatter is not YAML: ") + e.what());
  }
}

}  // namespace skills

}  // namespace mcp
