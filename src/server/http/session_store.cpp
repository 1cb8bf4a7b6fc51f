// What every session store does the same way: refresh() as touch().

#include <mcp/server/session_store.hpp>

namespace mcp {

asio::awaitable<std::optional<session_refresh>> session_store::refresh(std::string id, std::chrono::seconds ttl,
                                                                       std::uint64_t known_state_version) {
  auto record = co_await touch(std::move(id), ttl);
  if (!record) co_return std::nullopt;
  session_refresh now{record->state_version};
  if (record->state_version != known_state_version) now.state = std::move(record->state);
  co_return now;
}

}  // namespace mcp
