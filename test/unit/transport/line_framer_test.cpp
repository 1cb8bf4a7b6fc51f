// Behaviour of the newline framer used by the stdio transport: splitting a
// byte stream into frames, skipping blank lines, stripping CRLF, and bounding
// the size of one frame.

#include "transport/line_framer.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using mcp::inbound_frame;
using mcp::detail::line_framer;
using namespace std::string_literals;

// What the framer produced, in order: a frame's text, or "<oversized>".
constexpr std::string_view oversized_marker = "<oversized>";

std::vector<std::string> drain(line_framer& framer) {
  std::vector<std::string> out;
  while (auto frame = framer.next()) {
    if (frame->oversized) {
      EXPECT_TRUE(frame->text.empty()) << "an oversized frame carries no text";
      out.emplace_back(oversized_marker);
    } else {
      out.push_back(std::move(frame->text));
    }
  }
  return out;
}

// Feeds `stream` in chunks of the given sizes (cycled), draining after each
// feed, then calls finish(). Returns everything produced.
std::vector<std::string> run(std::size_t max, std::string_view stream,
                             const std::vector<std::size_t>& chunk_sizes, bool drain_each = true) {
  line_framer framer(max);
  std::vector<std::string> out;
  std::size_t i = 0, k = 0;
  while (i < stream.size()) {
    const auto n = std::min(chunk_sizes[k++ % chunk_sizes.size()], stream.size() - i);
    framer.feed(stream.substr(i, n));
    i += n;
    if (drain_each)
      for (auto& f : drain(framer)) out.push_back(std::move(f));
  }
  for (auto& f : drain(framer)) out.push_back(std::move(f));
  if (auto last = framer.finish()) out.push_back(last->oversized ? std::string(oversized_marker)
                                                                 : last->text);
  return out;
}

using frames = std::vector<std::string>;

TEST(LineFramer, DeliversOneFrameFedWhole) {
  line_framer framer(1024);
  framer.feed("{\"a\":1}\n");
  auto frame = framer.next();
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->text, "{\"a\":1}");
  EXPECT_FALSE(frame->oversized);
  EXPECT_FALSE(framer.next().has_value());
}

TEST(LineFramer, NothingUntilTheNewlineArrives) {
  line_framer framer(1024);
  EXPECT_FALSE(framer.next().has_value());
  framer.feed("{\"a\":");
  EXPECT_FALSE(framer.next().has_value());
  framer.feed("1}");
  EXPECT_FALSE(framer.next().has_value());
  framer.feed("\n");
  auto frame = framer.next();
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->text, "{\"a\":1}");
}

TEST(LineFramer, FramesSplitAcrossFeedsAreReassembled) {
  const std::string stream = "first frame\nsecond\nthird one here\n";
  for (std::size_t chunk : {1u, 2u, 3u, 5u, 7u, 64u}) {
    SCOPED_TRACE(chunk);
    EXPECT_EQ(run(1024, stream, {chunk}), (frames{"first frame", "second", "third one here"}));
  }
}

TEST(LineFramer, SeveralFramesInOneFeed) {
  line_framer framer(1024);
  framer.feed("a\nbb\nccc\n");
  EXPECT_EQ(drain(framer), (frames{"a", "bb", "ccc"}));
}

TEST(LineFramer, FeedEndingMidFrameKeepsTheRest) {
  line_framer framer(1024);
  framer.feed("a\nbb\ncc");
  EXPECT_EQ(drain(framer), (frames{"a", "bb"}));
  framer.feed("c\nd");
  EXPECT_EQ(drain(framer), (frames{"ccc"}));
  framer.feed("\n");
  EXPECT_EQ(drain(framer), (frames{"d"}));
}

TEST(LineFramer, CrlfIsStripped) {
  line_framer framer(1024);
  framer.feed("one\r\ntwo\r\n");
  EXPECT_EQ(drain(framer), (frames{"one", "two"}));
}

TEST(LineFramer, CrlfSplitBetweenFeedsIsStripped) {
  EXPECT_EQ(run(1024, "one\r\ntwo\r\n", {4}), (frames{"one", "two"}));
  EXPECT_EQ(run(1024, "one\r\ntwo\r\n", {1}), (frames{"one", "two"}));
}

TEST(LineFramer, OnlyTheFinalCarriageReturnIsStripped) {
  line_framer framer(1024);
  framer.feed("a\rb\r\n");
  EXPECT_EQ(drain(framer), (frames{"a\rb"}));
}

TEST(LineFramer, BlankLinesAreSkipped) {
  line_framer framer(1024);
  framer.feed("\n\n\r\n  \t\n{}\n\n \r\nx\n");
  EXPECT_EQ(drain(framer), (frames{"{}", "x"}));
}

TEST(LineFramer, InnerWhitespaceIsKept) {
  line_framer framer(1024);
  framer.feed("  {\"a\": 1}  \n");
  EXPECT_EQ(drain(framer), (frames{"  {\"a\": 1}  "}));
}

TEST(LineFramer, LineAtTheBoundIsDelivered) {
  const std::string exact(10, 'x');
  EXPECT_EQ(run(10, exact + "\n", {100}), (frames{exact}));
  EXPECT_EQ(run(10, exact + "\n", {1}), (frames{exact}));
  EXPECT_EQ(run(10, exact + "\n", {10, 1}), (frames{exact}));
}

TEST(LineFramer, CrlfLineAtTheBoundIsDelivered) {
  // The bound is on the frame; the CR of a CRLF terminator is not part of it.
  const std::string exact(10, 'x');
  EXPECT_EQ(run(10, exact + "\r\n", {100}), (frames{exact}));
  EXPECT_EQ(run(10, exact + "\r\n", {1}), (frames{exact}));
  EXPECT_EQ(run(10, exact + "\r\n", {11, 1}), (frames{exact}));
  EXPECT_EQ(run(10, std::string(11, 'x') + "\r\n", {100}), (frames{std::string(oversized_marker)}));
  EXPECT_EQ(run(10, std::string(11, 'x') + "\r\n", {1}), (frames{std::string(oversized_marker)}));
}

TEST(LineFramer, OversizedLineIsReportedOnceAndNextLineDeliveredIntact) {
  line_framer framer(10);
  framer.feed(std::string(11, 'x') + "\nabc\n");
  auto first = framer.next();
  ASSERT_TRUE(first.has_value());
  EXPECT_TRUE(first->oversized);
  EXPECT_TRUE(first->text.empty());
  auto second = framer.next();
  ASSERT_TRUE(second.has_value());
  EXPECT_FALSE(second->oversized);
  EXPECT_EQ(second->text, "abc");
  EXPECT_FALSE(framer.next().has_value());
}

TEST(LineFramer, OversizedLineInManySmallChunksIsReportedOnce) {
  const std::string stream = std::string(1000, 'y') + "\nnext\n";
  for (std::size_t chunk : {1u, 3u, 7u, 16u, 17u, 100u}) {
    SCOPED_TRACE(chunk);
    EXPECT_EQ(run(16, stream, {chunk}), (frames{std::string(oversized_marker), "next"}));
  }
}

TEST(LineFramer, OversizedLineFedWithoutDrainingIsReportedOnce) {
  const std::string stream = std::string(1000, 'y') + "\nnext\n";
  EXPECT_EQ(run(16, stream, {3}, /*drain_each=*/false),
            (frames{std::string(oversized_marker), "next"}));
}

TEST(LineFramer, OversizedLineWhoseNewlineArrivesInALaterChunk) {
  line_framer framer(10);
  framer.feed(std::string(20, 'z'));
  EXPECT_FALSE(framer.next().has_value()) << "nothing to report before the line ends";
  framer.feed("zzz");
  EXPECT_FALSE(framer.next().has_value());
  framer.feed("zz\nok");
  EXPECT_EQ(drain(framer), (frames{std::string(oversized_marker)}));
  framer.feed("\n");
  EXPECT_EQ(drain(framer), (frames{"ok"}));
}

TEST(LineFramer, OversizedTailShorterThanBoundIsStillDiscarded) {
  // Once a line is known to be oversized, the bytes up to its newline are
  // dropped even if the tail alone would fit the bound.
  line_framer framer(10);
  framer.feed(std::string(11, 'a'));
  EXPECT_FALSE(framer.next().has_value());
  framer.feed("tail\n{}\n");
  EXPECT_EQ(drain(framer), (frames{std::string(oversized_marker), "{}"}));
}

TEST(LineFramer, FramesBeforeAnOversizedLineAreDelivered) {
  EXPECT_EQ(run(8, "ok1\n" + std::string(50, 'q') + "\nok2\n", {5}),
            (frames{"ok1", std::string(oversized_marker), "ok2"}));
}

TEST(LineFramer, ConsecutiveOversizedLinesAreReportedSeparately) {
  const std::string big(30, 'b');
  const std::string stream = big + "\n" + big + "\nsmall\n" + big + "\n";
  const frames expected{std::string(oversized_marker), std::string(oversized_marker), "small",
                        std::string(oversized_marker)};
  for (std::size_t chunk : {1u, 4u, 31u, 1000u}) {
    SCOPED_TRACE(chunk);
    EXPECT_EQ(run(8, stream, {chunk}), expected);
  }
}

TEST(LineFramer, FinishReturnsUnterminatedLastLine) {
  line_framer framer(1024);
  framer.feed("a\nlast");
  EXPECT_EQ(drain(framer), (frames{"a"}));
  auto last = framer.finish();
  ASSERT_TRUE(last.has_value());
  EXPECT_FALSE(last->oversized);
  EXPECT_EQ(last->text, "last");
}

TEST(LineFramer, FinishWithNothingPendingReturnsNothing) {
  line_framer empty(1024);
  EXPECT_FALSE(empty.finish().has_value());

  line_framer drained(1024);
  drained.feed("a\n");
  EXPECT_EQ(drain(drained), (frames{"a"}));
  EXPECT_FALSE(drained.finish().has_value());

  line_framer blank(1024);
  blank.feed("a\n  \t");
  EXPECT_EQ(drain(blank), (frames{"a"}));
  EXPECT_FALSE(blank.finish().has_value());
}

TEST(LineFramer, FinishReportsPendingOversizedLine) {
  // The framer already knows the line is too long (next() saw it) ...
  line_framer seen(10);
  seen.feed(std::string(15, 'x'));
  EXPECT_FALSE(seen.next().has_value());
  seen.feed("abc");  // a tail that alone would fit
  EXPECT_FALSE(seen.next().has_value());
  auto a = seen.finish();
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->oversized);
  EXPECT_TRUE(a->text.empty());

  // ... or finds out only at the end.
  line_framer unseen(10);
  unseen.feed(std::string(15, 'x'));
  auto b = unseen.finish();
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(b->oversized);
  EXPECT_TRUE(b->text.empty());
}

TEST(LineFramer, FinishAcceptsUnterminatedLineAtTheBound) {
  line_framer framer(10);
  framer.feed(std::string(10, 'x'));
  EXPECT_FALSE(framer.next().has_value());
  auto last = framer.finish();
  ASSERT_TRUE(last.has_value());
  EXPECT_FALSE(last->oversized);
  EXPECT_EQ(last->text, std::string(10, 'x'));
}

TEST(LineFramer, FinishReportsPendingOversizedLineOnlyOnce) {
  line_framer framer(4);
  framer.feed("123456");
  EXPECT_FALSE(framer.next().has_value());
  auto first = framer.finish();
  ASSERT_TRUE(first.has_value());
  EXPECT_TRUE(first->oversized);
  EXPECT_FALSE(framer.finish().has_value());
  EXPECT_FALSE(framer.next().has_value());
}

TEST(LineFramer, ManyFramesThroughOneFramerArriveInOrder) {
  // Exercises the internal compaction: thousands of frames, odd chunking.
  std::string stream;
  frames expected;
  for (int i = 0; i < 3000; ++i) {
    std::string frame = "{\"id\":" + std::to_string(i) + ",\"pad\":\"" +
                        std::string(static_cast<std::size_t>(i % 37), 'p') + "\"}";
    stream += frame;
    stream += (i % 3 == 0) ? "\r\n" : "\n";
    if (i % 10 == 0) stream += "\n";  // a blank line now and then
    expected.push_back(std::move(frame));
  }
  for (const std::vector<std::size_t>& chunks :
       {std::vector<std::size_t>{1}, {13}, {4096}, {1, 2, 3, 50, 7, 999}}) {
    EXPECT_EQ(run(1024, stream, chunks), expected);
  }
}

TEST(LineFramer, MixedStreamMatchesAcrossChunkings) {
  // A stream mixing good, blank, CRLF and oversized lines gives the same
  // frames however it is chunked, drained eagerly or not.
  std::string stream;
  frames expected;
  for (int i = 0; i < 200; ++i) {
    if (i % 7 == 3) {
      stream += std::string(40 + static_cast<std::size_t>(i), 'O') + "\n";
      expected.emplace_back(oversized_marker);
    } else if (i % 11 == 5) {
      stream += "\r\n";
    } else {
      std::string frame = "f" + std::to_string(i);
      stream += frame + (i % 2 ? "\r\n" : "\n");
      expected.push_back(std::move(frame));
    }
  }
  stream += "tail";
  expected.push_back("tail");
  for (const std::vector<std::size_t>& chunks :
       {std::vector<std::size_t>{1}, {2}, {5, 1, 31}, {33}, {100000}}) {
    EXPECT_EQ(run(32, stream, chunks, true), expected);
    EXPECT_EQ(run(32, stream, chunks, false), expected);
  }
}

TEST(LineFramer, WorksWithTheDefaultBound) {
  line_framer framer(mcp::default_max_frame_size);
  const std::string big(mcp::default_max_frame_size, 'x');
  framer.feed(big);
  framer.feed("\n");
  auto frame = framer.next();
  ASSERT_TRUE(frame.has_value());
  EXPECT_FALSE(frame->oversized);
  EXPECT_EQ(frame->text.size(), big.size());
}

}  // namespace
