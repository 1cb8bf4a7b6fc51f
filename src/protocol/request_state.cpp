#include "request_state.hpp"
#include "finite_json.hpp"
#include "read_params.hpp"

#include <mcp/base64.hpp>
#include <mcp/json/convert.hpp>

#include <boost/describe/class.hpp>

#include <boost/json/serialize.hpp>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace mcp::detail {

namespace {

constexpr std::string_view version_prefix = "v1.";
constexpr std::size_t max_state_size = std::size_t{1} << 20;

// What a requestState carries under its MAC.
struct sealed_state {
  std::string binding;         // request_binding: the request and principal it was issued for
  std::int64_t expires = 0;    // milliseconds since the epoch
  json::object answers;        // the input responses of the rounds so far
  json::value carried;         // what the handler carries to the next round
};
BOOST_DESCRIBE_STRUCT(sealed_state, (), (binding, expires, answers, carried))

std::string sha256(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("request_state: SHA-256 failed");
  return std::string(reinterpret_cast<const char*>(digest), size);
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
            reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &size))
    throw std::runtime_error("request_state: HMAC-SHA256 failed");
  return std::string(reinterpret_cast<const char*>(mac), size);
}

std::string hex(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  text.reserve(bytes.size() * 2);
  for (const auto b : bytes) {
    text += digits[static_cast<unsigned char>(b) >> 4];
    text += digits[static_cast<unsigned char>(b) & 15];
  }
  return text;
}

// JSON with every object's members sorted by key, so that two clients (or
// two rounds) sending the same params in another order bind the same.
void append_canonical(std::string& out, const json::value& value) {
  if (const auto* object = value.if_object()) {
    std::vector<const json::key_value_pair*> members;
    members.reserve(object->size());
    for (const auto& member : *object) members.push_back(&member);
    std::ranges::sort(members, [](const auto* a, const auto* b) { return a->key() < b->key(); });
    out += '{';
    for (const auto* member : members) {
      if (member != members.front()) out += ',';
      out += json::serialize(member->key());
      out += ':';
      append_canonical(out, member->value());
    }
    out += '}';
  } else if (const auto* array = value.if_array()) {
    out += '[';
    for (std::size_t i = 0; i < array->size(); ++i) {
      if (i > 0) out += ',';
      append_canonical(out, (*array)[i]);
    }
    out += ']';
  } else {
    out += json::serialize(value);
  }
}

// One key per process when the server names none: states survive neither a
// restart nor a hop to another process, and need not.
const std::string& process_key() {
  static const std::string key = [] {
    std::string bytes(32, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(bytes.size())) != 1)
      throw std::runtime_error("request_state: RAND_bytes failed");
    return bytes;
  }();
  return key;
}

std::int64_t unix_ms(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

}  // namespace

std::string request_binding(std::string_view method, const json::object& params, std::string_view principal) {
  json::object salient;
  for (const auto& [key, value] : params)
    if (key != "_meta" && key != "inputResponses" && key != "requestState") salient.emplace(key, value);
  // Two JSON strings around a JSON object: each part ends unambiguously.
  std::string text = json::serialize(method);
  append_canonical(text, salient);
  text += json::serialize(principal);
  return hex(sha256(text));
}

request_state_codec::request_state_codec(std::string key, std::chrono::seconds ttl)
    : key_(std::move(key)), ttl_(ttl) {}

const std::string& request_state_codec::key() const { return key_.empty() ? process_key() : key_; }

std::string request_state_codec::seal(const request_state_payload& payload, std::string_view binding,
                                      std::chrono::system_clock::time_point now) const {
  const auto body = to_json_value(sealed_state{std::string(binding), unix_ms(now + ttl_), payload.answers,
                                               payload.carried});
  // The MAC covers the version too: "v1." plus the payload, as sent.
  std::string state = std::string(version_prefix) + base64url_encode(json::serialize(body));
  const auto mac = base64url_encode(hmac_sha256(key(), state));
  state += '.';
  state += mac;
  return state;
}

std::optional<request_state_payload> request_state_codec::open(std::string_view state, std::string_view binding,
                                                               std::chrono::system_clock::time_point now) const {
  if (state.size() > max_state_size || !state.starts_with(version_prefix)) return std::nullopt;
  const auto dot = state.rfind('.');
  if (dot < version_prefix.size()) return std::nullopt;  // no MAC
  const auto signed_part = state.substr(0, dot);
  const auto mac = state.substr(dot + 1);
  // The MACs are compared as text: any altered character is refused, and the
  // comparison takes the same time whichever byte differs.
  const auto expected = base64url_encode(hmac_sha256(key(), signed_part));
  if (mac.size() != expected.size() || CRYPTO_memcmp(mac.data(), expected.data(), mac.size()) != 0)
    return std::nullopt;

  const auto text = base64url_decode(signed_part.substr(version_prefix.size()));
  if (!text) return std::nullopt;
  // Parsed only once its MAC has verified: the server's own text, deeper
  // than a message may be (the answers of a request are nested in it).
  boost::system::error_code ec;
  const auto value = parse_stored_json(*text, ec);
  if (ec) return std::nullopt;
  auto sealed = read_if<sealed_state>(value);
  if (!sealed || sealed->binding != binding || unix_ms(now) >= sealed->expires) return std::nullopt;
  return request_state_payload{std::move(sealed->answers), std::move(sealed->carried)};
}

}  // namespace mcp::detail
