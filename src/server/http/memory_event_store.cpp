// The default event store: per session, a window of the newest events of all
// its streams, bounded in count and bytes.

#include <mcp/server/event_store.hpp>

#include <deque>
#include <map>
#include <mutex>

namespace mcp {
namespace {

class memory_event_store final : public event_store {
 public:
  explicit memory_event_store(memory_event_store_options options) : options_(options) {}

  void append(std::string_view session_id, std::string_view stream_id, std::uint64_t seq,
              std::string_view data) override {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(session_id);  // (no key string made for a session already here)
    if (it == sessions_.end()) it = sessions_.emplace(std::string(session_id), session_window{}).first;
    auto& window = it->second;
    window.events.push_back({std::string(stream_id), {seq, std::string(data)}});
    window.bytes += data.size();
    while (window.events.size() > options_.max_events_per_session ||
           (window.bytes > options_.max_bytes_per_session && window.events.size() > 1)) {
      window.bytes -= window.events.front().event.data.size();
      window.events.pop_front();
    }
  }

  asio::awaitable<std::vector<stored_event>> replay(std::string session_id, std::string stream_id,
                                                    std::uint64_t after_seq) override {
    std::vector<stored_event> found;
    {
      std::lock_guard lock(mutex_);
      if (const auto it = sessions_.find(session_id); it != sessions_.end())
        for (const auto& entry : it->second.events)
          if (entry.stream == stream_id && entry.event.seq > after_seq) found.push_back(entry.event);
    }
    co_return found;
  }

  void forget(std::string_view session_id) override {
    std::lock_guard lock(mutex_);
    sessions_.erase(std::string(session_id));
  }

 private:
  struct entry {
    std::string stream;
    stored_event event;
  };
  struct session_window {
    std::deque<entry> events;  // in append order, oldest first
    std::size_t bytes = 0;
  };

  memory_event_store_options options_;
  std::mutex mutex_;
  std::map<std::string, session_window, std::less<>> sessions_;
};

}  // namespace

std::shared_ptr<event_store> make_memory_event_store(memory_event_store_options options) {
  return std::make_shared<memory_event_store>(options);
}

}  // namespace mcp
