#include "random.hpp"

#include <mcp/error.hpp>

#include <cerrno>
#include <cstdint>
#include <random>
#include <system_error>
#include <vector>

#include <sys/random.h>

namespace mcp::detail {

namespace {
constexpr char digits[] = "0123456789abcdef";
}  // namespace

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  for (std::size_t got = 0; got < bytes;) {
    const auto n = ::getrandom(raw.data() + got, bytes - got, 0);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (errno != EINTR) {
      throw mcp::error(boost::system::error_code(errno, boost::system::generic_category()), "getrandom");
    }
  }
  std::string text;
  text.reserve(bytes * 2);
  for (const auto b : raw) {
    text += digits[b >> 4];
    text += digits[b & 15];
  }
  return text;
}

std::string unique_hex() {
  thread_local std::mt19937_64 generator(std::stoull(random_hex(8), nullptr, 16));
  auto value = generator();
  std::string text(12, '0');
  for (auto& digit : text) {
    digit = digits[value & 15];
    value >>= 4;
  }
  return text;
}

}  // namespace mcp::detail
