// RFC 6570 URI templates: expansion (RFC section 3.2 examples), matching of
// MCP resource templates, the inverse property, and constructor errors.

#include <mcp/error.hpp>
#include <mcp/uri_template.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using mcp::uri_template;
using values = uri_template::value_map;

// RFC 6570 section 3.2: the string variables (lists and associative arrays
// are not representable: values are strings).
const values& rfc_values() {
  static const values v{
      {"dub", "me/too"},
      {"hello", "Hello World!"},
      {"half", "50%"},
      {"var", "value"},
      {"who", "fred"},
      {"base", "http://example.com/home/"},
      {"path", "/foo/bar"},
      {"v", "6"},
      {"x", "1024"},
      {"y", "768"},
      {"empty", ""},
  };
  return v;
}

struct golden {
  const char* tmpl;
  const char* expected;
};

void expect_expansions(const std::vector<golden>& cases) {
  for (const auto& [tmpl, expected] : cases) {
    SCOPED_TRACE(tmpl);
    EXPECT_EQ(uri_template(tmpl).expand(rfc_values()), expected);
  }
}

std::optional<values> match(std::string_view tmpl, std::string_view uri) {
  return uri_template(tmpl).match(uri);
}

// --- Expansion: RFC 6570 section 3.2 --------------------------------------

TEST(UriTemplateExpand, SimpleStringExpansionFollowsRfcSection322) {
  expect_expansions({
      {"{var}", "value"},
      {"{hello}", "Hello%20World%21"},
      {"{half}", "50%25"},
      {"O{empty}X", "OX"},
      {"O{undef}X", "OX"},
      {"{x,y}", "1024,768"},
      {"{x,hello,y}", "1024,Hello%20World%21,768"},
      {"?{x,empty}", "?1024,"},
      {"?{x,undef}", "?1024"},
      {"?{undef,y}", "?768"},
      {"{var:3}", "val"},
      {"{var:30}", "value"},
      {"map?{x,y}", "map?1024,768"},
  });
}

TEST(UriTemplateExpand, ReservedExpansionFollowsRfcSection323) {
  expect_expansions({
      {"{+var}", "value"},
      {"{+hello}", "Hello%20World!"},
      {"{+half}", "50%25"},
      {"{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"},
      {"{+base}index", "http://example.com/home/index"},
      {"O{+empty}X", "OX"},
      {"O{+undef}X", "OX"},
      {"{+path}/here", "/foo/bar/here"},
      {"here?ref={+path}", "here?ref=/foo/bar"},
      {"up{+path}{var}/here", "up/foo/barvalue/here"},
      {"{+x,hello,y}", "1024,Hello%20World!,768"},
      {"{+path,x}/here", "/foo/bar,1024/here"},
      {"{+path:6}/here", "/foo/b/here"},
  });
}

TEST(UriTemplateExpand, FragmentExpansionFollowsRfcSection324) {
  expect_expansions({
      {"{#var}", "#value"},
      {"{#hello}", "#Hello%20World!"},
      {"{#half}", "#50%25"},
      {"foo{#empty}", "foo#"},
      {"foo{#undef}", "foo"},
      {"X{#var}", "X#value"},
      {"{#x,hello,y}", "#1024,Hello%20World!,768"},
      {"{#path,x}/here", "#/foo/bar,1024/here"},
      {"{#path:6}/here", "#/foo/b/here"},
  });
}

TEST(UriTemplateExpand, LabelExpansionFollowsRfcSection325) {
  expect_expansions({
      {"{.who}", ".fred"},
      {"{.who,who}", ".fred.fred"},
      {"{.half,who}", ".50%25.fred"},
      {"X{.var}", "X.value"},
      {"X{.empty}", "X."},
      {"X{.undef}", "X"},
      {"X{.x,y}", "X.1024.768"},
      {"X{.var:3}", "X.val"},
  });
}

TEST(UriTemplateExpand, PathSegmentExpansionFollowsRfcSection326) {
  expect_expansions({
      {"{/who}", "/fred"},
      {"{/who,who}", "/fred/fred"},
      {"{/half,who}", "/50%25/fred"},
      {"{/who,dub}", "/fred/me%2Ftoo"},
      {"{/var}", "/value"},
      {"{/var,empty}", "/value/"},
      {"{/var,undef}", "/value"},
      {"{/var,x}/here", "/value/1024/here"},
      {"{/var:1,var}", "/v/value"},
  });
}

TEST(UriTemplateExpand, PathParameterExpansionFollowsRfcSection327) {
  expect_expansions({
      {"{;who}", ";who=fred"},
      {"{;half}", ";half=50%25"},
      {"{;empty}", ";empty"},
      {"{;v,empty,who}", ";v=6;empty;who=fred"},
      {"{;v,bar,who}", ";v=6;who=fred"},
      {"{;x,y}", ";x=1024;y=768"},
      {"{;x,y,empty}", ";x=1024;y=768;empty"},
      {"{;x,y,undef}", ";x=1024;y=768"},
      {"{;hello:5}", ";hello=Hello"},
  });
}

TEST(UriTemplateExpand, FormQueryExpansionFollowsRfcSection328) {
  expect_expansions({
      {"{?who}", "?who=fred"},
      {"{?half}", "?half=50%25"},
      {"{?x,y}", "?x=1024&y=768"},
      {"{?x,y,empty}", "?x=1024&y=768&empty="},
      {"{?x,y,undef}", "?x=1024&y=768"},
      {"{?var:3}", "?var=val"},
  });
}

TEST(UriTemplateExpand, FormContinuationExpansionFollowsRfcSection329) {
  expect_expansions({
      {"{&who}", "&who=fred"},
      {"{&half}", "&half=50%25"},
      {"?fixed=yes{&x}", "?fixed=yes&x=1024"},
      {"{&x,y,empty}", "&x=1024&y=768&empty="},
      {"{&x,y,undef}", "&x=1024&y=768"},
      {"{&var:3}", "&var=val"},
  });
}

TEST(UriTemplateExpand, AllVariablesUndefinedExpandsToLiteralsOnly) {
  const uri_template t("repo://{owner}/{repo}/issues{?state,labels}{#frag}");
  EXPECT_EQ(t.expand({}), "repo:////issues");
}

TEST(UriTemplateExpand, NonAsciiValuesArePercentEncodedAsUtf8) {
  EXPECT_EQ(uri_template("{var}").expand({{"var", "café"}}), "caf%C3%A9");
  EXPECT_EQ(uri_template("{+var}").expand({{"var", "ü/x"}}), "%C3%BC/x");
  EXPECT_EQ(uri_template("{?q}").expand({{"q", "日本"}}), "?q=%E6%97%A5%E6%9C%AC");
  EXPECT_EQ(uri_template("{var}").expand({{"var", "😀"}}), "%F0%9F%98%80");
}

TEST(UriTemplateExpand, PrefixCountsUnicodeCharactersNotOctets) {
  EXPECT_EQ(uri_template("{var:2}").expand({{"var", "ñañ"}}), "%C3%B1a");
  EXPECT_EQ(uri_template("{var:1}").expand({{"var", "😀x"}}), "%F0%9F%98%80");
}

TEST(UriTemplateExpand, ReservedExpansionKeepsExistingTripletsButEncodesStrayPercent) {
  EXPECT_EQ(uri_template("{+v}").expand({{"v", "a%20b%zz"}}), "a%20b%25zz");
  EXPECT_EQ(uri_template("{v}").expand({{"v", "a%20b"}}), "a%2520b");
  // A prefix never splits a triplet under + and #.
  EXPECT_EQ(uri_template("{+v:2}").expand({{"v", "%41BC"}}), "%41B");
}

TEST(UriTemplateExpand, NonAsciiLiteralIsPercentEncodedAndTripletsKept) {
  EXPECT_EQ(uri_template("docs://résumé/{id}").expand({{"id", "1"}}), "docs://r%C3%A9sum%C3%A9/1");
  EXPECT_EQ(uri_template("a%20b/{id}").expand({{"id", "1"}}), "a%20b/1");
}

TEST(UriTemplateExpand, UnusedValuesAreIgnored) {
  EXPECT_EQ(uri_template("users://{id}/profile").expand({{"id", "7"}, {"other", "x"}}),
            "users://7/profile");
}

// --- Template introspection -------------------------------------------------

TEST(UriTemplate, ReportsVariablesInOrderOfAppearanceOnce) {
  const uri_template t("{b}/{a,b}{?c,a}{/d:2}");
  EXPECT_EQ(t.variables(), (std::vector<std::string>{"b", "a", "c", "d"}));
  EXPECT_EQ(t.text(), "{b}/{a,b}{?c,a}{/d:2}");
  EXPECT_FALSE(t.is_literal());
}

TEST(UriTemplate, TemplateWithoutExpressionsIsLiteral) {
  const uri_template t("file:///etc/hosts");
  EXPECT_TRUE(t.is_literal());
  EXPECT_TRUE(t.variables().empty());
  EXPECT_EQ(t.expand({}), "file:///etc/hosts");
  EXPECT_EQ(t.match("file:///etc/hosts"), values{});
  EXPECT_FALSE(t.match("file:///etc/hosts2"));
  EXPECT_FALSE(t.match("file:///etc/host"));
}

TEST(UriTemplate, CopiesShareBehaviour) {
  const uri_template a("users://{id}/profile");
  const uri_template b = a;
  EXPECT_EQ(b.match("users://1/profile"), (values{{"id", "1"}}));
  EXPECT_EQ(b.text(), a.text());
}

// --- Matching MCP-style templates ------------------------------------------

TEST(UriTemplateMatch, SimpleVariableBindsOneSegment) {
  const uri_template t("users://{id}/profile");
  EXPECT_EQ(t.match("users://123/profile"), (values{{"id", "123"}}));
  EXPECT_EQ(t.match("users://a@b.com/profile"), (values{{"id", "a@b.com"}}));
}

TEST(UriTemplateMatch, SimpleVariableRejectsExtraSegmentsWrongSchemeAndMissingLiteral) {
  const uri_template t("users://{id}/profile");
  EXPECT_FALSE(t.match("users://123/profile/extra"));
  EXPECT_FALSE(t.match("users://a/b/profile"));
  EXPECT_FALSE(t.match("user://123/profile"));
  EXPECT_FALSE(t.match("users://123/profil"));
  EXPECT_FALSE(t.match("users://123"));
  EXPECT_FALSE(t.match("users:///profile"));  // a simple variable binds at least one character
  EXPECT_FALSE(t.match("users://1?x/profile"));
  EXPECT_FALSE(t.match(""));
}

TEST(UriTemplateMatch, ReservedVariableSpansSlashes) {
  const uri_template t("file:///{+path}");
  EXPECT_EQ(t.match("file:///a/b/c.txt"), (values{{"path", "a/b/c.txt"}}));
  EXPECT_EQ(t.match("file:///x"), (values{{"path", "x"}}));
  EXPECT_FALSE(t.match("file:///"));
  EXPECT_FALSE(t.match("file://a/b"));
  EXPECT_FALSE(t.match("file:///a#frag"));
}

TEST(UriTemplateMatch, QueryParametersAreOptionalAndInAnyOrder) {
  const uri_template t("repo://{owner}/{repo}/issues{?state,labels}");
  EXPECT_EQ(t.match("repo://acme/widgets/issues"), (values{{"owner", "acme"}, {"repo", "widgets"}}));
  EXPECT_EQ(t.match("repo://acme/widgets/issues?state=open"),
            (values{{"owner", "acme"}, {"repo", "widgets"}, {"state", "open"}}));
  EXPECT_EQ(t.match("repo://acme/widgets/issues?labels=bug%2Cui&state=closed"),
            (values{{"owner", "acme"}, {"repo", "widgets"}, {"state", "closed"}, {"labels", "bug,ui"}}));
  EXPECT_EQ(t.match("repo://acme/widgets/issues?state=&labels"),
            (values{{"owner", "acme"}, {"repo", "widgets"}, {"state", ""}, {"labels", ""}}));
}

TEST(UriTemplateMatch, QueryRejectsUnknownRepeatedOrMalformedParameters) {
  const uri_template t("repo://{owner}/{repo}/issues{?state,labels}");
  EXPECT_FALSE(t.match("repo://acme/widgets/issues?page=2"));
  EXPECT_FALSE(t.match("repo://acme/widgets/issues?state=open&page=2"));
  EXPECT_FALSE(t.match("repo://acme/widgets/issues?state=open&state=closed"));
  EXPECT_FALSE(t.match("repo://acme/widgets/issues?"));
  EXPECT_FALSE(t.match("repo://acme/widgets/issues?state=open&"));
  EXPECT_FALSE(t.match("repo://acme/widgets/issues?state=open#x"));
  EXPECT_FALSE(t.match("repo://acme/widgets/pulls?state=open"));
}

TEST(UriTemplateMatch, VariableBetweenLiteralsStopsAtTheFollowingLiteral) {
  const uri_template t("test://template/{id}/data");
  EXPECT_EQ(t.match("test://template/42/data"), (values{{"id", "42"}}));
  EXPECT_FALSE(t.match("test://template/42/data/more"));
  EXPECT_FALSE(t.match("test://template/42"));
  EXPECT_FALSE(t.match("test://template//data"));
}

TEST(UriTemplateMatch, DotLiteralSplitsDateAndFormat) {
  const uri_template t("weather://{city}/{date}.{format}");
  EXPECT_EQ(t.match("weather://London/2024-01-01.json"),
            (values{{"city", "London"}, {"date", "2024-01-01"}, {"format", "json"}}));
  // Ambiguous input: the earlier variable takes the shortest value.
  EXPECT_EQ(t.match("weather://Paris/2024.01.json"),
            (values{{"city", "Paris"}, {"date", "2024"}, {"format", "01.json"}}));
  EXPECT_FALSE(t.match("weather://London/2024-01-01"));
  EXPECT_FALSE(t.match("weather://London/2024-01-01."));
}

TEST(UriTemplateMatch, BoundValuesArePercentDecoded) {
  EXPECT_EQ(match("users://{id}/profile", "users://John%20Doe/profile"), (values{{"id", "John Doe"}}));
  EXPECT_EQ(match("users://{id}/profile", "users://a%2Fb/profile"), (values{{"id", "a/b"}}));
  EXPECT_EQ(match("file:///{+path}", "file:///dir/caf%C3%A9%2etxt"), (values{{"path", "dir/café.txt"}}));
  EXPECT_EQ(match("s://{?q}", "s://?q=%e6%97%a5%20x"), (values{{"q", "日 x"}}));
  EXPECT_EQ(match("s://{q}", "s://a+b"), (values{{"q", "a+b"}}));  // '+' is not a space
}

TEST(UriTemplateMatch, StrayPercentMakesUriUnmatchable) {
  EXPECT_FALSE(match("users://{id}/profile", "users://50%/profile"));
  EXPECT_FALSE(match("users://{id}/profile", "users://%4/profile"));
}

TEST(UriTemplateMatch, LiteralsCompareAfterNormalisation) {
  const uri_template t("docs://résumé/{id}");
  EXPECT_EQ(t.match("docs://r%C3%A9sum%C3%A9/1"), (values{{"id", "1"}}));
  EXPECT_EQ(t.match("docs://r%c3%a9sum%c3%a9/1"), (values{{"id", "1"}}));
  EXPECT_EQ(t.match("docs://résumé/1"), (values{{"id", "1"}}));
  EXPECT_EQ(match("users://{id}/profile", "users://1/%70rofile"), (values{{"id", "1"}}));
  // An encoded reserved character is not the character itself.
  EXPECT_FALSE(match("a/b/{x}", "a%2Fb/1"));
  EXPECT_FALSE(t.match("docs://resume/1"));
}

TEST(UriTemplateMatch, FragmentPathAndLabelOperators) {
  EXPECT_EQ(match("page{#section}", "page#intro/part?x"), (values{{"section", "intro/part?x"}}));
  EXPECT_EQ(match("page{#section}", "page#"), (values{{"section", ""}}));
  EXPECT_EQ(match("page{#section}", "page"), values{});
  EXPECT_EQ(match("api{/version,resource}", "api/v1/users"), (values{{"version", "v1"}, {"resource", "users"}}));
  EXPECT_EQ(match("api{/version,resource}", "api/v1"), (values{{"version", "v1"}}));
  EXPECT_FALSE(match("api{/version,resource}", "api/v1/users/7"));
  EXPECT_EQ(match("file{.ext}", "file.txt"), (values{{"ext", "txt"}}));
  EXPECT_EQ(match("file{.ext}", "file.tar.gz"), (values{{"ext", "tar.gz"}}));
  EXPECT_EQ(match("file{.ext}", "file"), values{});
}

TEST(UriTemplateMatch, PathParametersInAnyOrder) {
  const uri_template t("map{;x,y}");
  EXPECT_EQ(t.match("map;x=1;y=2"), (values{{"x", "1"}, {"y", "2"}}));
  EXPECT_EQ(t.match("map;y=2;x=1"), (values{{"x", "1"}, {"y", "2"}}));
  EXPECT_EQ(t.match("map;x"), (values{{"x", ""}}));
  EXPECT_FALSE(t.match("map;z=1"));
  EXPECT_FALSE(t.match("map;x=1/2"));
}

TEST(UriTemplateMatch, QueryThenContinuation) {
  const uri_template t("search{?q}{&page,size}");
  EXPECT_EQ(t.match("search?q=cats&page=2&size=10"), (values{{"q", "cats"}, {"page", "2"}, {"size", "10"}}));
  EXPECT_EQ(t.match("search?q=cats&size=10"), (values{{"q", "cats"}, {"size", "10"}}));
  EXPECT_EQ(match("?fixed=yes{&x}", "?fixed=yes&x=1024"), (values{{"x", "1024"}}));
  EXPECT_FALSE(t.match("search?q=cats&q=dogs"));
}

TEST(UriTemplateMatch, PrefersTheExactInverseOfExpansionOverALenientReading) {
  // Leniently, b = "" and c = "&a=x.y" would fit too (a label may hold raw
  // '&' and '=' when a client builds the URI by hand); expansion never
  // writes those raw in a label, so the exact reading wins.
  const uri_template t("{?b,a}{.c}");
  const values v{{"b", "."}, {"a", "x"}, {"c", "y"}};
  ASSERT_EQ(t.expand(v), "?b=.&a=x.y");
  EXPECT_EQ(t.match("?b=.&a=x.y"), v);
  // Only the lenient reading fits here.
  EXPECT_EQ(t.match("?b=.x=y"), (values{{"b", ""}, {"c", "x=y"}}));
  EXPECT_EQ(match("{.c}", ".a&b"), (values{{"c", "a&b"}}));
}

TEST(UriTemplateMatch, SimpleMultiVariableExpressionBindsLeadingVariables) {
  const uri_template t("{x,y}");
  EXPECT_EQ(t.match("1024,768"), (values{{"x", "1024"}, {"y", "768"}}));
  EXPECT_EQ(t.match("1024"), (values{{"x", "1024"}}));  // ambiguous: the first variable binds
  EXPECT_EQ(t.match(",768"), (values{{"x", ""}, {"y", "768"}}));
  EXPECT_FALSE(t.match("1,2,3"));
  EXPECT_FALSE(t.match(""));
}

TEST(UriTemplateMatch, ReservedMultiVariableGivesEarlierVariablesShortestValue) {
  EXPECT_EQ(match("{+a,b}", "1,2,3"), (values{{"a", "1"}, {"b", "2,3"}}));
}

TEST(UriTemplateMatch, PrefixModifierLimitsBoundCharacters) {
  EXPECT_EQ(match("{/var:1,var}", "/v/value"), (values{{"var", "value"}}));
  EXPECT_FALSE(match("{/var:1,var}", "/x/value"));  // inconsistent occurrences
  EXPECT_EQ(match("{x:2}", "ab"), (values{{"x", "ab"}}));
  EXPECT_FALSE(match("{x:2}", "abc"));
  EXPECT_EQ(match("{x:2}", "%C3%B1a"), (values{{"x", "ña"}}));
  EXPECT_EQ(match("{x:2,y}", "abc"), (values{{"y", "abc"}}));  // x cannot hold 3 characters
  EXPECT_EQ(match("{x:3}{/x}", "val/value"), (values{{"x", "value"}}));
}

TEST(UriTemplateMatch, RepeatedVariableMustAgree) {
  const uri_template t("{a}/{a}");
  EXPECT_EQ(t.match("x/x"), (values{{"a", "x"}}));
  EXPECT_FALSE(t.match("x/y"));
}

TEST(UriTemplateMatch, UrisLongerThanTheCapNeverMatch) {
  const uri_template t("file:///{+path}");
  const std::string prefix = "file:///";
  EXPECT_TRUE(t.match(prefix + std::string(uri_template::max_uri_length - prefix.size(), 'a')));
  EXPECT_FALSE(t.match(prefix + std::string(uri_template::max_uri_length - prefix.size() + 1, 'a')));
}

// A backtracking matcher would never finish these (exponential in the URI
// length); ours is linear in it. No timing assertion: the test's CTest
// timeout is the bound, and benchmarks measure speed.
TEST(UriTemplateMatch, HostileInputIsRejectedWithoutBlowingUp) {
  const std::string body(60 * 1024, 'a');
  const auto repeat = [](std::string_view unit) {
    std::string s;
    while (s.size() < 60 * 1024) s += unit;
    return s;
  };
  // Each URI ends like its template, so only the search can reject it.
  const std::vector<std::pair<std::string, std::string>> cases{
      {"x://{a}{b}{c}{d}-{e}/z", "x://" + body + "/z"},
      {"x://{+a}{+b}{+c}!{d}/end", "x://" + repeat("a/") + "/end"},
      {"x://{a}.{b}.{c}.{d}/{+e}", "x://" + repeat("a.")},
      {"x://{a,b,c}{.d,e}{/f}{?g,h}", "x://" + repeat("a.") + "#"},
      {"x://{x:9999}{y:9999}{z:9999}!", "x://" + body + "!"},
      {"x://{?a,b}{&c}{#d,e}-{f}!", "x://?a=" + body + "!"},
  };
  for (const auto& [tmpl, uri] : cases) {
    SCOPED_TRACE(tmpl);
    const uri_template t(tmpl);
    EXPECT_FALSE(t.match(uri));
  }
  // A long URI that does match, binding every variable.
  const uri_template t("x://{a}/{+b}/{c}");
  const std::string part(20 * 1024, 'a');
  EXPECT_EQ(t.match("x://" + part + "/" + part + "/c"), (values{{"a", part}, {"b", part}, {"c", "c"}}));
}

// --- Inverse property: match(expand(v)) == v --------------------------------

TEST(UriTemplateMatch, MatchInvertsExpansion) {
  struct round_trip {
    const char* tmpl;
    values v;
  };
  const std::vector<round_trip> cases{
      {"users://{id}/profile", {{"id", "42"}}},
      {"users://{id}/profile", {{"id", "John Doe/Jr?#,;&=%"}}},
      {"users://{id}/profile", {{"id", "日本語"}}},
      {"file:///{+path}", {{"path", "a/b/c.txt"}}},
      {"file:///{+path}", {{"path", "dir with space/ü.txt"}}},
      {"repo://{owner}/{repo}/issues{?state,labels}", {{"owner", "o"}, {"repo", "r"}}},
      {"repo://{owner}/{repo}/issues{?state,labels}",
       {{"owner", "o"}, {"repo", "r"}, {"state", "open&closed"}, {"labels", "a,b=c#d"}}},
      {"repo://{owner}/{repo}/issues{?state,labels}", {{"owner", "o"}, {"repo", "r"}, {"labels", ""}}},
      {"test://template/{id}/data", {{"id", "x.y-z_~"}}},
      {"weather://{city}/{date}.{format}", {{"city", "São Paulo"}, {"date", "2024-01-01"}, {"format", "json"}}},
      // RFC 6570 section 3.2 templates with unambiguous values.
      {"{var}", {{"var", "value"}}},
      {"{hello}", {{"hello", "Hello World!"}}},
      {"{half}", {{"half", "50%"}}},
      {"{x,y}", {{"x", "1024"}, {"y", "768"}}},
      {"{x,hello,y}", {{"x", "1024"}, {"hello", "Hello World!"}, {"y", "768"}}},
      {"?{x,empty}", {{"x", "1024"}, {"empty", ""}}},
      {"{base}index", {{"base", "http://example.com/home/"}}},
      {"{+base}index", {{"base", "http://example.com/home/"}}},
      {"{+path}/here", {{"path", "/foo/bar"}}},
      {"here?ref={+path}", {{"path", "/foo/bar"}}},
      {"{+x,hello,y}", {{"x", "1024"}, {"hello", "Hello World!"}, {"y", "768"}}},
      {"{+path,x}/here", {{"path", "/foo/bar"}, {"x", "1024"}}},
      {"{+path:6}/here", {{"path", "/foo/b"}}},
      {"{#var}", {{"var", "value"}}},
      {"foo{#empty}", {{"empty", ""}}},
      {"{#x,hello,y}", {{"x", "1024"}, {"hello", "Hello World!"}, {"y", "768"}}},
      {"{#path,x}/here", {{"path", "/foo/bar"}, {"x", "1024"}}},
      {"{.who}", {{"who", "fred"}}},
      {"{.who,who}", {{"who", "fred"}}},
      {"{.half,who}", {{"half", "50%"}, {"who", "fred"}}},
      {"X{.empty}", {{"empty", ""}}},
      {"X{.x,y}", {{"x", "1024"}, {"y", "768"}}},
      {"X{.var:3}", {{"var", "val"}}},
      {"{/who,who}", {{"who", "fred"}}},
      {"{/who,dub}", {{"who", "fred"}, {"dub", "me/too"}}},
      {"{/var,empty}", {{"var", "value"}, {"empty", ""}}},
      {"{/var,x}/here", {{"var", "value"}, {"x", "1024"}}},
      {"{/var:1,var}", {{"var", "value"}}},
      {"{;who}", {{"who", "fred"}}},
      {"{;empty}", {{"empty", ""}}},
      {"{;v,empty,who}", {{"v", "6"}, {"empty", ""}, {"who", "fred"}}},
      {"{;x,y,empty}", {{"x", "1024"}, {"y", "768"}, {"empty", ""}}},
      {"{;hello:5}", {{"hello", "Hello"}}},
      {"{?x,y,empty}", {{"x", "1024"}, {"y", "768"}, {"empty", ""}}},
      {"{?var:3}", {{"var", "val"}}},
      {"?fixed=yes{&x}", {{"x", "1024"}}},
      {"{&x,y,empty}", {{"x", "1024"}, {"y", "768"}, {"empty", ""}}},
      {"{?x}{&y}", {{"x", "1"}, {"y", "2"}}},
      {"docs://résumé/{id}{?lang}", {{"id", "ß"}, {"lang", "de"}}},
  };
  for (const auto& [tmpl, v] : cases) {
    const uri_template t(tmpl);
    const std::string uri = t.expand(v);
    SCOPED_TRACE(std::string(tmpl) + " -> " + uri);
    EXPECT_EQ(t.match(uri), v);
  }
}

// Random templates (each variable once) and values: whenever every
// expression without a leading character expands to something, matching the
// expansion succeeds and re-expanding the result gives the same URI.
TEST(UriTemplateMatch, MatchedValuesReExpandToTheSameUriForRandomTemplates) {
  std::mt19937 rng(6570);
  const auto pick = [&](const auto& v) { return v[rng() % v.size()]; };
  const std::vector<std::string> literals{"a", "/", ".", "-", "x/y", "?", "=", ",", ";", "&", "%41", "é"};
  const std::vector<std::string> ops{"", "+", "#", ".", "/", ";", "?", "&"};
  const std::vector<std::string> alphabet{"a", "b", "/", ".", ",", ";", "&", "=", " ", "é", "1", "-"};
  int matched = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string tmpl;
    std::vector<std::string> simple;  // expressions without a leading character
    int next_var = 0;
    for (int p = 1 + int(rng() % 4); p > 0; --p) {
      if (rng() % 2) {
        tmpl += pick(literals);
        continue;
      }
      const std::string op = pick(ops);
      std::string expr = "{" + op;
      for (int k = 1 + int(rng() % 3); k > 0; --k) {
        expr += std::string(expr.size() > 1 + op.size() ? "," : "") + "v" + std::to_string(next_var++);
        if (rng() % 6 == 0) expr += ":" + std::to_string(1 + rng() % 3);
      }
      expr += "}";
      if (op.empty() || op == "+") simple.push_back(expr);
      tmpl += expr;
    }
    const uri_template t(tmpl);
    values v;
    for (const auto& name : t.variables()) {
      if (rng() % 4 == 0) continue;
      std::string value;
      for (int len = int(rng() % 5); len > 0; --len) value += pick(alphabet);
      v[name] = value;
    }
    bool representable = true;
    for (const auto& e : simple) representable &= !uri_template(e).expand(v).empty();
    if (!representable) continue;
    const std::string uri = t.expand(v);
    SCOPED_TRACE(tmpl + " -> " + uri);
    const auto m = t.match(uri);
    ASSERT_TRUE(m);
    EXPECT_EQ(t.expand(*m), uri);
    ++matched;
  }
  EXPECT_GT(matched, 2000);
}

// --- Constructor errors -----------------------------------------------------

void expect_error(std::string_view tmpl, std::string_view column, std::string_view problem) {
  SCOPED_TRACE(tmpl);
  try {
    uri_template t(tmpl);
    ADD_FAILURE() << "accepted";
  } catch (const mcp::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("column " + std::string(column) + ":"), std::string::npos) << what;
    EXPECT_NE(what.find(problem), std::string::npos) << what;
  }
}

TEST(UriTemplateErrors, UnclosedBraceNamesItsColumn) {
  expect_error("users://{id/profile", "9", "unclosed");
  expect_error("x{", "2", "unclosed");
}

TEST(UriTemplateErrors, StrayClosingBraceIsRejected) { expect_error("a}b", "2", "unmatched '}'"); }

TEST(UriTemplateErrors, NestedBraceIsRejected) { expect_error("{a{b}}", "3", "nested '{'"); }

TEST(UriTemplateErrors, EmptyExpressionAndEmptyVariableNamesAreRejected) {
  expect_error("a{}", "2", "empty expression");
  expect_error("{+}", "3", "empty variable name");
  expect_error("{x,}", "4", "empty variable name");
  expect_error("{x,,y}", "4", "empty variable name");
}

TEST(UriTemplateErrors, ReservedAndUnknownOperatorsAreRejected) {
  expect_error("{=x}", "2", "reserved");
  expect_error("{!x}", "2", "reserved");
  expect_error("{|x}", "2", "reserved");
  expect_error("{-x}", "2", "invalid operator");
  expect_error("{ x}", "2", "invalid operator");
}

TEST(UriTemplateErrors, InvalidVariableNameCharactersAreRejected) {
  expect_error("{foo-bar}", "5", "invalid character '-' in variable name");
  expect_error("{x y}", "3", "invalid character");
  expect_error("{.a..b}", "5", "'..'");
  expect_error("{a.}", "3", "end with '.'");
  expect_error("{..a}", "3", "start with '.'");
  expect_error("{a%2}", "3", "percent-encoding");
}

TEST(UriTemplateErrors, BadModifiersAreRejected) {
  expect_error("{x:}", "4", "needs a length");
  expect_error("{x:0}", "4", "between 1 and 9999");
  expect_error("{x:10000}", "4", "between 1 and 9999");
  expect_error("{x:3a}", "5", "after the prefix length");
  expect_error("{/list*}", "7", "explode modifier '*' is not supported");
}

TEST(UriTemplateErrors, InvalidLiteralCharactersAreRejected) {
  expect_error("a b/{x}", "2", "not allowed");
  expect_error("a<b", "2", "not allowed");
  expect_error("a\"b", "2", "not allowed");
  expect_error("a|b", "2", "not allowed");
  expect_error("50%/{x}", "3", "percent-encoded");
  expect_error("a\xC3(", "2", "invalid UTF-8");
}

TEST(UriTemplateErrors, TooManyVariablesAreRejected) {
  std::string tmpl;
  for (std::size_t i = 0; i <= uri_template::max_variables; ++i) tmpl += "{v" + std::to_string(i) + "}";
  EXPECT_THROW(uri_template{tmpl}, mcp::invalid_argument);
}

}  // namespace
