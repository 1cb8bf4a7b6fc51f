// The subscriber table of telemetry events (include/mcp/telemetry/events.hpp).
//
// Emitting takes a shared lock, attaching and detaching an exclusive one:
// that is what lets a subscription's end wait for the calls of its handler
// still under way. The lock is only taken for events someone listens to.

#include <mcp/telemetry/events.hpp>

#include <array>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace mcp::telemetry {

namespace {

constexpr std::size_t event_count = static_cast<std::size_t>(event::count_);
static_assert(event_count <= 64, "the listened mask has one bit per event");

constexpr std::array<std::string_view, event_count> event_names{
    "server.request.start",  "server.request.stop",   "server.request.exception", "server.notification",
    "server.tool.call",      "server.resource.read",  "server.prompt.get",        "session.created",
    "session.expired",       "session.deleted",       "session.closed",           "stream.opened",
    "stream.resumed",        "stream.closed",         "connection.accepted",      "connection.closed",
    "connection.refused",    "http.request",          "client.request.start",     "client.request.stop",
    "client.request.retry",  "client.reconnect",      "protocol.parse_error",     "protocol.validation_error",
    "auth.token.verified",   "auth.token.refused",
};

struct subscriber {
  std::uint64_t id;
  std::uint64_t events;  // mask
  handler call;
};

struct table {
  std::shared_mutex lock;
  std::vector<subscriber> subscribers;
  std::uint64_t next_id = 1;

  void publish_mask() {
    std::uint64_t mask = 0;
    for (const auto& s : subscribers) mask |= s.events;
    detail::listened.store(mask, std::memory_order_relaxed);
  }
};

table& subscribers() {
  static table instance;  // never destroyed before a static subscription detaches: built first
  return instance;
}

std::uint64_t add(std::uint64_t mask, handler h) {
  auto& t = subscribers();
  std::unique_lock guard(t.lock);
  const auto id = t.next_id++;
  t.subscribers.push_back({id, mask, std::move(h)});
  t.publish_mask();
  return id;
}

}  // namespace

std::atomic<std::uint64_t> detail::listened{0};

std::string_view name(event e) noexcept {
  const auto index = static_cast<std::size_t>(e);
  return index < event_count ? event_names[index] : std::string_view{};
}

std::optional<event> event_named(std::string_view wanted) noexcept {
  for (std::size_t i = 0; i < event_count; ++i)
    if (event_names[i] == wanted) return static_cast<event>(i);
  return std::nullopt;
}

std::optional<double> event_data::number(std::string_view key) const noexcept {
  for (const auto& m : measurements)
    if (m.key == key) return m.value;
  return std::nullopt;
}

std::string_view event_data::text(std::string_view key) const noexcept {
  for (const auto& a : metadata)
    if (a.key == key && !a.is_number) return a.text;
  return {};
}

std::optional<std::int64_t> event_data::integer(std::string_view key) const noexcept {
  for (const auto& a : metadata)
    if (a.key == key && a.is_number) return a.number;
  return std::nullopt;
}

subscription attach(std::initializer_list<event> events, handler h) {
  std::uint64_t mask = 0;
  for (const auto e : events) mask |= std::uint64_t{1} << static_cast<unsigned>(e);
  return subscription(add(mask, std::move(h)));
}

subscription attach_all(handler h) {
  return subscription(add((std::uint64_t{1} << event_count) - 1, std::move(h)));
}

subscription::subscription(subscription&& other) noexcept : id_(std::exchange(other.id_, 0)) {}

subscription& subscription::operator=(subscription&& other) noexcept {
  if (this != &other) {
    detach();
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

subscription::~subscription() { detach(); }

void subscription::detach() noexcept {
  if (id_ == 0) return;
  auto& t = subscribers();
  std::unique_lock guard(t.lock);
  std::erase_if(t.subscribers, [id = id_](const subscriber& s) { return s.id == id; });
  t.publish_mask();
  id_ = 0;
}

void detail::emit(event e, std::span<const measurement> measurements, std::span<const attribute> metadata) {
  const event_data data{e, measurements, metadata};
  const auto bit = std::uint64_t{1} << static_cast<unsigned>(e);
  auto& t = subscribers();
  std::shared_lock guard(t.lock);
  for (const auto& s : t.subscribers) {
    if (!(s.events & bit)) continue;
    try {
      s.call(data);
    } catch (...) {
      // A subscriber's failure is its own: the event goes on to the others.
    }
  }
}

}  // namespace mcp::telemetry
