// The Redis client's pieces that need no server (src/cluster/redis): RESP
// written and parsed (hiredis as the codec), replies as values, the backoff
// between reconnections, and a script's SHA1.

#include <mcp/error.hpp>

#include "cluster/redis/backoff.hpp"
#include "cluster/redis/errors.hpp"
#include "cluster/redis/reply.hpp"
#include "cluster/redis/script.hpp"
#include "cluster/redis/wire.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace {

namespace redis = mcp::detail::redis;
using namespace std::chrono_literals;
using namespace std::string_literals;

TEST(RedisWire, CommandsAreWrittenAsArraysOfBulkStrings) {
  std::string out;
  redis::append_command(out, {"SET", "k", ""});
  redis::append_command(out, {"ECHO", "a\0b\r\n"s});
  EXPECT_EQ(out, "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n"
                 "*2\r\n$4\r\nECHO\r\n$5\r\na\0b\r\n\r\n"s);
  EXPECT_THROW(redis::append_command(out, {}), mcp::invalid_argument);
}

TEST(RedisWire, AnEvalIsWrittenAsTheCommandItIs) {
  std::string eval;
  redis::append_eval(eval, "EVALSHA", "abc", {"k1", "k2"}, {"60000"});
  std::string command;
  redis::append_command(command, {"EVALSHA", "abc", "2", "k1", "k2", "60000"});
  EXPECT_EQ(eval, command);
  eval.clear();
  redis::append_eval(eval, "EVAL", "return 1", {}, {});
  EXPECT_EQ(eval, "*3\r\n$4\r\nEVAL\r\n$8\r\nreturn 1\r\n$1\r\n0\r\n");
}

TEST(RedisWire, RepliesAreParsedHoweverTheBytesAreSplit) {
  const std::string bytes = "*4\r\n:-7\r\n$-1\r\n*2\r\n+OK\r\n-ERR bad thing\r\n$5\r\na\0b\r\n\r\n:1\r\n"s;
  redis::decoder d;
  std::vector<redis::reply> got;
  for (char c : bytes) {  // one byte at a time
    d.feed(std::string_view(&c, 1));
    while (auto r = d.next()) got.push_back(std::move(*r));
  }
  ASSERT_EQ(got.size(), 2u);
  const auto& array = got[0];
  ASSERT_TRUE(array.is_array());
  EXPECT_EQ(array.at(0).as_integer(), -7);
  EXPECT_TRUE(array.at(1).is_nil());
  EXPECT_TRUE(array.at(2).at(0).is_status_equal("OK"));
  EXPECT_EQ(array.at(2).at(1).error_message(), "ERR bad thing");
  EXPECT_EQ(array.at(3).as_string(), "a\0b\r\n"s);
  EXPECT_EQ(got[1], redis::reply::make_integer(1));
  EXPECT_FALSE(d.next());
}

TEST(RedisWire, BytesThatAreNotRespEndTheConnection) {
  redis::decoder d;
  EXPECT_THROW(
      {
        d.feed("?what\r\n");
        d.next();
      },
      redis::protocol_error);
}

TEST(RedisReply, AccessorsSayWhatTheyFound) {
  const auto text = redis::reply::make_string("v");
  EXPECT_EQ(text.as_optional_string(), "v");
  try {
    text.as_integer();
    FAIL() << "a string read as an integer";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("expected integer, got string \"v\""), std::string::npos) << e.what();
  }
  EXPECT_THROW(text.at(0), std::logic_error);
  EXPECT_THROW(redis::reply::make_array({}).at(0), std::out_of_range);
  EXPECT_EQ(redis::reply().as_optional_string(), std::nullopt);

  // An error reply used as a value throws Redis's own message.
  const auto error = redis::reply::make_error("WRONGTYPE Operation against a key holding the wrong kind of value");
  try {
    error.as_string();
    FAIL() << "an error reply read as a string";
  } catch (const redis::error_reply& e) {
    EXPECT_EQ(std::string(e.what()), "WRONGTYPE Operation against a key holding the wrong kind of value");
  }
  EXPECT_TRUE(error.is_error_code("WRONGTYPE"));
  EXPECT_FALSE(error.is_error_code("WRONG"));
  EXPECT_TRUE(redis::reply::make_error("NOSCRIPT").is_error_code("NOSCRIPT"));
  EXPECT_FALSE(text.is_error_code("v"));
}

TEST(RedisBackoff, WaitsDoubleUpToTheBoundWithJitter) {
  redis::backoff b(100ms, 2s);
  auto bound = 100ms;
  for (int i = 0; i < 10; ++i) {
    const auto w = b.next();
    EXPECT_GE(w, bound / 2);
    EXPECT_LE(w, bound);
    bound = std::min<std::chrono::milliseconds>(bound * 2, 2s);
  }
  b.reset();
  EXPECT_LE(b.next(), 100ms);
}

TEST(RedisScript, IsNamedByTheSha1OfItsSource) {
  EXPECT_EQ(redis::script("").sha1(), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(redis::script("return 1").sha1(), "e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
}

}  // namespace
