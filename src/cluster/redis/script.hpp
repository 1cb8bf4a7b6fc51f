#pragma once
// A Lua script for connection::eval: its source and the SHA1 that EVALSHA
// names it by, computed once.

#include <string>

namespace mcp::detail::redis {

class script {
 public:
  explicit script(std::string source);

  const std::string& source() const noexcept { return source_; }
  /// Lower-case hex, as Redis prints it.
  const std::string& sha1() const noexcept { return sha1_; }

 private:
  std::string source_;
  std::string sha1_;
};

}  // namespace mcp::detail::redis
