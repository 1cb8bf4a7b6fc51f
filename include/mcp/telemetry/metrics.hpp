#pragma once
// Metrics in Prometheus's text exposition format (version 0.0.4): counters,
// gauges and histograms with labels, kept in a registry that renders them
// all for a scrape (docs/observability.md, "Metrics").
//
//   mcp::telemetry::metrics_registry registry;
//   auto& calls = registry.add_counter("app_calls_total", "Calls served.", {"outcome"});
//   calls.add({"ok"});
//   std::string page = registry.expose();
//
// The library's own metrics are fed by its telemetry events
// (record_mcp_metrics), as a user's would be. Every metric is safe to
// update from any thread: one mutex per metric, held for a lookup and an
// addition. A client can make the server see any method or tool name, so
// each metric keeps at most `max_series` label sets; values of any further
// one go to the label set whose every value is `other`.

#include <mcp/telemetry/events.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::telemetry {

/// The Content-Type of expose()'s text.
inline constexpr std::string_view metrics_content_type = "text/plain; version=0.0.4; charset=utf-8";

/// Label values, in the order of the metric's label names.
using label_values = std::initializer_list<std::string_view>;

/// One named metric and its series (one per label set).
class metric {
 public:
  enum class type : unsigned char { counter, gauge, histogram };

  virtual ~metric() = default;
  metric(const metric&) = delete;
  metric& operator=(const metric&) = delete;

  const std::string& name() const noexcept { return name_; }
  const std::string& help() const noexcept { return help_; }
  type kind() const noexcept { return kind_; }
  const std::vector<std::string>& label_names() const noexcept { return label_names_; }
  /// How many label sets it has now (at most max_series, and `other`).
  std::size_t series_count() const;

  /// Appends its HELP and TYPE lines and its samples to `out`.
  void write(std::string& out) const;

 protected:
  struct series {
    double value = 0;                    // counter, gauge
    std::vector<std::uint64_t> buckets;  // histogram: per bucket (not cumulative)
    double sum = 0;
    std::uint64_t count = 0;
  };
  // Orders label sets, and finds one by views without building strings.
  struct labels_less {
    using is_transparent = void;
    bool operator()(const std::vector<std::string>& a, const std::vector<std::string>& b) const noexcept;
    bool operator()(std::span<const std::string_view> a, const std::vector<std::string>& b) const noexcept;
    bool operator()(const std::vector<std::string>& a, std::span<const std::string_view> b) const noexcept;
  };

  metric(type kind, std::string name, std::string help, std::vector<std::string> label_names,
         std::size_t max_series, std::vector<double> bounds);

  // The series of `labels` (made when new; `other` once there are
  // max_series), with the metric's mutex held by `guard`.
  series& find(std::span<const std::string_view> labels, std::unique_lock<std::mutex>& guard);
  // The series of `labels` when it exists, under the lock held by `guard`.
  const series* peek(std::span<const std::string_view> labels, std::unique_lock<std::mutex>& guard) const;

  std::mutex& lock_of() const noexcept { return lock_; }

  const std::vector<double> bounds_;  // histogram bucket upper bounds, ascending, without +Inf

 private:
  void write_series(std::string& out, const std::vector<std::string>& labels, const series& s) const;

  const type kind_;
  const std::string name_;
  const std::string help_;
  const std::vector<std::string> label_names_;
  const std::size_t max_series_;
  mutable std::mutex lock_;
  std::map<std::vector<std::string>, series, labels_less> series_;
};

/// A count that only goes up (name it `..._total`).
class counter final : public metric {
 public:
  counter(std::string name, std::string help, std::vector<std::string> label_names, std::size_t max_series);
  /// Adds `by` (not negative) to the series of `labels`.
  void add(label_values labels, double by = 1);
  /// Its value now (0 for a label set never seen).
  double value(label_values labels = {}) const;
};

/// A value that goes up and down.
class gauge final : public metric {
 public:
  gauge(std::string name, std::string help, std::vector<std::string> label_names, std::size_t max_series);
  void add(label_values labels, double delta);
  void set(label_values labels, double value);
  double value(label_values labels = {}) const;
};

/// Observations counted into buckets, with their sum and count.
class histogram final : public metric {
 public:
  /// `bounds`: the buckets' upper bounds, ascending (+Inf is added).
  histogram(std::string name, std::string help, std::vector<std::string> label_names, std::size_t max_series,
            std::vector<double> bounds);
  void observe(label_values labels, double value);
  std::uint64_t count(label_values labels = {}) const;
  double sum(label_values labels = {}) const;
};

/// The bucket bounds OpenTelemetry recommends for MCP durations, in seconds.
std::vector<double> mcp_duration_buckets();

/// The metrics a process exposes. Metrics are added once (adding one of
/// the same name, type and labels again returns it; anything else of that
/// name throws mcp::invalid_argument) and live as long as the registry.
class metrics_registry {
 public:
  /// `max_series`: the label sets each metric keeps before `other`.
  explicit metrics_registry(std::size_t max_series = 500) : max_series_(max_series) {}
  metrics_registry(const metrics_registry&) = delete;
  metrics_registry& operator=(const metrics_registry&) = delete;

  counter& add_counter(std::string name, std::string help, std::vector<std::string> label_names = {});
  gauge& add_gauge(std::string name, std::string help, std::vector<std::string> label_names = {});
  histogram& add_histogram(std::string name, std::string help, std::vector<std::string> label_names,
                           std::vector<double> bounds);

  /// The metric of that name, or null.
  const metric* find(std::string_view name) const;
  /// Every metric in the text format, in the order they were added.
  std::string expose() const;

 private:
  metric& add(std::unique_ptr<metric> made);

  const std::size_t max_series_;
  mutable std::mutex lock_;
  std::vector<std::unique_ptr<metric>> metrics_;
};

/// The library's metrics (docs/observability.md lists them), added to a
/// registry and fed by the telemetry events until this is destroyed.
class mcp_metrics {
 public:
  mcp_metrics() = default;
  mcp_metrics(mcp_metrics&&) noexcept = default;
  mcp_metrics& operator=(mcp_metrics&&) noexcept = default;
  /// Stops feeding (the metrics stay in the registry, as they are).
  void detach() noexcept { subscriptions_.clear(); }
  explicit operator bool() const noexcept { return !subscriptions_.empty(); }

 private:
  friend mcp_metrics record_mcp_metrics(metrics_registry& registry);
  std::vector<subscription> subscriptions_;
};

/// Adds the library's metrics to `registry` and feeds them from the events
/// of every server and client in the process. The registry must outlive
/// what this returns.
[[nodiscard]] mcp_metrics record_mcp_metrics(metrics_registry& registry);

}  // namespace mcp::telemetry
