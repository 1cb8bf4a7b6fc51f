// The requestState key of a server process, from a key file or the
// environment, so that every replica behind a load balancer signs with the
// same one (docs/scale-out.md).

#include <mcp/error.hpp>
#include <mcp/server/serve.hpp>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mcp {

namespace {

constexpr std::size_t min_key_bytes = 32;

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string parse_request_state_key(std::string_view hex) {
  while (!hex.empty() && std::isspace(static_cast<unsigned char>(hex.front()))) hex.remove_prefix(1);
  while (!hex.empty() && std::isspace(static_cast<unsigned char>(hex.back()))) hex.remove_suffix(1);
  if (hex.size() % 2 != 0) throw mcp::invalid_argument("the requestState key must be an even number of hex digits");
  std::string key;
  key.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int high = hex_digit(hex[i]);
    const int low = hex_digit(hex[i + 1]);
    if (high < 0 || low < 0) throw mcp::invalid_argument("the requestState key must be hexadecimal digits only");
    key.push_back(static_cast<char>(high * 16 + low));
  }
  if (key.size() < min_key_bytes)
    throw mcp::invalid_argument("the requestState key must be at least " + std::to_string(min_key_bytes) +
                                " bytes (" + std::to_string(2 * min_key_bytes) + " hex digits)");
  return key;
}

std::string configured_request_state_key(const std::string& key_file) {
  if (!key_file.empty()) {
    std::ifstream in(key_file);
    if (!in) throw mcp::invalid_argument("cannot read the requestState key file " + key_file);
    std::ostringstream text;
    text << in.rdbuf();
    return parse_request_state_key(text.str());
  }
  if (const char* value = std::getenv("CADUCEUS_REQUEST_STATE_KEY")) return parse_request_state_key(value);
  return {};
}

}  // namespace mcp
