// The rules of the Skills extension both sides apply (protocol/skills.hpp);
// reading the frontmatter is skills_frontmatter.cpp's (caduceus::skills).

#include <mcp/protocol/skills.hpp>

#include <boost/json/value.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>

namespace mcp {

namespace {

std::string frontmatter_string(const json::object& frontmatter, std::string_view key) {
  const auto* v = frontmatter.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

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
  return std::ranges::all_of(d.substr(prefix.size()), [](unsigned char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); });
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


bool is_valid_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > 64 || name.front() == '-' || name.back() == '-') return false;
  if (name.find("--") != std::string_view::npos) return false;
  return std::ranges::all_of(name, [](unsigned char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || c == '-'; });
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
