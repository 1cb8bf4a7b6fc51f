// The method table against the official schemas: every method each
// revision's unions name, sent by the side that sends it, and nothing more.

#include <mcp/protocol/methods.hpp>

#include "spec_schema.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace {

using namespace mcp;

TEST(Methods, NamesAreFoundAndUnknownOnesAreNot) {
  const auto* call = find_method(methods::tools_call);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->name, "tools/call");
  EXPECT_EQ(call->kind, method_kind::request);
  EXPECT_TRUE(call->from_client.contains(protocol_version::v2024_11_05));
  EXPECT_TRUE(call->from_client.contains(protocol_version::v2026_07_28));
  EXPECT_TRUE(call->from_server.empty());
  EXPECT_EQ(find_method("tools/cal"), nullptr);
  EXPECT_EQ(find_method(""), nullptr);
  std::set<std::string_view> names;
  for (const auto& m : all_methods()) EXPECT_TRUE(names.insert(m.name).second) << m.name << " twice";
}

TEST(Methods, VersionSets) {
  const auto legacy = version_set::between(protocol_version::v2024_11_05, protocol_version::v2025_11_25);
  EXPECT_TRUE(legacy.contains(protocol_version::v2025_03_26));
  EXPECT_FALSE(legacy.contains(protocol_version::v2026_07_28));
  EXPECT_EQ(legacy | version_set{protocol_version::v2026_07_28}, version_set::since(protocol_version::v2024_11_05));
  EXPECT_TRUE(version_set{}.empty());
}

TEST(Methods, TableMatchesTheOfficialSchemas) {
  const auto dir = test::spec_dir();
  if (dir.empty()) GTEST_SKIP() << "spec folder not found: '" << CADUCEUS_SPEC_DIR << "'";
  for (const dialect& d : all_dialects()) {
    SCOPED_TRACE(d.name);
    const test::spec_schema schema(dir / std::string(d.name) / "schema.json");
    ASSERT_TRUE(schema.ok());
    // What the schema says each side sends, and the methods it defines outside the unions.
    std::map<std::string, std::pair<bool, bool>> sent;  // name -> (by the client, by the server)
    for (const auto& [group, client] : {std::pair{"ClientRequest", true}, std::pair{"ClientNotification", true},
                                        std::pair{"ServerRequest", false}, std::pair{"ServerNotification", false}})
      for (const auto& member : schema.union_members(group)) {
        const auto name = schema.method_of(member);
        ASSERT_FALSE(name.empty()) << member;
        (client ? sent[name].first : sent[name].second) = true;
      }
    std::set<std::string> defined;
    for (const auto& [def, _] : schema.definitions())
      if (auto name = schema.method_of(def); !name.empty()) defined.insert(name);

    for (const auto& m : all_methods()) {
      SCOPED_TRACE(m.name);
      const auto it = sent.find(std::string(m.name));
      EXPECT_EQ(m.from_client.contains(d.version), it != sent.end() && it->second.first);
      EXPECT_EQ(m.from_server.contains(d.version), it != sent.end() && it->second.second);
      // An input request is defined by the schema but sent by no one on its own.
      EXPECT_EQ(m.as_input.contains(d.version), defined.contains(std::string(m.name)) && it == sent.end());
    }
    for (const auto& [name, _] : sent) EXPECT_NE(find_method(name), nullptr) << name << " is not in the table";
  }
}

}  // namespace
