#include "random.hpp"

#include <mcp/error.hpp>

#include <openssl/rand.h>

#include <climits>
#include <cstdint>
#include <random>
#include <vector>

namespace mcp::detail {

namespace {
constexpr char digits[] = "0123456789abcdef";
}  // namespace

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  // OpenSSL's CSPRNG, seeded from the system's (getrandom, getentropy,
  // BCryptGenRandom): the same on every platform.
  if (bytes > INT_MAX || RAND_bytes(raw.data(), static_cast<int>(bytes)) != 1)
    throw mcp::error(make_error_code(boost::system::errc::resource_unavailable_try_again),
                     "OpenSSL's RAND_bytes gave no random bytes");
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
