#include "script.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace mcp::detail::redis {

namespace {

std::string sha1_hex(const std::string& data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned size = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha1(), nullptr) != 1)
    throw std::runtime_error("redis script: SHA1 failed");
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (unsigned i = 0; i < size; ++i) {
    out.push_back(hex[digest[i] >> 4]);
    out.push_back(hex[digest[i] & 0xf]);
  }
  return out;
}

}  // namespace

const std::string& script::sha1() const {
  std::call_once(computed_, [this] { sha1_ = sha1_hex(source_); });
  return sha1_;
}

}  // namespace mcp::detail::redis
