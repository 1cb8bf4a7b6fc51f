#include <mcp/log.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace mcp {

namespace {

log_level level_from_environment() noexcept {
  const char* text = std::getenv("CADUCEUS_LOG");
  if (!text) return log_level::warn;
  const std::string_view name(text);
  if (name == "trace") return log_level::trace;
  if (name == "debug") return log_level::debug;
  if (name == "info") return log_level::info;
  if (name == "error") return log_level::error;
  if (name == "off") return log_level::off;
  return log_level::warn;
}

std::string_view label(log_level level) noexcept {
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

std::atomic<log_level> threshold{level_from_environment()};
std::mutex sink_mutex;
std::function<void(log_level, std::string_view)> custom_sink;

}  // namespace

log_level sdk_log_level() noexcept { return threshold.load(std::memory_order_relaxed); }

void set_sdk_log_level(log_level level) noexcept {
  threshold.store(level, std::memory_order_relaxed);
}

void set_sdk_log_sink(std::function<void(log_level, std::string_view)> sink) {
  std::lock_guard lock(sink_mutex);
  custom_sink = std::move(sink);
}

void sdk_log(log_level level, std::string_view text) {
  if (level < sdk_log_level() || level == log_level::off) return;
  std::lock_guard lock(sink_mutex);
  if (custom_sink) {
    custom_sink(level, text);
    return;
  }
  const auto tag = label(level);
  std::fprintf(stderr, "caduceus %.*s: %.*s\n", int(tag.size()), tag.data(), int(text.size()),
               text.data());
}

}  // namespace mcp
