// The requestState key a server process is configured with: every replica
// behind a load balancer must verify the states the others sealed.

#include <mcp/error.hpp>
#include <mcp/server/serve.hpp>

#include "detail/random.hpp"
#include "protocol/request_state.hpp"
#include "scoped_environment.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace mcp {
namespace {

const std::string key_hex = "00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF";

using scoped_env = test::scoped_environment;

std::string write_temp_file(const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("caduceus-key-" + detail::random_hex(8));
  std::ofstream(path) << text;
  return path.string();
}

TEST(RequestStateKey, HexDigitsBecomeTheKeyBytes) {
  const auto key = parse_request_state_key("  " + key_hex + "\n");
  ASSERT_EQ(key.size(), 32u);
  EXPECT_EQ(static_cast<unsigned char>(key[1]), 0x11);
  EXPECT_EQ(static_cast<unsigned char>(key[31]), 0xff);
}

TEST(RequestStateKey, ShortOddOrNonHexKeysAreRefusedWithoutEchoingThem) {
  for (const std::string& bad : {key_hex.substr(0, 62), key_hex + "0", "zz" + key_hex.substr(2), std::string()}) {
    try {
      (void)parse_request_state_key(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const mcp::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("requestState key"), std::string::npos) << message;
      if (bad.size() > 8) {
        EXPECT_EQ(message.find(bad.substr(2, 8)), std::string::npos) << message;
      }
    }
  }
}

TEST(RequestStateKey, TheFileComesFirstThenTheEnvironmentThenNone) {
  const auto file = write_temp_file(key_hex + "\n");
  const std::string other(64, 'a');
  {
    scoped_env env("CADUCEUS_REQUEST_STATE_KEY", other.c_str());
    EXPECT_EQ(configured_request_state_key(file), parse_request_state_key(key_hex));
    EXPECT_EQ(configured_request_state_key(""), parse_request_state_key(other));
  }
  {
    scoped_env env("CADUCEUS_REQUEST_STATE_KEY", nullptr);
    EXPECT_EQ(configured_request_state_key(""), "");
  }
  std::remove(file.c_str());
  EXPECT_THROW((void)configured_request_state_key(file), mcp::invalid_argument);
}

TEST(RequestStateKey, AStateSealedByOneReplicaOpensOnAnotherWithTheSameKey) {
  const auto key = parse_request_state_key(key_hex);
  const detail::request_state_codec a(key, std::chrono::seconds(60));
  const detail::request_state_codec b(key, std::chrono::seconds(60));
  const detail::request_state_codec stranger("", std::chrono::seconds(60));  // a random key of its own
  detail::request_state_payload payload;
  payload.answers["confirm"] = json::object{{"action", "accept"}};
  const auto now = std::chrono::system_clock::now();
  const auto sealed = a.seal(payload, "binding", now);
  const auto opened = b.open(sealed, "binding", now);
  ASSERT_TRUE(opened.has_value());
  EXPECT_EQ(opened->answers, payload.answers);
  EXPECT_FALSE(stranger.open(sealed, "binding", now).has_value());
}

}  // namespace
}  // namespace mcp
