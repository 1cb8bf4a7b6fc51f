// Which addresses a fetch on a peer's word may reach (SSRF guard,
// docs/security.md): every special-purpose range is refused, public
// addresses are not, and IPv6 forms that carry an IPv4 address are judged by it.

#include "transport/http/client/peer_address.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace mcp::detail::http_client {
namespace {

std::string kind_of(const std::string& text) {
  return std::string(non_public_kind(boost::asio::ip::make_address(text)));
}

TEST(PeerAddress, RefusesEveryRangeAServerHasNoBusinessSendingUsTo) {
  const std::vector<std::pair<std::string, std::string>> refused{
      {"127.0.0.1", "loopback"},          {"127.255.0.9", "loopback"},
      {"::1", "loopback"},                {"10.1.2.3", "private"},
      {"172.16.0.1", "private"},          {"172.31.255.254", "private"},
      {"192.168.1.1", "private"},         {"169.254.169.254", "link-local"},  // cloud metadata
      {"fe80::1", "link-local"},          {"fc00::1", "unique-local"},
      {"fd12:3456::1", "unique-local"},   {"0.0.0.0", "unspecified"},
      {"::", "unspecified"},              {"100.64.0.1", "shared"},
      {"224.0.0.1", "multicast"},         {"ff02::1", "multicast"},
      {"255.255.255.255", "reserved"},    {"240.0.0.1", "reserved"},
      {"::ffff:127.0.0.1", "loopback"},   {"::ffff:169.254.169.254", "link-local"},
      {"64:ff9b::a00:1", "private"},      {"2002:c0a8:101::1", "private"},  // NAT64, 6to4 of 192.168.1.1
  };
  for (const auto& [address, kind] : refused) EXPECT_EQ(kind_of(address), kind) << address;
}

TEST(PeerAddress, LetsPublicAddressesThrough) {
  for (const std::string address : {"93.184.215.14", "8.8.8.8", "172.32.0.1", "172.15.255.255", "192.169.0.1",
                                    "169.255.0.1", "11.0.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "2002:808:808::1"})
    EXPECT_EQ(kind_of(address), "") << address;
}

}  // namespace
}  // namespace mcp::detail::http_client
