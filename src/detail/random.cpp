#include "random.hpp"

#include <mcp/error.hpp>

#include "process_id.hpp"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <array>
#include <climits>
#include <cstring>
#include <cstdint>
#include <random>
#include <vector>

namespace mcp::detail {

namespace {

constexpr char digits[] = "0123456789abcdef";

void draw(unsigned char* out, std::size_t bytes) {
  // OpenSSL's CSPRNG, seeded from the system's (getrandom, getentropy,
  // BCryptGenRandom): the same on every platform.
  if (bytes > INT_MAX || RAND_bytes(out, static_cast<int>(bytes)) != 1)
    throw mcp::error(make_error_code(boost::system::errc::resource_unavailable_try_again),
                     "OpenSSL's RAND_bytes gave no random bytes");
}

// A call of RAND_bytes costs about 9,500 instructions however little it is
// asked for: a session id was a twelfth of opening a session. So bytes are
// drawn a block at a time and each handed out once. Per thread, without a
// lock. A forked child drops what it inherited, which its parent hands out
// too, and draws its own.
class random_pool {
 public:
  void take(unsigned char* out, std::size_t bytes) {
    if (bytes > block_.size() / 4) return draw(out, bytes);  // (large asks go straight through)
    if (const auto now = process_id(); now != owner_) {
      owner_ = now;
      used_ = block_.size();
    }
    if (block_.size() - used_ < bytes) {
      draw(block_.data(), block_.size());
      used_ = 0;
    }
    std::memcpy(out, block_.data() + used_, bytes);
    OPENSSL_cleanse(block_.data() + used_, bytes);  // (handed out: not kept here)
    used_ += bytes;
  }

 private:
  std::array<unsigned char, 512> block_{};
  std::size_t used_ = block_.size();
  unsigned long owner_ = 0;
};

thread_local random_pool pool;

}  // namespace

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  pool.take(raw.data(), bytes);
  std::string text;
  text.reserve(bytes * 2);
  for (const auto b : raw) {
    text += digits[b >> 4];
    text += digits[b & 15];
  }
  OPENSSL_cleanse(raw.data(), raw.size());
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
