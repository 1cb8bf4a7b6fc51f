#pragma once
// An environment variable set (or cleared) for one test and put back after,
// on POSIX and on Windows (which has no setenv).

#include <cstdlib>
#include <optional>
#include <string>

namespace mcp::test {

class scoped_environment {
 public:
  /// Sets `name` to `value`; a null `value` clears it.
  scoped_environment(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    put(name, value);
  }
  ~scoped_environment() { put(name_, old_ ? old_->c_str() : nullptr); }
  scoped_environment(const scoped_environment&) = delete;
  scoped_environment& operator=(const scoped_environment&) = delete;

 private:
  static void put(const char* name, const char* value) {
#ifdef _WIN32
    _putenv_s(name, value ? value : "");  // an empty value removes it
#else
    if (value) ::setenv(name, value, 1);
    else ::unsetenv(name);
#endif
  }

  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace mcp::test
