// The default event store: per session, a window of the newest events of all
// its streams, bounded in count and bytes, and the records of its newest
// streams (for servers of one process sharing it).

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
    window.events.push_back(entry(stream_id, seq, data));
    window.bytes += data.size();
    while (window.events.size() > options_.max_events_per_session ||
           (window.bytes > options_.max_bytes_per_session && window.events.size() > 1)) {
      window.bytes -= window.events.front().data().size();
      window.events.pop_front();
    }
  }

  asio::awaitable<std::vector<stored_event>> replay(std::string session_id, std::string stream_id,
                                                    std::uint64_t after_seq) override {
    std::vector<stored_event> found;
    {
      std::lock_guard lock(mutex_);
      if (const auto it = sessions_.find(session_id); it != sessions_.end())
        for (const auto& event : it->second.events)
          if (event.stream() == stream_id && event.seq > after_seq) found.push_back({event.seq, std::string(event.data())});
    }
    co_return found;
  }

  void forget(std::string_view session_id) override {
    std::lock_guard lock(mutex_);
    sessions_.erase(std::string(session_id));
  }

  void open_stream(std::string_view session_id, std::string_view stream_id,
                   std::span<const std::string> owed) override {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(session_id);
    if (it == sessions_.end()) it = sessions_.emplace(std::string(session_id), session_window{}).first;
    auto& records = it->second.streams;
    records.push_back({std::string(stream_id), {{owed.begin(), owed.end()}, false}});
    // A record is worth keeping as long as its stream's events may be.
    if (records.size() > options_.max_events_per_session) records.pop_front();
  }

  void end_stream(std::string_view session_id, std::string_view stream_id) override {
    std::lock_guard lock(mutex_);
    if (auto* record = find_record(session_id, stream_id)) record->ended = true;
  }

  asio::awaitable<std::optional<stream_record>> find_stream(std::string session_id, std::string stream_id) override {
    std::optional<stream_record> found;
    {
      std::lock_guard lock(mutex_);
      if (const auto* record = find_record(session_id, stream_id)) found = *record;
    }
    co_return found;
  }

 private:
  // An event and its stream's id, in one string: one allocation per event.
  class entry {
   public:
    entry(std::string_view stream, std::uint64_t seq, std::string_view data)
        : seq(seq), stream_size_(stream.size()) {
      text_.reserve(stream.size() + data.size());
      text_ += stream;
      text_ += data;
    }
    std::string_view stream() const { return std::string_view(text_).substr(0, stream_size_); }
    std::string_view data() const { return std::string_view(text_).substr(stream_size_); }

    std::uint64_t seq;

   private:
    std::size_t stream_size_;
    std::string text_;  // the stream's id, then the data
  };
  struct session_window {
    std::deque<entry> events;  // in append order, oldest first
    std::size_t bytes = 0;
    std::deque<std::pair<std::string, stream_record>> streams;  // oldest first
  };

  // With the mutex held.
  stream_record* find_record(std::string_view session_id, std::string_view stream_id) {
    const auto it = sessions_.find(session_id);
    if (it == sessions_.end()) return nullptr;
    for (auto& [id, record] : it->second.streams)
      if (id == stream_id) return &record;
    return nullptr;
  }

  memory_event_store_options options_;
  std::mutex mutex_;
  std::map<std::string, session_window, std::less<>> sessions_;
};

}  // namespace

std::shared_ptr<event_store> make_memory_event_store(memory_event_store_options options) {
  return std::make_shared<memory_event_store>(options);
}

}  // namespace mcp
