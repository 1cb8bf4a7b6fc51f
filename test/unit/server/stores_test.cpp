// The default in-memory stores of the HTTP server: what they keep, for how
// long, and their bounds.

#include <mcp/server/event_store.hpp>
#include <mcp/server/session_store.hpp>

#include "test_support.hpp"

namespace mcp::test {
namespace {

std::vector<std::uint64_t> seqs(const std::vector<stored_event>& events) {
  std::vector<std::uint64_t> out;
  for (const auto& e : events) out.push_back(e.seq);
  return out;
}

TEST(MemoryEventStore, ReplaysOneStreamAfterAPositionInOrder) {
  run_test([]() -> asio::awaitable<void> {
    auto store = make_memory_event_store();
    store->append("s", "a", 1, "a1");
    store->append("s", "b", 1, "b1");
    store->append("s", "a", 2, "a2");
    store->append("s", "a", 3, "a3");
    store->append("t", "a", 4, "other session");
    const auto after_one = co_await store->replay("s", "a", 1);
    EXPECT_EQ(seqs(after_one), (std::vector<std::uint64_t>{2, 3}));
    EXPECT_EQ(after_one.front().data, "a2");
    const auto all_of_b = co_await store->replay("s", "b", 0);
    EXPECT_EQ(seqs(all_of_b), std::vector<std::uint64_t>{1});
    const auto unknown = co_await store->replay("s", "zzz", 0);
    EXPECT_TRUE(unknown.empty());
  });
}

TEST(MemoryEventStore, KeepsANewestWindowBoundedInCountAndBytes) {
  run_test([]() -> asio::awaitable<void> {
    memory_event_store_options options;
    options.max_events_per_session = 3;
    options.max_bytes_per_session = 1000;
    auto store = make_memory_event_store(options);
    for (std::uint64_t i = 1; i <= 5; ++i) store->append("s", "a", i, "x");
    const auto by_count = co_await store->replay("s", "a", 0);
    EXPECT_EQ(seqs(by_count), (std::vector<std::uint64_t>{3, 4, 5}));

    store->append("s", "a", 6, std::string(600, 'y'));
    store->append("s", "a", 7, std::string(600, 'z'));
    const auto by_bytes = co_await store->replay("s", "a", 0);
    EXPECT_EQ(seqs(by_bytes), std::vector<std::uint64_t>{7});
  });
}

TEST(MemoryEventStore, ForgetsAnEndedSession) {
  run_test([]() -> asio::awaitable<void> {
    auto store = make_memory_event_store();
    store->append("s", "a", 1, "a1");
    store->forget("s");
    const auto replay = co_await store->replay("s", "a", 0);
    EXPECT_TRUE(replay.empty());
  });
}

TEST(MemorySessionStore, KeepsRecordsUntilTheyExpireOrAreRemoved) {
  run_test([]() -> asio::awaitable<void> {
    auto store = make_memory_session_store();
    negotiated_session negotiated;
    negotiated.version = protocol_version::v2025_06_18;
    negotiated.client_info.name = "client";
    session_record record{"id-1", negotiated};
    co_await store->put(record, std::chrono::seconds(60));
    const auto found = co_await store->touch("id-1", std::chrono::seconds(60));
    CO_ASSERT_TRUE(found.has_value());
    CO_ASSERT_TRUE(found->negotiated.has_value());
    EXPECT_EQ(found->negotiated->version, protocol_version::v2025_06_18);
    EXPECT_EQ(found->negotiated->client_info.name, "client");
    EXPECT_TRUE(co_await store->alive("id-1"));

    co_await store->remove("id-1");
    EXPECT_FALSE(co_await store->alive("id-1"));
    const auto removed = co_await store->touch("id-1", std::chrono::seconds(60));
    EXPECT_FALSE(removed.has_value());

    session_record fleeting{"id-2", std::nullopt};
    co_await store->put(fleeting, std::chrono::seconds(0));
    EXPECT_FALSE(co_await store->alive("id-2")) << "a record past its time-to-live is gone";
  });
}

TEST(MemorySessionStore, RefreshSaysASessionLivesAndGivesItsStateOnlyOnceItChanged) {
  run_test([]() -> asio::awaitable<void> {
    auto store = make_memory_session_store();
    const session_record record{"id-1", std::nullopt};
    co_await store->put(record, std::chrono::seconds(60));
    const auto unchanged = co_await store->refresh("id-1", std::chrono::seconds(60), 0);
    CO_ASSERT_TRUE(unchanged.has_value());
    EXPECT_EQ(unchanged->state_version, 0u);
    EXPECT_FALSE(unchanged->state.has_value()) << "the caller has version 0 already";

    json::object cart;
    cart["cart"] = 3;
    co_await store->save_state("id-1", cart);
    const auto changed = co_await store->refresh("id-1", std::chrono::seconds(60), 0);
    CO_ASSERT_TRUE(changed.has_value());
    EXPECT_EQ(changed->state_version, 1u);
    CO_ASSERT_TRUE(changed->state.has_value());
    EXPECT_EQ(changed->state->at("cart"), 3);

    co_await store->remove("id-1");
    const auto gone = co_await store->refresh("id-1", std::chrono::seconds(60), 1);
    EXPECT_FALSE(gone.has_value());
  });
}

}  // namespace
}  // namespace mcp::test
