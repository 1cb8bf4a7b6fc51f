// The metrics registry and Prometheus's text exposition format 0.0.4
// (include/mcp/telemetry/metrics.hpp).

#include <mcp/error.hpp>
#include <mcp/telemetry/metrics.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace mcp::telemetry {

namespace {

constexpr std::string_view other_label = "other";

bool valid_name(std::string_view name, bool colons) {
  if (name.empty()) return false;
  const auto allowed = [colons](char c, bool first) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') return true;
    if (colons && c == ':') return true;
    return !first && c >= '0' && c <= '9';
  };
  for (std::size_t i = 0; i < name.size(); ++i)
    if (!allowed(name[i], i == 0)) return false;
  return true;
}

// A sample value or bucket bound: the shortest text that reads back as the same double.
void append_number(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "+Inf" : "-Inf";
    return;
  }
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  out.append(text, end);
}

// Label values escape backslash, double quote and newline; HELP text
// escapes backslash and newline only.
void append_escaped(std::string& out, std::string_view text, bool quotes) {
  for (const char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '"' && quotes) out += "\\\"";
    else out += c;
  }
}

template <class A, class B>
bool lexicographic_less(const A& a, const B& b) noexcept {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [](std::string_view x, std::string_view y) { return x < y; });
}

std::string_view type_name(metric::type kind) {
  switch (kind) {
    case metric::type::counter: return "counter";
    case metric::type::gauge: return "gauge";
    case metric::type::histogram: return "histogram";
  }
  return "untyped";
}

std::span<const std::string_view> span_of(label_values labels) { return {labels.begin(), labels.size()}; }

}  // namespace

bool metric::labels_less::operator()(const std::vector<std::string>& a,
                                     const std::vector<std::string>& b) const noexcept {
  return lexicographic_less(a, b);
}
bool metric::labels_less::operator()(std::span<const std::string_view> a,
                                     const std::vector<std::string>& b) const noexcept {
  return lexicographic_less(a, b);
}
bool metric::labels_less::operator()(const std::vector<std::string>& a,
                                     std::span<const std::string_view> b) const noexcept {
  return lexicographic_less(a, b);
}

metric::metric(type kind, std::string name, std::string help, std::vector<std::string> label_names,
               std::size_t max_series, std::vector<double> bounds)
    : bounds_(std::move(bounds)),
      kind_(kind),
      name_(std::move(name)),
      help_(std::move(help)),
      label_names_(std::move(label_names)),
      max_series_(std::max<std::size_t>(max_series, 1)) {
  if (!valid_name(name_, true)) throw mcp::invalid_argument("metric name `" + name_ + "` is not valid");
  for (const auto& label : label_names_)
    if (!valid_name(label, false) || label.starts_with("__") || (kind_ == type::histogram && label == "le"))
      throw mcp::invalid_argument("label name `" + label + "` of " + name_ + " is not valid");
  if (!std::is_sorted(bounds_.begin(), bounds_.end()) ||
      std::adjacent_find(bounds_.begin(), bounds_.end()) != bounds_.end())
    throw mcp::invalid_argument("the bucket bounds of " + name_ + " must ascend");
  // A metric without labels has its one series from the start: it reads 0
  // before anything happened, rather than missing.
  if (label_names_.empty()) {
    std::unique_lock guard(lock_);
    find({}, guard);
  }
}

std::size_t metric::series_count() const {
  std::lock_guard guard(lock_);
  return series_.size();
}

metric::series& metric::find(std::span<const std::string_view> labels, std::unique_lock<std::mutex>&) {
  if (labels.size() != label_names_.size())
    throw mcp::invalid_argument(name_ + " takes " + std::to_string(label_names_.size()) + " label values");
  if (const auto it = series_.find(labels); it != series_.end()) return it->second;
  std::vector<std::string> key;
  key.reserve(labels.size());
  if (series_.size() < max_series_) {
    for (const auto label : labels) key.emplace_back(label);
  } else {
    key.assign(labels.size(), std::string(other_label));
  }
  auto& made = series_[std::move(key)];
  if (kind_ == type::histogram && made.buckets.empty()) made.buckets.assign(bounds_.size() + 1, 0);
  return made;
}

const metric::series* metric::peek(std::span<const std::string_view> labels, std::unique_lock<std::mutex>&) const {
  const auto it = series_.find(labels);
  return it == series_.end() ? nullptr : &it->second;
}

void metric::write(std::string& out) const {
  out += "# HELP ";
  out += name_;
  out += ' ';
  append_escaped(out, help_, false);
  out += "\n# TYPE ";
  out += name_;
  out += ' ';
  out += type_name(kind_);
  out += '\n';
  std::lock_guard guard(lock_);
  for (const auto& [labels, s] : series_) write_series(out, labels, s);
}

void metric::write_series(std::string& out, const std::vector<std::string>& labels, const series& s) const {
  // `name{a="x",b="y"<extra>} value`, where extra is the `le` of a bucket.
  const auto sample = [&](std::string_view suffix, std::string_view le, double value) {
    out += name_;
    out += suffix;
    if (!labels.empty() || !le.empty()) {
      out += '{';
      for (std::size_t i = 0; i < labels.size(); ++i) {
        if (i != 0) out += ',';
        out += label_names_[i];
        out += "=\"";
        append_escaped(out, labels[i], true);
        out += '"';
      }
      if (!le.empty()) {
        if (!labels.empty()) out += ',';
        out += "le=\"";
        out += le;
        out += '"';
      }
      out += '}';
    }
    out += ' ';
    append_number(out, value);
    out += '\n';
  };
  if (kind_ != type::histogram) {
    sample({}, {}, s.value);
    return;
  }
  // Buckets are cumulative on the wire, the last (+Inf) being the count.
  std::uint64_t cumulative = 0;
  std::string le;
  for (std::size_t i = 0; i < s.buckets.size(); ++i) {
    cumulative += s.buckets[i];
    le.clear();
    append_number(le, i < bounds_.size() ? bounds_[i] : INFINITY);
    sample("_bucket", le, static_cast<double>(cumulative));
  }
  sample("_sum", {}, s.sum);
  sample("_count", {}, static_cast<double>(s.count));
}

counter::counter(std::string name, std::string help, std::vector<std::string> label_names, std::size_t max_series)
    : metric(type::counter, std::move(name), std::move(help), std::move(label_names), max_series, {}) {}

void counter::add(label_values labels, double by) {
  if (!(by >= 0)) throw mcp::invalid_argument("a counter only goes up");
  std::unique_lock guard(lock_of());
  find(span_of(labels), guard).value += by;
}

double counter::value(label_values labels) const {
  std::unique_lock guard(lock_of());
  const auto* s = peek(span_of(labels), guard);
  return s ? s->value : 0;
}

gauge::gauge(std::string name, std::string help, std::vector<std::string> label_names, std::size_t max_series)
    : metric(type::gauge, std::move(name), std::move(help), std::move(label_names), max_series, {}) {}

void gauge::add(label_values labels, double delta) {
  std::unique_lock guard(lock_of());
  find(span_of(labels), guard).value += delta;
}

void gauge::set(label_values labels, double value) {
  std::unique_lock guard(lock_of());
  find(span_of(labels), guard).value = value;
}

double gauge::value(label_values labels) const {
  std::unique_lock guard(lock_of());
  const auto* s = peek(span_of(labels), guard);
  return s ? s->value : 0;
}

histogram::histogram(std::string name, std::string help, std::vector<std::string> label_names,
                     std::size_t max_series, std::vector<double> bounds)
    : metric(type::histogram, std::move(name), std::move(help), std::move(label_names), max_series,
             std::move(bounds)) {}

void histogram::observe(label_values labels, double value) {
  // The first bucket whose bound is not below the value (+Inf: the last).
  // NaN is within no bound: +Inf, as Prometheus's own clients count it.
  const auto bucket =
      std::isnan(value)
          ? bounds_.size()
          : static_cast<std::size_t>(std::lower_bound(bounds_.begin(), bounds_.end(), value) - bounds_.begin());
  std::unique_lock guard(lock_of());
  auto& s = find(span_of(labels), guard);
  ++s.buckets[bucket];
  s.sum += value;
  ++s.count;
}

std::uint64_t histogram::count(label_values labels) const {
  std::unique_lock guard(lock_of());
  const auto* s = peek(span_of(labels), guard);
  return s ? s->count : 0;
}

double histogram::sum(label_values labels) const {
  std::unique_lock guard(lock_of());
  const auto* s = peek(span_of(labels), guard);
  return s ? s->sum : 0;
}

std::vector<double> mcp_duration_buckets() {
  return {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300};
}

metric& metrics_registry::add(std::unique_ptr<metric> made) {
  std::lock_guard guard(lock_);
  for (const auto& existing : metrics_) {
    if (existing->name() != made->name()) continue;
    if (existing->kind() == made->kind() && existing->label_names() == made->label_names() &&
        existing->bounds() == made->bounds())
      return *existing;
    throw mcp::invalid_argument("metric " + made->name() + " exists with another type, other labels or other buckets");
  }
  metrics_.push_back(std::move(made));
  return *metrics_.back();
}

counter& metrics_registry::add_counter(std::string name, std::string help, std::vector<std::string> label_names) {
  return static_cast<counter&>(
      add(std::make_unique<counter>(std::move(name), std::move(help), std::move(label_names), max_series_)));
}

gauge& metrics_registry::add_gauge(std::string name, std::string help, std::vector<std::string> label_names) {
  return static_cast<gauge&>(
      add(std::make_unique<gauge>(std::move(name), std::move(help), std::move(label_names), max_series_)));
}

histogram& metrics_registry::add_histogram(std::string name, std::string help, std::vector<std::string> label_names,
                                           std::vector<double> bounds) {
  return static_cast<histogram&>(add(std::make_unique<histogram>(std::move(name), std::move(help),
                                                                 std::move(label_names), max_series_,
                                                                 std::move(bounds))));
}

const metric* metrics_registry::find(std::string_view name) const {
  std::lock_guard guard(lock_);
  for (const auto& m : metrics_)
    if (m->name() == name) return m.get();
  return nullptr;
}

std::string metrics_registry::expose() const {
  std::string out;
  std::lock_guard guard(lock_);
  for (const auto& m : metrics_) m->write(out);
  return out;
}

}  // namespace mcp::telemetry
