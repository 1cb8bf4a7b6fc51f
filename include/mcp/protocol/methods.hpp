#pragma once
// Every method of every revision, named once: the constants code uses
// instead of string literals, and a table of what each method is (request
// or notification), who sends it and in which revisions. A test holds the
// table to the official schemas. No I/O here.

#include <mcp/protocol/versions.hpp>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

namespace mcp {

/// A set of protocol revisions.
class version_set {
 public:
  constexpr version_set() noexcept = default;
  constexpr version_set(std::initializer_list<protocol_version> versions) noexcept {
    for (const auto v : versions) bits_ |= bit(v);
  }
  /// `first` and every later revision known to this build.
  static constexpr version_set since(protocol_version first) noexcept {
    version_set s;
    for (auto v = static_cast<unsigned>(first); v <= static_cast<unsigned>(protocol_version::v2026_07_28); ++v)
      s.bits_ |= static_cast<std::uint8_t>(1u << v);
    return s;
  }
  /// `first` up to `last`, both included.
  static constexpr version_set between(protocol_version first, protocol_version last) noexcept {
    version_set s;
    for (auto v = static_cast<unsigned>(first); v <= static_cast<unsigned>(last); ++v)
      s.bits_ |= static_cast<std::uint8_t>(1u << v);
    return s;
  }

  constexpr bool contains(protocol_version v) const noexcept { return (bits_ & bit(v)) != 0; }
  constexpr bool empty() const noexcept { return bits_ == 0; }
  friend constexpr version_set operator|(version_set a, version_set b) noexcept {
    version_set s;
    s.bits_ = static_cast<std::uint8_t>(a.bits_ | b.bits_);
    return s;
  }
  friend constexpr bool operator==(version_set, version_set) noexcept = default;

 private:
  static constexpr std::uint8_t bit(protocol_version v) noexcept {
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(v));
  }
  std::uint8_t bits_ = 0;
};

/// The method names. Arrays of char: they convert to std::string and to
/// std::string_view alike.
namespace methods {
// Client to server.
inline constexpr char initialize[] = "initialize";
inline constexpr char ping[] = "ping";
inline constexpr char server_discover[] = "server/discover";
inline constexpr char tools_list[] = "tools/list";
inline constexpr char tools_call[] = "tools/call";
inline constexpr char resources_list[] = "resources/list";
inline constexpr char resources_templates_list[] = "resources/templates/list";
inline constexpr char resources_read[] = "resources/read";
inline constexpr char resources_subscribe[] = "resources/subscribe";
inline constexpr char resources_unsubscribe[] = "resources/unsubscribe";
inline constexpr char prompts_list[] = "prompts/list";
inline constexpr char prompts_get[] = "prompts/get";
inline constexpr char completion_complete[] = "completion/complete";
inline constexpr char logging_set_level[] = "logging/setLevel";
inline constexpr char subscriptions_listen[] = "subscriptions/listen";
inline constexpr char tasks_get[] = "tasks/get";
inline constexpr char tasks_list[] = "tasks/list";
inline constexpr char tasks_result[] = "tasks/result";
inline constexpr char tasks_cancel[] = "tasks/cancel";
// Server to client (in 2026-07-28: the input requests of a multi-round request).
inline constexpr char sampling_create_message[] = "sampling/createMessage";
inline constexpr char elicitation_create[] = "elicitation/create";
inline constexpr char roots_list[] = "roots/list";
// Notifications.
inline constexpr char notifications_initialized[] = "notifications/initialized";
inline constexpr char notifications_cancelled[] = "notifications/cancelled";
inline constexpr char notifications_progress[] = "notifications/progress";
inline constexpr char notifications_message[] = "notifications/message";
inline constexpr char notifications_resources_updated[] = "notifications/resources/updated";
inline constexpr char notifications_resources_list_changed[] = "notifications/resources/list_changed";
inline constexpr char notifications_tools_list_changed[] = "notifications/tools/list_changed";
inline constexpr char notifications_prompts_list_changed[] = "notifications/prompts/list_changed";
inline constexpr char notifications_roots_list_changed[] = "notifications/roots/list_changed";
inline constexpr char notifications_subscriptions_acknowledged[] = "notifications/subscriptions/acknowledged";
inline constexpr char notifications_elicitation_complete[] = "notifications/elicitation/complete";
inline constexpr char notifications_tasks_status[] = "notifications/tasks/status";
}  // namespace methods

enum class method_kind : std::uint8_t { request, notification };

/// What a method is, and in which revisions each side sends it.
struct method_info {
  std::string_view name;
  method_kind kind;
  version_set from_client;  ///< revisions in which a client sends it
  version_set from_server;  ///< revisions in which a server sends it (as a message of its own)
  /// Revisions in which it is an input request of a multi-round request
  /// (2026-07-28: carried in an InputRequiredResult, answered in the retry).
  version_set as_input;
};

/// Every method of every revision known to this build.
std::span<const method_info> all_methods() noexcept;
/// The method called `name`; null when no revision has it.
const method_info* find_method(std::string_view name) noexcept;

}  // namespace mcp
