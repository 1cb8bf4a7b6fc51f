#pragma once
// Observers of the SDK's log records, beside the sink: the bridge of log
// lines to MCP clients (server/log_bridge.hpp) is one. An observer sees every
// record written (after the sink), on the thread that logs it. What an
// observer logs while it runs is not observed again, so an observer cannot
// feed itself.

#include <mcp/log.hpp>

#include <cstdint>
#include <functional>
#include <utility>

namespace mcp::detail {

/// Observes until destroyed. A call under way on another thread may still
/// finish after: what the observer uses must outlive it (hold it by shared_ptr).
class log_observer {
 public:
  log_observer() noexcept = default;
  log_observer(log_observer&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  log_observer& operator=(log_observer&& other) noexcept {
    std::swap(id_, other.id_);
    return *this;
  }
  ~log_observer();

 private:
  friend log_observer observe_logs(std::function<void(const log_record&)> call);
  explicit log_observer(std::uint64_t id) noexcept : id_(id) {}
  std::uint64_t id_ = 0;
};

[[nodiscard]] log_observer observe_logs(std::function<void(const log_record&)> call);

}  // namespace mcp::detail
