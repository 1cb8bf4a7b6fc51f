// The exact JSON text our serializers write for each type under each
// revision, key order included, and what the client's readers keep of what
// a server sends, pinned in fixtures/wire_golden.json: what a peer sees must
// not change when the serializers and readers are replaced (issue 17).
// To record a deliberate change, run the test with
// CADUCEUS_UPDATE_GOLDEN=1 and review the diff of the fixture.

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/protocol/versions.hpp>
#include <mcp/protocol/wire.hpp>
#include <mcp/server/content.hpp>

#include "protocol/shaping.hpp"
#include "protocol/wire_readers.hpp"

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>

namespace {

using namespace mcp;
namespace json = boost::json;

const std::string golden_file = std::string(CADUCEUS_UNIT_DIR) + "/protocol/fixtures/wire_golden.json";

json::array two_icons() {
  return json::array{json::object{{"src", "https://example.com/icon.png"}, {"mimeType", "image/png"}},
                     json::object{{"src", "data:image/svg+xml;base64,PHN2Zz4="}, {"sizes", json::array{"any"}}}};
}

tool_info full_tool() {
  tool_info t;
  t.name = "deploy";
  t.description = "Deploys the service";
  t.title = "Deploy";
  t.input_schema = json::parse(R"({"type":"object","properties":{"env":{"type":"string"}},"required":["env"]})")
                       .as_object();
  t.output_schema = json::parse(R"({"type":"object","properties":{"ok":{"type":"boolean"}}})").as_object();
  t.annotations.title = "Deploy it";
  t.annotations.read_only_hint = false;
  t.annotations.destructive_hint = true;
  t.annotations.idempotent_hint = false;
  t.annotations.open_world_hint = true;
  t.icons = two_icons();
  t.meta = {{"example.com/tier", "gold"}};
  return t;
}

resource_info full_resource() {
  resource_info r;
  r.uri = "file:///notes.md";
  r.name = "notes";
  r.title = "Notes";
  r.description = "Meeting notes";
  r.mime_type = "text/markdown";
  r.size = 1234;
  r.annotations = {{"audience", json::array{"user"}}, {"priority", 0.5}};
  r.icons = two_icons();
  r.meta = {{"example.com/owner", "ada"}};
  return r;
}

resource_template_info full_template() {
  resource_template_info t;
  t.uri_template = "file:///{path}";
  t.name = "files";
  t.title = "Files";
  t.description = "Any file";
  t.mime_type = "application/octet-stream";
  t.annotations = {{"priority", 1}};
  t.icons = two_icons();
  t.meta = {{"example.com/x", 1}};
  return t;
}

prompt_info full_prompt() {
  prompt_info p;
  p.name = "review";
  p.description = "Reviews code";
  p.title = "Code review";
  p.arguments = {{"code", "The code", true, "Code"}, {"style", std::nullopt, false, std::nullopt}};
  p.icons = two_icons();
  p.meta = {{"example.com/y", true}};
  return p;
}

implementation full_implementation() {
  implementation i;
  i.name = "caduceus-test";
  i.version = "1.2.3";
  i.title = "Caduceus test";
  i.description = "A server for tests";
  i.website_url = "https://example.com";
  i.icons = two_icons();
  return i;
}

json::object every_capability() {
  return json::parse(R"({"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},)"
                     R"("prompts":{"listChanged":true},"logging":{},"completions":{},)"
                     R"("tasks":{"list":{}},"extensions":{"io.example/x":{}},"experimental":{"a":{}}})")
      .as_object();
}

call_tool_result result_with_every_block() {
  call_tool_result r;
  r.content.push_back(content::text("hello"));
  r.content.push_back(content::image("aGk=", "image/png"));
  r.content.push_back(content::audio("aGk=", "audio/wav"));
  r.content.push_back(content::resource_link("file:///a.txt", "a", "text/plain", "A file"));
  r.content.push_back(content::embedded_text("file:///b.txt", "bee", "text/plain"));
  r.content.push_back(content::embedded_blob("file:///c.bin", "AAE=", "application/octet-stream"));
  r.structured_content = json::object{{"ok", true}};
  r.meta = {{"example.com/z", 2}};
  return r;
}

// The error a peer gets for what it sent: code, message and data, as JSON.
std::string refusal_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const protocol_error& e) {
    return json::serialize(json::object{{"code", e.error().code}, {"message", e.error().message}, {"data", e.error().data}});
  }
  return "accepted";
}

json::object parsed(std::string_view text) { return json::parse(text).as_object(); }

// Every case, by name: the JSON text written for dialect `d` (the same for
// every dialect where the revision plays no part).
std::map<std::string, std::function<std::string(const dialect&)>> cases() {
  using namespace mcp::detail;
  return {
      {"tool.full", [](const dialect& d) { return json::serialize(shape_tool(full_tool().to_json(), d)); }},
      {"tool.minimal",
       [](const dialect& d) {
         tool_info t;
         t.name = "t";
         return json::serialize(shape_tool(t.to_json(), d));
       }},
      {"resource.full", [](const dialect& d) { return json::serialize(shape_listing(full_resource().to_json(), d)); }},
      {"resource.minimal",
       [](const dialect& d) {
         resource_info r;
         r.uri = "u:1";
         r.name = "n";
         return json::serialize(shape_listing(r.to_json(), d));
       }},
      {"template.full", [](const dialect& d) { return json::serialize(shape_listing(full_template().to_json(), d)); }},
      {"prompt.full", [](const dialect& d) { return json::serialize(shape_listing(full_prompt().to_json(), d)); }},
      {"prompt.minimal",
       [](const dialect& d) {
         prompt_info p;
         p.name = "p";
         return json::serialize(shape_listing(p.to_json(), d));
       }},
      {"implementation.full", [](const dialect& d) { return json::serialize(to_json(full_implementation(), d)); }},
      {"capabilities.every", [](const dialect& d) { return json::serialize(shape_capabilities(every_capability(), d)); }},
      {"initialize_result",
       [](const dialect& d) {
         initialize_result r{d.version, every_capability(), full_implementation(), "Be kind"};
         return json::serialize(to_json(r));
       }},
      {"call_tool_result.every_block",
       [](const dialect& d) {
         return json::serialize(shape_call_tool_result(result_with_every_block().to_json(), d));
       }},
      {"call_tool_result.structured_only",
       [](const dialect& d) {
         call_tool_result r;
         r.structured_content = json::object{{"n", 1}};
         return json::serialize(shape_call_tool_result(r.to_json(), d));
       }},
      {"call_tool_result.error",
       [](const dialect& d) {
         return json::serialize(shape_call_tool_result(call_tool_result::error("no").to_json(), d));
       }},
      {"resource_contents.text",
       [](const dialect&) {
         return json::serialize(resource_contents::from_text("file:///t", "text", "text/plain").to_json());
       }},
      {"refused.initialize.empty", [](const dialect&) { return refusal_of([] { parse_initialize_request({}); }); }},
      {"refused.initialize.no_client_name",
       [](const dialect&) {
         return refusal_of([] {
           parse_initialize_request(parsed(R"({"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"version":"1"}})"));
         });
       }},
      {"refused.initialize.version_not_a_string",
       [](const dialect&) {
         return refusal_of([] {
           parse_initialize_request(parsed(R"({"protocolVersion":1,"capabilities":{},"clientInfo":{"name":"c","version":"1"}})"));
         });
       }},
      {"refused.envelope.missing", [](const dialect&) { return refusal_of([] { read_envelope(parsed(R"({"_meta":{}})")); }); }},
      {"refused.envelope.bad_client_info",
       [](const dialect&) {
         return refusal_of([] {
           read_envelope(parsed(R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                                R"("io.modelcontextprotocol/clientInfo":{"name":1},)"
                                R"("io.modelcontextprotocol/clientCapabilities":{}}})"));
         });
       }},
      {"completion",
       [](const dialect&) { return json::serialize(to_json_value(completion{{"alpha", "beta"}, 120, true})); }},
      {"log_message",
       [](const dialect&) {
         return json::serialize(to_json_value(log_message{logging_level::warning, "db", json::object{{"ms", 12}}}));
       }},
      {"log_message.no_logger",
       [](const dialect&) { return json::serialize(to_json_value(log_message{logging_level::emergency, {}, "down"})); }},
      {"roots",
       [](const dialect&) {
         return json::serialize(to_json_value(std::vector<root>{{"file:///a", "A"}, {"file:///b"}}));
       }},
      {"resource_contents.blob",
       [](const dialect&) { return json::serialize(resource_contents::from_bytes("file:///b", "\x01\x02").to_json()); }},
  };
}

// What the client reads of what a server sends, written back with to_json()
// (so that what is kept, defaulted or dropped shows), or the error it gives.
std::string read_back(const std::function<json::object()>& read) {
  try {
    return json::serialize(read());
  } catch (const std::exception& e) {
    return std::string("refused: ") + e.what();
  }
}

std::map<std::string, std::function<std::string()>> reader_cases() {
  using namespace mcp::detail;
  // Wrong types for optional members: a lenient reader leaves them out.
  const auto odd_tool = R"({"name":"t","description":7,"title":false,"inputSchema":{"type":"object"},)"
                        R"("outputSchema":"no","annotations":{"readOnlyHint":"yes","title":"T"},"icons":{},"_meta":[]})";
  return {
      {"tool.full", [] { return read_back([] { return read_tool(full_tool().to_json()).to_json(); }); }},
      {"tool.odd_types", [odd_tool] { return read_back([&] { return read_tool(json::parse(odd_tool)).to_json(); }); }},
      {"tool.no_name", [] { return read_back([] { return read_tool(json::parse(R"({"inputSchema":{}})")).to_json(); }); }},
      {"resource.full", [] { return read_back([] { return read_resource(full_resource().to_json()).to_json(); }); }},
      {"resource.uri_only",
       [] { return read_back([] { return read_resource(json::parse(R"({"uri":"u:1"})")).to_json(); }); }},
      {"resource.no_uri", [] { return read_back([] { return read_resource(json::parse(R"({"name":"n"})")).to_json(); }); }},
      {"template.full",
       [] { return read_back([] { return read_resource_template(full_template().to_json()).to_json(); }); }},
      {"prompt.full", [] { return read_back([] { return read_prompt(full_prompt().to_json()).to_json(); }); }},
      {"call_tool_result.every_block",
       [] {
         return read_back([] { return read_call_tool_result(result_with_every_block().to_json()).to_json(); });
       }},
      {"call_tool_result.no_content",
       [] { return read_back([] { return read_call_tool_result(parsed(R"({"isError":"maybe"})")).to_json(); }); }},
      {"completion.odd_types",
       [] {
         return read_back([] {
           return json::object{{"read", to_json_value(read_completion(
                                            parsed(R"({"completion":{"values":["a"],"total":"many","hasMore":1}})")))}};
         });
       }},
      {"log_message.unknown_level",
       [] {
         return read_back([] {
           return to_json_value(read_log_message(parsed(R"({"level":"loud","logger":7,"data":[1]})"))).as_object();
         });
       }},
      {"resource_contents.text_and_blob",
       [] {
         return read_back([] {
           return read_resource_contents(
                      parsed(R"({"contents":[{"uri":"u:1","text":"t","blob":"AAE=","mimeType":3}]})"))
               .at(0)
               .to_json();
         });
       }},
  };
}

json::object written_now() {
  json::object out;
  for (const auto& [name, write] : cases())
    for (const dialect& d : all_dialects()) out[name + "@" + std::string(d.name)] = write(d);
  for (const auto& [name, read] : reader_cases()) out["read." + name] = read();
  return out;
}

// A tool result read from a reply the client owns takes its content and
// _meta over: the same result as read from a copy, members of the wrong type
// included (the reader is lenient).
TEST(WireReaders, AToolResultReadFromAnOwnedReplyIsTheSame) {
  const char* texts[] = {
      R"({"content":[{"type":"text","text":"hi"}],"_meta":{"k":{"v":1}},"structuredContent":{"a":1},"isError":true})",
      R"({"content":[],"resultType":"complete"})",
      R"({"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}})",
      R"({})",
      R"({"content":{},"_meta":[],"isError":"maybe"})",
  };
  for (const auto* text : texts) {
    const auto kept = parsed(text);
    const auto copied = detail::read_call_tool_result(kept);
    const auto owned = detail::read_call_tool_result(parsed(text));
    EXPECT_EQ(json::serialize(owned.to_json()), json::serialize(copied.to_json())) << text;
  }
}

TEST(WireGolden, EveryTypeIsWrittenAsBeforeUnderEveryRevision) {
  const auto now = written_now();
  if (std::getenv("CADUCEUS_UPDATE_GOLDEN")) {
    // One case per line, so that a change reads as a diff of the cases it touches.
    std::ofstream out(golden_file, std::ios::binary);
    out << "{\n";
    std::size_t left = now.size();
    for (const auto& [key, value] : now)
      out << "  " << json::serialize(json::string(key)) << ": " << json::serialize(value) << (--left ? ",\n" : "\n");
    out << "}\n";
    GTEST_SKIP() << "recorded " << golden_file;
  }
  std::ifstream in(golden_file, std::ios::binary);
  ASSERT_TRUE(in) << "no " << golden_file << " (run with CADUCEUS_UPDATE_GOLDEN=1 to record it)";
  std::stringstream text;
  text << in.rdbuf();
  const auto recorded = json::parse(text.str()).as_object();
  for (const auto& [key, value] : now) {
    const auto* before = recorded.if_contains(key);
    ASSERT_NE(before, nullptr) << key << " is not recorded";
    EXPECT_EQ(value.as_string(), before->as_string()) << key;
  }
  EXPECT_EQ(recorded.size(), now.size()) << "recorded cases that no longer exist";
}

}  // namespace
