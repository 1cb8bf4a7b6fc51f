// Trace context, spans and the tracer (include/mcp/telemetry/tracing.hpp).

#include <mcp/telemetry/tracing.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

namespace mcp::telemetry {

namespace {

constexpr char hex_digits[] = "0123456789abcdef";

// Writes the 2 * N digits of `bytes` at `out`; returns the end.
template <std::size_t N>
char* write_hex(char* out, const std::array<std::uint8_t, N>& bytes) noexcept {
  for (const auto b : bytes) {
    *out++ = hex_digits[b >> 4];
    *out++ = hex_digits[b & 15];
  }
  return out;
}

template <std::size_t N>
std::string hex_of(const std::array<std::uint8_t, N>& bytes) {
  std::string text(2 * N, '0');
  write_hex(text.data(), bytes);
  return text;
}

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Lower-case hex only, as W3C requires.
template <std::size_t N>
bool read_hex(std::string_view text, std::array<std::uint8_t, N>& bytes) noexcept {
  if (text.size() != 2 * N) return false;
  for (std::size_t i = 0; i < N; ++i) {
    const int high = hex_value(text[2 * i]);
    const int low = hex_value(text[2 * i + 1]);
    if (high < 0 || low < 0) return false;
    bytes[i] = static_cast<std::uint8_t>(high * 16 + low);
  }
  return true;
}

template <std::size_t N>
bool all_zero(const std::array<std::uint8_t, N>& bytes) noexcept {
  return std::ranges::all_of(bytes, [](std::uint8_t b) { return b == 0; });
}

// Ids: random, never zero. A generator per thread, seeded from the system's
// random source, so that an id costs no system call.
template <std::size_t N>
std::array<std::uint8_t, N> random_id() {
  thread_local std::mt19937_64 generator([] {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device()};
    return std::mt19937_64(seed);
  }());
  std::array<std::uint8_t, N> id{};
  do {
    for (std::size_t i = 0; i < N; i += 8) {
      auto value = generator();
      for (std::size_t j = i; j < std::min(N, i + 8); ++j, value >>= 8) id[j] = static_cast<std::uint8_t>(value);
    }
  } while (all_zero(id));
  return id;
}

std::uint64_t unix_nanos_now() noexcept {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count());
}

}  // namespace

std::string to_hex(const trace_id& id) { return hex_of(id); }
std::string to_hex(const span_id& id) { return hex_of(id); }

bool span_context::valid() const noexcept { return !all_zero(trace_id) && !all_zero(span_id); }

// Written in place: a span's context is formatted for every request traced.
std::string span_context::traceparent() const {
  std::string text(55, '-');  // 00-<32 digits>-<16 digits>-<2 digits>
  text[0] = text[1] = '0';
  char* out = write_hex(text.data() + 3, trace_id) + 1;
  out = write_hex(out, span_id) + 1;
  out[0] = hex_digits[flags >> 4];
  out[1] = hex_digits[flags & 15];
  return text;
}

trace_context span_context::to_trace(std::string baggage) const {
  trace_context trace;
  trace.traceparent = traceparent();
  trace.tracestate = tracestate;
  trace.baggage = std::move(baggage);
  return trace;
}

std::optional<span_context> parse_traceparent(std::string_view traceparent, std::string_view tracestate) {
  if (!valid_traceparent(traceparent)) return std::nullopt;
  span_context context;
  std::array<std::uint8_t, 1> flags{};
  if (!read_hex(traceparent.substr(3, 32), context.trace_id) || !read_hex(traceparent.substr(36, 16), context.span_id) ||
      !read_hex(traceparent.substr(53, 2), flags))
    return std::nullopt;
  context.flags = flags[0];
  context.tracestate = std::string(tracestate);
  return context;
}

std::optional<span_context> parse_trace(const trace_context& trace) {
  return parse_traceparent(trace.traceparent, trace.tracestate);
}

bool span_record::has_parent() const noexcept { return !all_zero(parent_span_id); }

const attribute_value* span_record::attribute(std::string_view key) const noexcept {
  const auto found = std::ranges::find(attributes, key, &span_attribute::key);
  return found == attributes.end() ? nullptr : &found->value;
}

std::string_view span_record::text(std::string_view key) const noexcept {
  const auto* value = attribute(key);
  const auto* text = value ? std::get_if<std::string>(value) : nullptr;
  return text ? std::string_view(*text) : std::string_view();
}

void memory_span_exporter::export_span(span_record span) {
  const std::lock_guard lock(mutex_);
  spans_.push_back(std::move(span));
}

std::vector<span_record> memory_span_exporter::spans() const {
  const std::lock_guard lock(mutex_);
  return spans_;
}

void memory_span_exporter::clear() {
  const std::lock_guard lock(mutex_);
  spans_.clear();
}

sampler::sampler(double root_ratio) noexcept {
  // (2^63 as a double is exact; a ratio of 1 takes every 63-bit value.)
  constexpr double range = 9223372036854775808.0;
  const double ratio = std::clamp(std::isnan(root_ratio) ? 0.0 : root_ratio, 0.0, 1.0);
  bound_ = ratio >= 1.0 ? UINT64_MAX : static_cast<std::uint64_t>(ratio * range);
}

bool sampler::sample(const span_context& parent, const trace_id& id) const noexcept {
  if (parent.valid()) return parent.sampled();
  if (bound_ == UINT64_MAX) return true;
  std::uint64_t low = 0;  // the id's last 8 bytes, big-endian
  for (std::size_t i = 8; i < 16; ++i) low = (low << 8) | id[i];
  return (low >> 1) < bound_;
}

span& span::operator=(span&& other) noexcept {
  if (this != &other) {
    end();
    context_ = std::move(other.context_);
    record_ = std::move(other.record_);
    exporter_ = std::move(other.exporter_);
  }
  return *this;
}

void span::set_attribute(std::string key, attribute_value value) {
  if (!record_) return;
  for (auto& attribute : record_->attributes)
    if (attribute.key == key) {
      attribute.value = std::move(value);
      return;
    }
  record_->attributes.push_back(span_attribute{std::move(key), std::move(value)});
}

void span::set_status(status_code status, std::string message) {
  if (!record_) return;
  record_->status = status;
  record_->status_message = status == status_code::error ? std::move(message) : std::string();
}

void span::set_error(std::string type, std::string message) {
  set_attribute("error.type", std::move(type));
  set_status(status_code::error, std::move(message));
}

void span::end() noexcept {
  if (!record_) return;
  auto record = std::move(record_);
  record->end_unix_nano = unix_nanos_now();
  try {
    exporter_->export_span(std::move(*record));
  } catch (...) {
    // (An exporter that cannot take a span loses it; the work it traced goes on.)
  }
}

tracer::tracer(std::shared_ptr<span_exporter> exporter, double root_ratio)
    : exporter_(std::move(exporter)), sampler_(root_ratio) {}

span tracer::start_span(std::string name, span_kind kind) const { return start_span(std::move(name), kind, {}); }

span tracer::start_span(std::string name, span_kind kind, const span_context& parent) const {
  span s;
  const bool child = parent.valid();
  s.context_.trace_id = child ? parent.trace_id : random_id<16>();
  s.context_.span_id = random_id<8>();
  s.context_.tracestate = child ? parent.tracestate : std::string();
  const bool sampled = sampler_.sample(parent, s.context_.trace_id);
  s.context_.flags = sampled ? 1 : 0;  // (the other flags are unknown to version 00: zero)
  if (!sampled || !exporter_) return s;
  s.exporter_ = exporter_;
  s.record_ = std::make_unique<span_record>();
  s.record_->name = std::move(name);
  s.record_->attributes.reserve(12);  // (what an MCP span sets, without growing)
  s.record_->kind = kind;
  s.record_->context = s.context_;
  if (child) s.record_->parent_span_id = parent.span_id;
  s.record_->start_unix_nano = unix_nanos_now();
  return s;
}

}  // namespace mcp::telemetry
