#pragma once
// Where a value sits in a JSON document. Each level of a recursive walk keeps
// one json_path on its stack frame, linked to its parent's; the chain becomes
// a JSON pointer (RFC 6901) only when an error needs one, so the happy path
// builds no strings.

#include <mcp/export.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace mcp::detail {

/// Appends "/token" to a JSON pointer, escaping '~' as "~0" and '/' as "~1".
inline void append_pointer_token(std::string& pointer, std::string_view token) {
  pointer += '/';
  for (char c : token) {
    if (c == '~')
      pointer += "~0";
    else if (c == '/')
      pointer += "~1";
    else
      pointer += c;
  }
}

class MCP_API json_path {
 public:
  /// The document root, whose pointer is "".
  json_path() = default;
  /// The member `key` of the object at `parent`. `key` must outlive this.
  json_path(const json_path& parent, std::string_view key) : parent_(&parent), key_(key) {}
  /// The element `index` of the array at `parent`.
  json_path(const json_path& parent, std::size_t index)
      : parent_(&parent), index_(index), is_index_(true) {}

  std::string pointer() const {
    std::string out;
    append_to(out);
    return out;
  }

 private:
  void append_to(std::string& out) const {
    if (parent_ == nullptr) return;
    parent_->append_to(out);
    if (is_index_)
      append_pointer_token(out, std::to_string(index_));
    else
      append_pointer_token(out, key_);
  }

  const json_path* parent_ = nullptr;
  std::string_view key_;
  std::size_t index_ = 0;
  bool is_index_ = false;
};

}  // namespace mcp::detail
