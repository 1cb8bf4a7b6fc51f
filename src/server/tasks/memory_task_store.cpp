// The default task store: records in a map, bounded and expired by their ttl.

#include <mcp/error.hpp>
#include <mcp/server/task_store.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace mcp {

std::chrono::system_clock::time_point task_record::expires_at() const noexcept {
  if (!ttl) return std::chrono::system_clock::time_point::max();
  return created_at + *ttl;
}

namespace {

class memory_task_store final : public task_store {
 public:
  explicit memory_task_store(std::size_t max_tasks) : max_tasks_(max_tasks) {}

  asio::awaitable<void> create(task_record record) override {
    {
      std::lock_guard lock(mutex_);
      if (by_id_.contains(record.id)) throw mcp::invalid_argument("a task with this id exists");
      if (by_id_.size() >= max_tasks_) make_room();
      const auto seq = next_seq_++;
      by_id_.emplace(record.id, seq);
      by_seq_.emplace(seq, std::move(record));
    }
    co_return;
  }

  asio::awaitable<void> put(task_record record) override {
    {
      std::lock_guard lock(mutex_);
      if (const auto it = by_id_.find(record.id); it != by_id_.end()) {
        auto& now = by_seq_[it->second];
        if (!is_terminal(now.status)) now = std::move(record);
      }
    }
    co_return;
  }

  asio::awaitable<std::optional<task_record>> find(std::string id) override {
    std::optional<task_record> found;
    {
      std::lock_guard lock(mutex_);
      if (const auto it = by_id_.find(id); it != by_id_.end()) {
        auto& record = by_seq_.at(it->second);
        if (record.expires_at() > std::chrono::system_clock::now())
          found = record;
        else
          forget(it->second);
      }
    }
    co_return found;
  }

  asio::awaitable<task_record_page> list(std::string owner, std::string cursor, std::size_t limit) override {
    task_record_page page;
    {
      std::lock_guard lock(mutex_);
      std::uint64_t from = 0;
      if (!cursor.empty()) {
        try {
          from = std::stoull(cursor);
        } catch (const std::exception&) {
          throw mcp::invalid_argument("invalid cursor");
        }
      }
      const auto now = std::chrono::system_clock::now();
      for (auto it = by_seq_.lower_bound(from); it != by_seq_.end(); ++it) {
        const auto& record = it->second;
        if (record.owner != owner || record.expires_at() <= now) continue;
        if (page.tasks.size() == limit) {
          page.next_cursor = std::to_string(it->first);
          break;
        }
        page.tasks.push_back(record);
      }
    }
    co_return page;
  }

 private:
  // Called full: the expired go, then the oldest finished task.
  void make_room() {
    const auto now = std::chrono::system_clock::now();
    for (auto it = by_seq_.begin(); it != by_seq_.end();) {
      const auto seq = it++->first;
      if (by_seq_.at(seq).expires_at() <= now) forget(seq);
    }
    if (by_id_.size() < max_tasks_) return;
    for (const auto& [seq, record] : by_seq_) {
      if (is_terminal(record.status)) {
        forget(seq);
        return;
      }
    }
    throw std::length_error("too many tasks are running");
  }

  void forget(std::uint64_t seq) {
    const auto it = by_seq_.find(seq);
    by_id_.erase(it->second.id);
    by_seq_.erase(it);
  }

  const std::size_t max_tasks_;
  std::mutex mutex_;
  std::uint64_t next_seq_ = 1;
  std::map<std::uint64_t, task_record> by_seq_;  // oldest first: the list order
  std::unordered_map<std::string, std::uint64_t> by_id_;
};

}  // namespace

std::shared_ptr<task_store> make_memory_task_store(std::size_t max_tasks) {
  return std::make_shared<memory_task_store>(max_tasks);
}

}  // namespace mcp
