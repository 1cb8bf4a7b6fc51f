#pragma once
// A Lua script for connection::eval: its source and the SHA1 that EVALSHA
// names it by, computed once, on first use. (Scripts are constants of the
// stores: computed at start-up, the digest cost every process linking the
// library OpenSSL's initialisation, about 5 million instructions, a third of
// a stdio server's start, whether it used Redis or not.)

#include <mutex>
#include <string>

namespace mcp::detail::redis {

class script {
 public:
  explicit script(std::string source) : source_(std::move(source)) {}

  const std::string& source() const noexcept { return source_; }
  /// Lower-case hex, as Redis prints it.
  const std::string& sha1() const;

 private:
  std::string source_;
  mutable std::once_flag computed_;
  mutable std::string sha1_;
};

}  // namespace mcp::detail::redis
