#pragma once
// Telemetry events: named moments in the life of requests, sessions, streams,
// connections, clients and tokens, each with measurements (numbers: a
// duration, a byte count) and metadata (the method, the session, the
// outcome). docs/observability.md lists every event with its fields.
//
// Subscribers attach at run time and see every event of the kinds they asked
// for, on the thread that emits it, while it is emitted: keep them short,
// thread safe, and copy what they keep (the views die with the call). An
// event that nobody listens to costs one relaxed atomic load and a branch;
// the library checks `listening()` before it gathers an event's fields.
//
//   auto sub = mcp::telemetry::attach({mcp::telemetry::event::server_request_stop},
//       [](const mcp::telemetry::event_data& e) {
//         std::cerr << e.text("method") << " took " << e.number("duration") << " s\n";
//       });
//   // ... events flow until `sub` is destroyed or detach()ed.

#include <mcp/export.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mcp::telemetry {

/// The kinds of event; name() gives each one's dotted name, and
/// docs/observability.md lists each one's measurements and metadata.
enum class event : unsigned char {
  // A request a server serves: when its handler starts and when it is
  // answered (outcome ok, error, cancelled or input_required), and when its
  // handler threw something other than a protocol_error.
  server_request_start,      ///< `server.request.start`: a server's handler starts on a request
  server_request_stop,       ///< `server.request.stop`: the request is answered, with its outcome
  server_request_exception,  ///< `server.request.exception`: its handler threw something other than a protocol_error
  server_notification,       ///< `server.notification`: a notification from the client, once handled
  // What the high-level server (mcp::server) served, by name.
  tool_call,      ///< `server.tool.call`: mcp::server called a tool
  resource_read,  ///< `server.resource.read`: mcp::server read a resource
  prompt_get,     ///< `server.prompt.get`: mcp::server got a prompt
  // Sessions: opened by initialize (or a WebSocket/stdio connection), and
  // why they ended.
  session_created,  ///< `session.created`: opened by initialize (or a WebSocket/stdio connection)
  session_expired,  ///< `session.expired`: idle past its timeout
  session_deleted,  ///< `session.deleted`: the client sent DELETE
  session_closed,   ///< `session.closed`: its connection ended, or the server shut down
  // SSE streams of the HTTP server.
  stream_opened,   ///< `stream.opened`: an SSE response started
  stream_resumed,  ///< `stream.resumed`: a client resumed a stream (Last-Event-ID)
  stream_closed,   ///< `stream.closed`: an SSE response ended (the stream may be resumed)
  // Network connections to a server.
  connection_accepted,  ///< `connection.accepted`: a network connection accepted
  connection_closed,    ///< `connection.closed`: ended, with its requests and bytes
  connection_refused,   ///< `connection.refused`: too many connections, a failed TLS handshake, or shutting down
  http_request,         ///< `http.request`: one HTTP request answered: the access log's line
  // A client's requests to its server.
  client_request_start,  ///< `client.request.start`: a client sends a request
  client_request_stop,   ///< `client.request.stop`: it was answered, failed, timed out or was cancelled
  client_request_retry,  ///< `client.request.retry`: sent again in a renewed session
  client_reconnect,      ///< `client.reconnect`: one reconnection attempt, and how it went
  // Input refused before any handler saw it.
  parse_error,       ///< `protocol.parse_error`: not JSON, or not JSON-RPC
  validation_error,  ///< `protocol.validation_error`: well-formed, but refused by the protocol's rules
  // OAuth bearer tokens at a protected server.
  token_verified,  ///< `auth.token.verified`: an access token accepted
  token_refused,   ///< `auth.token.refused`: a request refused for its token (or lack of one)
  count_  ///< Not an event: how many there are.
};

/// The event's dotted name, e.g. "server.request.stop".
MCP_API std::string_view name(event e) noexcept;
/// The event of that name, or nullopt.
MCP_API std::optional<event> event_named(std::string_view name) noexcept;

/// A number an event measured. Durations are in seconds, sizes in bytes.
struct MCP_API measurement {
  std::string_view key;  ///< Its name, e.g. "duration".
  double value;          ///< The number, in seconds or bytes or as counted.
};

/// A fact about an event: text or an integer. The text is a view, valid
/// while the subscriber runs.
struct MCP_API attribute {
  /// A text attribute; the text is viewed, not copied.
  attribute(std::string_view k, std::string_view text) noexcept : key(k), text(text) {}
  /// A text attribute; the text is viewed, not copied.
  attribute(std::string_view k, const char* text) noexcept : key(k), text(text) {}
  /// A text attribute; the string is viewed, not copied: it must outlive the emit.
  attribute(std::string_view k, const std::string& text) noexcept : key(k), text(text) {}
  /// An integer attribute.
  attribute(std::string_view k, std::int64_t number) noexcept : key(k), number(number), is_number(true) {}
  /// An integer attribute (an int literal would otherwise be ambiguous).
  attribute(std::string_view k, int number) noexcept : attribute(k, std::int64_t{number}) {}

  std::string_view key;     ///< Its name, e.g. "method".
  std::string_view text;    ///< The text, when not is_number.
  std::int64_t number = 0;  ///< The integer, when is_number.
  bool is_number = false;   ///< Whether it holds an integer rather than text.
};

/// One event as a subscriber sees it.
struct MCP_API event_data {
  event id;                                   ///< Which event it is.
  std::span<const measurement> measurements;  ///< Its numbers; a field that does not apply is absent.
  std::span<const attribute> metadata;        ///< Its facts; a field that does not apply is absent.

  /// The event's dotted name, e.g. "server.request.stop".
  std::string_view name() const noexcept { return telemetry::name(id); }
  /// The measurement `key`, or nullopt.
  std::optional<double> number(std::string_view key) const noexcept;
  /// The text of metadata `key` ("" when absent or a number).
  std::string_view text(std::string_view key) const noexcept;
  /// The integer of metadata `key`, or nullopt.
  std::optional<std::int64_t> integer(std::string_view key) const noexcept;
};

/// A subscriber: called on the emitting thread while the event is emitted;
/// an exception it throws is swallowed and the event goes on to the others.
using handler = std::function<void(const event_data&)>;

/// An attached handler; destroying it (or detach()) detaches it, waiting for
/// calls of it under way on other threads. Do not attach or detach from
/// inside a handler.
class MCP_API subscription {
 public:
  /// Attached to nothing.
  subscription() noexcept = default;
  /// Takes over `other`'s handler; `other` is left attached to nothing.
  subscription(subscription&& other) noexcept;
  /// Detaches this one's handler, then takes over `other`'s.
  subscription& operator=(subscription&& other) noexcept;
  /// Detaches, as detach() does.
  ~subscription();
  /// Detaches the handler, waiting for its calls under way on other threads;
  /// does nothing when attached to nothing.
  void detach() noexcept;
  /// Whether a handler is attached.
  explicit operator bool() const noexcept { return id_ != 0; }

 private:
  friend subscription attach(std::initializer_list<event>, handler);
  friend subscription attach_all(handler);
  explicit subscription(std::uint64_t id) noexcept : id_(id) {}
  std::uint64_t id_ = 0;
};

/// Calls `h` for each event of these kinds, from now until the subscription ends.
[[nodiscard]] MCP_API subscription attach(std::initializer_list<event> events, handler h);
/// Calls `h` for every event.
[[nodiscard]] MCP_API subscription attach_all(handler h);

namespace detail {
// Bit n is set while some subscriber listens to event n.
extern MCP_API std::atomic<std::uint64_t> listened;
MCP_API void emit(event e, std::span<const measurement> measurements, std::span<const attribute> metadata);
}  // namespace detail

/// True when some subscriber listens to `e`: check it before gathering fields.
inline bool listening(event e) noexcept {
  return (detail::listened.load(std::memory_order_relaxed) >> static_cast<unsigned>(e)) & 1u;
}

/// Hands the event to its subscribers (none: returns at once).
inline void emit(event e, std::initializer_list<measurement> measurements,
                 std::initializer_list<attribute> metadata) {
  if (listening(e)) detail::emit(e, {measurements.begin(), measurements.size()}, {metadata.begin(), metadata.size()});
}
/// Hands the event to its subscribers (none: returns at once), its fields
/// gathered in spans.
inline void emit(event e, std::span<const measurement> measurements, std::span<const attribute> metadata) {
  if (listening(e)) detail::emit(e, measurements, metadata);
}

/// Seconds between two steady_clock readings, as durations are measured.
template <class TimePoint>
double seconds_between(TimePoint from, TimePoint to) noexcept {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace mcp::telemetry
