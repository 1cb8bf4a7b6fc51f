#include "peer_address.hpp"

#include <array>
#include <cstdint>

namespace mcp::detail::http_client {

namespace {

using boost::asio::ip::address_v4;
using boost::asio::ip::address_v6;

struct v4_range {
  std::uint32_t network;
  int prefix;
  std::string_view kind;
};

constexpr std::uint32_t ip(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d) {
  return std::uint32_t(a) << 24 | std::uint32_t(b) << 16 | std::uint32_t(c) << 8 | d;
}

// The IANA special-purpose ranges a fetch has no business reaching.
constexpr std::array<v4_range, 12> v4_ranges{{
    {ip(0, 0, 0, 0), 8, "unspecified"},
    {ip(10, 0, 0, 0), 8, "private"},
    {ip(100, 64, 0, 0), 10, "shared"},  // carrier-grade NAT
    {ip(127, 0, 0, 0), 8, "loopback"},
    {ip(169, 254, 0, 0), 16, "link-local"},  // cloud metadata services live here
    {ip(172, 16, 0, 0), 12, "private"},
    {ip(192, 0, 0, 0), 24, "reserved"},
    {ip(192, 168, 0, 0), 16, "private"},
    {ip(198, 18, 0, 0), 15, "reserved"},  // benchmarking
    {ip(224, 0, 0, 0), 4, "multicast"},
    {ip(240, 0, 0, 0), 4, "reserved"},  // and 255.255.255.255
    {ip(192, 88, 99, 0), 24, "reserved"},  // the old 6to4 relays
}};

std::string_view v4_kind(const address_v4& address) {
  const auto value = address.to_uint();
  for (const auto& range : v4_ranges) {
    const auto mask = range.prefix == 0 ? 0u : ~std::uint32_t(0) << (32 - range.prefix);
    if ((value & mask) == range.network) return range.kind;
  }
  return {};
}

address_v4 v4_at(const address_v6::bytes_type& bytes, std::size_t offset) {
  return address_v4(address_v4::bytes_type{bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]});
}

bool starts_with(const address_v6::bytes_type& bytes, std::initializer_list<std::uint8_t> prefix) {
  std::size_t i = 0;
  for (const auto byte : prefix)
    if (bytes[i++] != byte) return false;
  return true;
}

std::string_view v6_kind(const address_v6& address) {
  if (address.is_unspecified()) return "unspecified";
  if (address.is_loopback()) return "loopback";
  const auto bytes = address.to_bytes();
  if (address.is_v4_mapped()) return v4_kind(v4_at(bytes, 12));
  if (starts_with(bytes, {0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0})) return v4_kind(v4_at(bytes, 12));  // NAT64
  if (starts_with(bytes, {0x20, 0x02})) return v4_kind(v4_at(bytes, 2));  // 6to4
  if ((bytes[0] & 0xfe) == 0xfc) return "unique-local";                   // fc00::/7
  if (bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0x80) return "link-local";  // fe80::/10
  if (bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0xc0) return "private";     // fec0::/10, site-local
  if (bytes[0] == 0xff) return "multicast";
  // ::/96 (IPv4-compatible, deprecated) and the rest of ::/8.
  if (bytes[0] == 0) return "reserved";
  return {};
}

}  // namespace

std::string_view non_public_kind(const boost::asio::ip::address& address) {
  return address.is_v4() ? v4_kind(address.to_v4()) : v6_kind(address.to_v6());
}

}  // namespace mcp::detail::http_client
