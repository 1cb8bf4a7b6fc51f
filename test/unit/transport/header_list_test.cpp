// The request headers a handler sees.

#include <mcp/transport/header_list.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace mcp {
namespace {

TEST(HeaderList, FindsANameInAnyCaseAndKeepsTheValueAsSent) {
  header_list headers;
  headers.add("Content-Type", "application/json");
  headers.add("X-Tenant", "Blue Team");
  EXPECT_EQ(headers.find("x-tenant"), "Blue Team");
  EXPECT_EQ(headers.find("X-TENANT"), "Blue Team");
  EXPECT_EQ(headers.at("content-type"), "application/json");
  EXPECT_TRUE(headers.contains("Content-type"));
  EXPECT_FALSE(headers.find("x-tenan").has_value());
  EXPECT_FALSE(headers.contains("x-tenant-id"));
  EXPECT_THROW((void)headers.at("authorization"), std::out_of_range);
}

TEST(HeaderList, KeepsEveryHeaderInOrderWithLowerCaseNames) {
  header_list headers;
  headers.add("Accept", "application/json");
  headers.add("Via", "1.1 a");
  headers.add("VIA", "1.1 b");
  EXPECT_EQ(headers.size(), 3u);
  EXPECT_EQ(headers.find("via"), "1.1 a");  // the first of a repeated header
  std::vector<std::string> seen;
  for (const auto& [name, value] : headers) seen.push_back(std::string(name) + "=" + std::string(value));
  EXPECT_EQ(seen, (std::vector<std::string>{"accept=application/json", "via=1.1 a", "via=1.1 b"}));
}

TEST(HeaderList, CopiesStandAlone) {
  header_list copy;
  {
    header_list original;
    original.add("Authorization", "Bearer t0k3n");
    copy = original;
  }
  EXPECT_EQ(copy.at("authorization"), "Bearer t0k3n");
  EXPECT_TRUE(header_list{}.empty());
}

}  // namespace
}  // namespace mcp
