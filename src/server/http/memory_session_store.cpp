// The default session store: records in this process's memory, expired
// lazily when looked up and swept when new sessions are put.

#include <mcp/server/session_store.hpp>

#include <map>
#include <mutex>

namespace mcp {
namespace {

using clock = std::chrono::steady_clock;

class memory_session_store final : public session_store {
 public:
  asio::awaitable<void> put(session_record record, std::chrono::seconds ttl) override {
    {
      std::lock_guard lock(mutex_);
      sweep(clock::now());
      auto id = record.id;
      records_.insert_or_assign(std::move(id), entry{std::move(record), clock::now() + ttl});
    }
    co_return;
  }

  asio::awaitable<std::optional<session_record>> touch(std::string id,
                                                       std::chrono::seconds ttl) override {
    std::optional<session_record> found;
    {
      std::lock_guard lock(mutex_);
      if (auto* e = live(id)) {
        e->expires = clock::now() + ttl;
        found = e->record;
      }
    }
    co_return found;
  }

  asio::awaitable<bool> alive(std::string id) override {
    bool found = false;
    {
      std::lock_guard lock(mutex_);
      found = live(id) != nullptr;
    }
    co_return found;
  }

  asio::awaitable<void> remove(std::string id) override {
    {
      std::lock_guard lock(mutex_);
      records_.erase(id);
    }
    co_return;
  }

  asio::awaitable<void> save_state(std::string id, json::object changes) override {
    {
      std::lock_guard lock(mutex_);
      if (auto* e = live(id)) {
        for (auto& [key, value] : changes) e->record.state[key] = std::move(value);
        ++e->record.state_version;
      }
    }
    co_return;
  }

 private:
  struct entry {
    session_record record;
    clock::time_point expires;
  };

  entry* live(const std::string& id) {
    const auto it = records_.find(id);
    if (it == records_.end()) return nullptr;
    if (it->second.expires <= clock::now()) {
      records_.erase(it);
      return nullptr;
    }
    return &it->second;
  }

  // Amortised: each put looks at a few records, so expired ones never pile up.
  void sweep(clock::time_point now) {
    auto it = records_.upper_bound(sweep_cursor_);
    for (int looked = 0; looked < 4; ++looked) {
      if (it == records_.end()) it = records_.begin();
      if (it == records_.end()) return;
      sweep_cursor_ = it->first;
      it = it->second.expires <= now ? records_.erase(it) : std::next(it);
    }
  }

  std::mutex mutex_;
  std::map<std::string, entry> records_;
  std::string sweep_cursor_;
};

}  // namespace

std::shared_ptr<session_store> make_memory_session_store() {
  return std::make_shared<memory_session_store>();
}

}  // namespace mcp
