// The rules of the Skills extension both sides apply (protocol/skills.hpp).
// YAML is read by yaml-cpp (Debian's libyaml-cpp-dev); its scalars carry no
// type, so they are typed here by the YAML 1.2 core schema, as the
// TypeScript `yaml` package (the conformance suite's) types them.

#include <mcp/protocol/skills.hpp>

#include <boost/json/value.hpp>

#include <openssl/evp.h>

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace mcp {

namespace {

std::string frontmatter_string(const json::object& frontmatter, std::string_view key) {
  const auto* v = frontmatter.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

bool all_of(std::string_view s, auto pred) {
  for (const char c : s)
    if (!pred(static_cast<unsigned char>(c))) return false;
  return true;
}

bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

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
  const std::string text(s);
  return json::value(base == 10 ? std::strtod(text.c_str(), nullptr)
                                : static_cast<double>(std::strtoull(text.c_str() + 2, nullptr, base)));
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool core_float_syntax(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  std::size_t int_digits = 0, frac_digits = 0;
  while (i < s.size() && is_digit(s[i])) ++i, ++int_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i, ++frac_digits;
    if (int_digits == 0 && frac_digits == 0) return false;
  } else if (int_digits == 0) {
    return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    std::size_t exp_digits = 0;
    while (i < s.size() && is_digit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
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
  if (core_float_syntax(s)) {
    errno = 0;
    const double d = std::strtod(s.c_str(), nullptr);
    if (!std::isfinite(d)) throw skills::frontmatter_error("frontmatter: " + s + " is out of range");
    return d;
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

std::string skill_entry::name() const { return frontmatter_string(frontmatter, "name"); }
std::string skill_entry::description() const { return frontmatter_string(frontmatter, "description"); }

namespace skills {

std::string digest(std::string_view bytes) {
  unsigned char hash[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), hash, &size, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("skills: SHA-256 failed");
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (unsigned i = 0; i < size; ++i) {
    out += hex[hash[i] >> 4];
    out += hex[hash[i] & 0xf];
  }
  return out;
}

bool is_digest(std::string_view d) noexcept {
  constexpr std::string_view prefix = "sha256:";
  if (!d.starts_with(prefix) || d.size() != prefix.size() + 64) return false;
  return all_of(d.substr(prefix.size()), [](unsigned char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); });
}

std::optional<std::string_view> frontmatter_text(std::string_view md) noexcept {
  // As /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/ after an optional BOM.
  if (md.starts_with("\xEF\xBB\xBF")) md.remove_prefix(3);
  if (md.starts_with("---\r\n"))
    md.remove_prefix(5);
  else if (md.starts_with("---\n"))
    md.remove_prefix(4);
  else
    return std::nullopt;
  for (std::size_t nl = md.find('\n'); nl != std::string_view::npos; nl = md.find('\n', nl + 1)) {
    auto rest = md.substr(nl + 1);
    if (!rest.starts_with("---")) continue;
    rest.remove_prefix(3);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    if (!(rest.empty() || rest.starts_with("\n") || rest.starts_with("\r\n"))) continue;
    const auto end = nl > 0 && md[nl - 1] == '\r' ? nl - 1 : nl;
    return md.substr(0, end);
  }
  return std::nullopt;
}

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

bool is_valid_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > 64 || name.front() == '-' || name.back() == '-') return false;
  if (name.find("--") != std::string_view::npos) return false;
  return all_of(name, [](unsigned char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || c == '-'; });
}

std::optional<std::string_view> skill_root(std::string_view uri) noexcept {
  constexpr std::string_view file = "/SKILL.md";
  const auto scheme_end = uri.find("://");
  if (scheme_end == std::string_view::npos || !uri.ends_with(file)) return std::nullopt;
  const auto root = uri.substr(0, uri.size() - file.size());
  if (root.size() <= scheme_end + 3 || root.back() == '/') return std::nullopt;  // no skill path
  return root;
}

std::optional<std::string_view> name_in_uri(std::string_view uri) noexcept {
  const auto root = skill_root(uri);
  if (!root) return std::nullopt;
  const auto slash = root->rfind('/');
  return root->substr(slash + 1);
}

bool same_json(const json::value& a, const json::value& b) noexcept {
  if (a.is_number() && b.is_number()) {
    if (a.is_double() || b.is_double()) return a.to_number<double>() == b.to_number<double>();
    if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
    if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
    const auto& signed_one = a.is_int64() ? a : b;
    const auto& unsigned_one = a.is_int64() ? b : a;
    return signed_one.get_int64() >= 0 &&
           static_cast<std::uint64_t>(signed_one.get_int64()) == unsigned_one.get_uint64();
  }
  if (a.kind() != b.kind()) return false;
  if (a.is_object()) {
    const auto& x = a.get_object();
    const auto& y = b.get_object();
    if (x.size() != y.size()) return false;
    for (const auto& [key, value] : x) {
      const auto* other = y.if_contains(key);
      if (!other || !same_json(value, *other)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    const auto& x = a.get_array();
    const auto& y = b.get_array();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!same_json(x[i], y[i])) return false;
    return true;
  }
  return a == b;
}

bool is_utf8(std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t extra = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) extra = 1, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) extra = 2, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) extra = 3, cp = c & 0x07;
    else return false;
    if (i + extra >= s.size()) return false;  // cut short
    for (std::size_t k = 1; k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF.
    if ((extra == 2 && cp < 0x800) || (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += extra + 1;
  }
  return true;
}

}  // namespace skills

}  // namespace mcp
