#include "challenge.hpp"

#include <boost/algorithm/string/predicate.hpp>

#include <cctype>
#include <optional>
#include <utility>

namespace mcp::detail::oauth {

namespace {

// RFC 7230 tchar, plus '/' so that token68 values (base64) read as one token.
bool token_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~/").find(c) != std::string_view::npos;
}

class challenge_reader {
 public:
  explicit challenge_reader(std::string_view text) : text_(text) {}

  bool at_end() { skip(", \t"); return pos_ >= text_.size(); }

  std::string token() {
    const auto start = pos_;
    while (pos_ < text_.size() && token_char(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  // After a name: '=' then a value means a parameter; anything else does not.
  std::optional<std::string> parameter_value() {
    const auto mark = pos_;
    skip(" \t");
    if (pos_ >= text_.size() || text_[pos_] != '=') {
      pos_ = mark;
      return std::nullopt;
    }
    ++pos_;
    skip(" \t");
    if (pos_ < text_.size() && text_[pos_] == '"') return quoted();
    // A token by RFC 7235, but servers also send `scope=mcp:basic` unquoted:
    // up to the next separator.
    const auto start = pos_;
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != ' ' && text_[pos_] != '\t') ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  void skip(std::string_view chars) {
    while (pos_ < text_.size() && chars.find(text_[pos_]) != std::string_view::npos) ++pos_;
  }
  bool stuck() const { return pos_ < text_.size() && !token_char(text_[pos_]); }
  void skip_one() { ++pos_; }

 private:
  std::string quoted() {
    std::string value;
    for (++pos_; pos_ < text_.size() && text_[pos_] != '"'; ++pos_) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      value += text_[pos_];
    }
    if (pos_ < text_.size()) ++pos_;
    return value;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

void assign(token_challenge& c, std::string_view name, std::string value) {
  if (boost::algorithm::iequals(name, "resource_metadata")) c.resource_metadata = std::move(value);
  else if (boost::algorithm::iequals(name, "scope")) c.scope = std::move(value);
  else if (boost::algorithm::iequals(name, "error")) c.error = std::move(value);
  else if (boost::algorithm::iequals(name, "error_description")) c.error_description = std::move(value);
}

}  // namespace

token_challenge parse_challenge(const std::vector<std::string>& headers, std::string_view scheme) {
  for (const auto& header : headers) {
    challenge_reader reader(header);
    token_challenge found;
    bool in_scheme = false;
    while (!reader.at_end()) {
      if (reader.stuck()) {
        reader.skip_one();
        continue;
      }
      auto name = reader.token();
      if (auto value = reader.parameter_value()) {
        if (in_scheme) assign(found, name, std::move(*value));
        continue;
      }
      // A name without '=' starts the next challenge.
      if (in_scheme) return found;
      in_scheme = boost::algorithm::iequals(name, scheme);
      found.present = in_scheme;
    }
    if (in_scheme) return found;
  }
  return {};
}

}  // namespace mcp::detail::oauth
