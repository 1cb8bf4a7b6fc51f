// Where SDK log records go (include/mcp/log.hpp): the levels by category, the
// format, the sink (stderr by default), and the observers of
// detail/log_observer.hpp.

#include <mcp/error.hpp>
#include <mcp/log.hpp>

#include "detail/log_fields.hpp"
#include "detail/log_observer.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcp {

namespace {

constexpr std::size_t category_count = static_cast<std::size_t>(log_category::count_);

constexpr std::array<std::string_view, category_count> category_names{
    "server", "protocol", "transport", "session", "auth", "client", "cluster", "access"};

constexpr log_level default_level = log_level::warn;
// The access log is enabled by enable_access_log(); once it is, its lines show.
constexpr log_level default_access_level = log_level::info;

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

using level_table = std::array<log_level, category_count>;

level_table default_levels() {
  level_table levels;
  levels.fill(default_level);
  levels[static_cast<std::size_t>(log_category::access)] = default_access_level;
  return levels;
}

// `spec` applied over `levels`, or an exception naming what does not read.
level_table parse_levels(std::string_view spec, level_table levels) {
  if (trim(spec).empty()) throw mcp::invalid_argument("empty log level spec");
  while (!spec.empty()) {
    const auto comma = spec.find(',');
    const auto item = trim(spec.substr(0, comma));
    spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
    const auto equals = item.find('=');
    const auto level_text = equals == std::string_view::npos ? item : trim(item.substr(equals + 1));
    const auto level = log_level_named(level_text);
    if (!level) throw mcp::invalid_argument("unknown log level '" + std::string(level_text) + "'");
    if (equals == std::string_view::npos) {
      for (std::size_t i = 0; i < category_count; ++i)
        if (i != static_cast<std::size_t>(log_category::access)) levels[i] = *level;
      continue;
    }
    const auto name = trim(item.substr(0, equals));
    const auto category = log_category_named(name);
    if (!category) throw mcp::invalid_argument("unknown log category '" + std::string(name) + "'");
    levels[static_cast<std::size_t>(*category)] = *level;
  }
  return levels;
}

void store(const level_table& levels) noexcept {
  for (std::size_t i = 0; i < category_count; ++i)
    detail::log_thresholds[i].store(levels[i], std::memory_order_relaxed);
}

level_table current_levels() noexcept {
  level_table levels;
  for (std::size_t i = 0; i < category_count; ++i)
    levels[i] = detail::log_thresholds[i].load(std::memory_order_relaxed);
  return levels;
}

// A bad variable is said once on stderr, and the default kept: a typo must
// not stop a server from starting, nor go unnoticed.
void complain(const char* variable, const std::string& why) {
  std::fprintf(stderr, "caduceus: %s ignored: %s\n", variable, why.c_str());
}

level_table levels_from_environment() {
  const char* text = std::getenv("CADUCEUS_LOG");
  if (!text || !*text) return default_levels();
  try {
    return parse_levels(text, default_levels());
  } catch (const mcp::invalid_argument& e) {
    complain("CADUCEUS_LOG", e.what());
    return default_levels();
  }
}

log_format format_from_environment() {
  const char* text = std::getenv("CADUCEUS_LOG_FORMAT");
  if (!text || !*text) return log_format::text;
  if (auto format = log_format_named(text)) return *format;
  complain("CADUCEUS_LOG_FORMAT", "unknown format '" + std::string(text) + "' (text, json, logfmt)");
  return log_format::text;
}

std::atomic<log_format> chosen_format{log_format::text};
std::mutex sink_mutex;
log_sink custom_sink;

struct observer_entry {
  std::uint64_t id;
  std::function<void(const log_record&)> call;
};
std::mutex observers_mutex;
std::shared_ptr<const std::vector<observer_entry>> observers;  // replaced whole on change
std::uint64_t next_observer_id = 1;
// Set while this thread runs the observers: what they log is not observed again.
thread_local bool observing = false;

void tell_observers(const log_record& record) {
  if (observing) return;
  std::shared_ptr<const std::vector<observer_entry>> current;
  {
    std::lock_guard lock(observers_mutex);
    current = observers;
  }
  if (!current) return;
  struct observing_scope {
    observing_scope() noexcept { observing = true; }
    ~observing_scope() { observing = false; }  // (an observer that throws too)
  } scope;
  for (const auto& o : *current) o.call(record);
}

// Reads the environment once, before the first record (a static's
// initializer: thread safe, and before main for the SDK's users).
struct environment_settings {
  environment_settings() {
    store(levels_from_environment());
    chosen_format.store(format_from_environment(), std::memory_order_relaxed);
  }
} const from_environment;

}  // namespace

// Constant-initialized, so that a line logged before the environment is read
// (another file's static) still meets the defaults.
std::atomic<log_level> detail::log_thresholds[category_count]{
    default_level, default_level, default_level, default_level,
    default_level, default_level, default_level, default_access_level};
static_assert(category_count == 8, "one initial level per category");

std::string_view to_string(log_level level) noexcept {
  switch (level) {
    case log_level::trace: return "trace";
    case log_level::debug: return "debug";
    case log_level::info: return "info";
    case log_level::warn: return "warn";
    case log_level::error: return "error";
    case log_level::off: break;
  }
  return "off";
}

std::string_view to_string(log_category category) noexcept {
  const auto index = static_cast<std::size_t>(category);
  return index < category_count ? category_names[index] : std::string_view{};
}

std::optional<log_level> log_level_named(std::string_view name) noexcept {
  for (auto level : {log_level::trace, log_level::debug, log_level::info, log_level::warn, log_level::error,
                     log_level::off})
    if (name == to_string(level)) return level;
  if (name == "warning") return log_level::warn;
  return std::nullopt;
}

std::optional<log_category> log_category_named(std::string_view name) noexcept {
  for (std::size_t i = 0; i < category_count; ++i)
    if (category_names[i] == name) return static_cast<log_category>(i);
  return std::nullopt;
}

std::optional<log_format> log_format_named(std::string_view name) noexcept {
  if (name == "text") return log_format::text;
  if (name == "json") return log_format::json;
  if (name == "logfmt") return log_format::logfmt;
  return std::nullopt;
}

const log_field* log_record::field(std::string_view key) const noexcept {
  for (const auto& f : fields)
    if (f.key == key) return &f;
  return nullptr;
}

log_level sdk_log_level(log_category category) noexcept {
  return detail::log_thresholds[static_cast<std::size_t>(category)].load(std::memory_order_relaxed);
}

void set_sdk_log_level(log_category category, log_level level) noexcept {
  detail::log_thresholds[static_cast<std::size_t>(category)].store(level, std::memory_order_relaxed);
}

void set_sdk_log_level(log_level level) noexcept {
  for (std::size_t i = 0; i < category_count; ++i)
    if (i != static_cast<std::size_t>(log_category::access)) set_sdk_log_level(static_cast<log_category>(i), level);
}

void set_sdk_log_levels(std::string_view spec) { store(parse_levels(spec, current_levels())); }

log_format sdk_log_format() noexcept { return chosen_format.load(std::memory_order_relaxed); }

void set_sdk_log_format(log_format format) noexcept { chosen_format.store(format, std::memory_order_relaxed); }

void set_sdk_log_sink(log_sink sink) {
  std::lock_guard lock(sink_mutex);
  custom_sink = std::move(sink);
}

void set_sdk_log_sink(std::function<void(log_level, std::string_view)> sink) {
  if (!sink) return set_sdk_log_sink(nullptr);
  set_sdk_log_sink([sink = std::move(sink)](const log_record& record) {
    std::string text(record.message);
    detail::append_logfmt_fields(text, record.fields);
    sink(record.level, text);
  });
}

void set_sdk_log_sink(std::nullptr_t) noexcept {
  std::lock_guard lock(sink_mutex);
  custom_sink = nullptr;
}

void detail::write_log(log_category category, log_level level, std::string_view message,
                       std::span<const log_field> fields) {
  const log_record record{std::chrono::system_clock::now(), level, category, message, fields};
  {
    std::lock_guard lock(sink_mutex);
    if (custom_sink) {
      custom_sink(record);
    } else {
      auto line = format_log_record(record, sdk_log_format());
      line += '\n';
      std::fwrite(line.data(), 1, line.size(), stderr);
    }
  }
  tell_observers(record);
}

detail::log_observer::~log_observer() {
  if (!id_) return;
  std::lock_guard lock(observers_mutex);
  auto rest = std::make_shared<std::vector<observer_entry>>();
  for (const auto& o : *observers)
    if (o.id != id_) rest->push_back(o);
  observers = rest->empty() ? nullptr : std::move(rest);
}

detail::log_observer detail::observe_logs(std::function<void(const log_record&)> call) {
  std::lock_guard lock(observers_mutex);
  auto more = observers ? std::make_shared<std::vector<observer_entry>>(*observers)
                        : std::make_shared<std::vector<observer_entry>>();
  const auto id = next_observer_id++;
  more->push_back({id, std::move(call)});
  observers = std::move(more);
  return log_observer(id);
}

}  // namespace mcp
