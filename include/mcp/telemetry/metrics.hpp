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

#include <mcp/export.hpp>
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
class MCP_API metric {
 public:
  /// What kind of metric it is: the `# TYPE` line of expose()'s text.
  enum class type : unsigned char {
    counter,   ///< Only goes up (class counter).
    gauge,     ///< Goes up and down (class gauge).
    histogram  ///< Counts observations into buckets (class histogram).
  };

  virtual ~metric() = default;
  metric(const metric&) = delete;
  metric& operator=(const metric&) = delete;

  /// The metric's name in the text format (letters, digits, `_` and `:`).
  const std::string& name() const noexcept { return name_; }
  /// The text of its `# HELP` line.
  const std::string& help() const noexcept { return help_; }
  /// Counter, gauge or histogram.
  type kind() const noexcept { return kind_; }
  /// The names of its labels, in the order label values are given.
  const std::vector<std::string>& label_names() const noexcept { return label_names_; }
  /// A histogram's bucket upper bounds, ascending, without +Inf; empty for the others.
  const std::vector<double>& bounds() const noexcept { return bounds_; }
  /// How many label sets it has now (at most max_series, and `other`).
  std::size_t series_count() const;

  /// Appends its HELP and TYPE lines and its samples to `out`.
  void write(std::string& out) const;

 protected:
  /// The values of one label set.
  struct series {
    double value = 0;                    ///< A counter's or gauge's value.
    std::vector<std::uint64_t> buckets;  ///< A histogram's count per bucket (not cumulative), +Inf last.
    double sum = 0;                      ///< A histogram's sum of observations.
    std::uint64_t count = 0;             ///< A histogram's number of observations.
  };
  /// Orders label sets, and finds one by views without building strings.
  struct labels_less {
    using is_transparent = void;  ///< Lets the map look up a span of views.
    /// Lexicographic order of two label sets.
    bool operator()(const std::vector<std::string>& a, const std::vector<std::string>& b) const noexcept;
    /// Lexicographic order of looked-up views and a stored label set.
    bool operator()(std::span<const std::string_view> a, const std::vector<std::string>& b) const noexcept;
    /// Lexicographic order of a stored label set and looked-up views.
    bool operator()(const std::vector<std::string>& a, std::span<const std::string_view> b) const noexcept;
  };

  /// Checks the names and bounds (throws mcp::invalid_argument: a name or
  /// label name not valid in the text format, a label `le` on a histogram or
  /// starting `__`, bounds that do not strictly ascend). `max_series` below
  /// 1 counts as 1. A metric without labels has its series from the start.
  metric(type kind, std::string name, std::string help, std::vector<std::string> label_names,
         std::size_t max_series, std::vector<double> bounds);

  /// The series of `labels` (made when new; `other` once there are
  /// max_series), with the metric's mutex held by `guard`. Throws
  /// mcp::invalid_argument when the number of values is not that of the names.
  series& find(std::span<const std::string_view> labels, std::unique_lock<std::mutex>& guard);
  /// The series of `labels` when it exists (else null), under the lock held by `guard`.
  const series* peek(std::span<const std::string_view> labels, std::unique_lock<std::mutex>& guard) const;

  /// The metric's mutex, which find() and peek() expect held.
  std::mutex& lock_of() const noexcept { return lock_; }

  const std::vector<double> bounds_;  ///< A histogram's bucket upper bounds, ascending, without +Inf.

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
class MCP_API counter final : public metric {
 public:
  /// Usually made by metrics_registry::add_counter; throws as metric's constructor does.
  counter(std::string name, std::string help, std::vector<std::string> label_names, std::size_t max_series);
  /// Adds `by` to the series of `labels`; throws mcp::invalid_argument when
  /// `by` is negative or NaN.
  void add(label_values labels, double by = 1);
  /// Its value now (0 for a label set never seen).
  double value(label_values labels = {}) const;
};

/// A value that goes up and down.
class MCP_API gauge final : public metric {
 public:
  /// Usually made by metrics_registry::add_gauge; throws as metric's constructor does.
  gauge(std::string name, std::string help, std::vector<std::string> label_names, std::size_t max_series);
  /// Adds `delta` (negative to go down) to the series of `labels`.
  void add(label_values labels, double delta);
  /// Sets the series of `labels` to `value`.
  void set(label_values labels, double value);
  /// Its value now (0 for a label set never seen).
  double value(label_values labels = {}) const;
};

/// Observations counted into buckets, with their sum and count.
class MCP_API histogram final : public metric {
 public:
  /// `bounds`: the buckets' upper bounds, ascending (+Inf is added).
  histogram(std::string name, std::string help, std::vector<std::string> label_names, std::size_t max_series,
            std::vector<double> bounds);
  /// Counts `value` into the first bucket whose bound is not below it, and
  /// into the sum and count of the series of `labels`.
  void observe(label_values labels, double value);
  /// How many values were observed (0 for a label set never seen).
  std::uint64_t count(label_values labels = {}) const;
  /// The sum of the values observed (0 for a label set never seen).
  double sum(label_values labels = {}) const;
};

/// The bucket bounds OpenTelemetry recommends for MCP durations, in seconds.
MCP_API std::vector<double> mcp_duration_buckets();

/// The metrics a process exposes. Metrics are added once (adding one of
/// the same name, type and labels again returns it; anything else of that
/// name throws mcp::invalid_argument) and live as long as the registry.
class MCP_API metrics_registry {
 public:
  /// `max_series`: the label sets each metric keeps before `other`.
  explicit metrics_registry(std::size_t max_series = 500) : max_series_(max_series) {}
  metrics_registry(const metrics_registry&) = delete;
  metrics_registry& operator=(const metrics_registry&) = delete;

  /// Adds a counter (or returns the one of that name and labels); thread safe.
  counter& add_counter(std::string name, std::string help, std::vector<std::string> label_names = {});
  /// Adds a gauge (or returns the one of that name and labels); thread safe.
  gauge& add_gauge(std::string name, std::string help, std::vector<std::string> label_names = {});
  /// Adds a histogram with the bucket upper bounds `bounds` (ascending; +Inf
  /// is added), or returns the one of that name, labels and bounds; thread
  /// safe. mcp_duration_buckets() suits durations in seconds.
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
class MCP_API mcp_metrics {
 public:
  /// Feeds nothing (record_mcp_metrics() makes one that does).
  mcp_metrics() = default;
  /// Takes over the feeding; the moved-from one feeds nothing after.
  mcp_metrics(mcp_metrics&&) noexcept = default;
  /// Stops this one's feeding and takes over the moved-from one's.
  mcp_metrics& operator=(mcp_metrics&&) noexcept = default;
  /// Stops feeding (the metrics stay in the registry, as they are).
  void detach() noexcept { subscriptions_.clear(); }
  /// Whether it still feeds the metrics.
  explicit operator bool() const noexcept { return !subscriptions_.empty(); }

 private:
  friend mcp_metrics record_mcp_metrics(metrics_registry& registry);
  std::vector<subscription> subscriptions_;
};

/// Adds the library's metrics to `registry` and feeds them from the events
/// of every server and client in the process. The registry must outlive
/// what this returns.
[[nodiscard]] MCP_API mcp_metrics record_mcp_metrics(metrics_registry& registry);

}  // namespace mcp::telemetry
