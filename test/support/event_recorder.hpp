#pragma once
// Records telemetry events (include/mcp/telemetry/events.hpp) as copies a
// test can look at after the fact.

#include <mcp/telemetry/events.hpp>

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mcp::test {

struct recorded_event {
  telemetry::event id;
  std::map<std::string, double, std::less<>> measurements;
  std::map<std::string, std::string, std::less<>> text;
  std::map<std::string, std::int64_t, std::less<>> integers;

  std::string at(std::string_view key) const {
    const auto it = text.find(key);
    return it == text.end() ? std::string() : it->second;
  }
};

class event_recorder {
 public:
  explicit event_recorder(std::initializer_list<telemetry::event> events)
      : subscription_(telemetry::attach(events, [this](const telemetry::event_data& e) { record(e); })) {}

  /// The events recorded so far of kind `e`, in order.
  std::vector<recorded_event> of(telemetry::event e) const {
    std::lock_guard lock(mutex_);
    std::vector<recorded_event> found;
    for (const auto& r : events_)
      if (r.id == e) found.push_back(r);
    return found;
  }
  /// The first event of kind `e` whose `key` is `value`.
  std::optional<recorded_event> find(telemetry::event e, std::string_view key, std::string_view value) const {
    for (auto& r : of(e))
      if (r.at(key) == value) return r;
    return std::nullopt;
  }

 private:
  void record(const telemetry::event_data& e) {
    recorded_event r{e.id, {}, {}, {}};
    for (const auto& m : e.measurements) r.measurements.emplace(std::string(m.key), m.value);
    for (const auto& a : e.metadata) {
      if (a.is_number)
        r.integers.emplace(std::string(a.key), a.number);
      else
        r.text.emplace(std::string(a.key), std::string(a.text));
    }
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(r));
  }

  mutable std::mutex mutex_;
  std::vector<recorded_event> events_;
  telemetry::subscription subscription_;  // last: detached before the rest goes
};

}  // namespace mcp::test
