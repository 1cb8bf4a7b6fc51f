#pragma once
// The legacy-era handshake (`initialize`, `notifications/initialized`) as data
// and a small state machine. No I/O here. The modern era has no handshake, so
// nothing else in the engine depends on this file's state.

#include <mcp/export.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/versions.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mcp {

/// Names a client or server implementation (`clientInfo` / `serverInfo`).
struct MCP_API implementation {
  std::string name;     ///< programmatic name; the display name too when `title` is absent
  std::string version;  ///< the implementation's own version, free-form
  std::optional<std::string> title = {};        ///< sent from 2025-06-18 on
  std::optional<std::string> description = {};  ///< sent from 2025-11-25 on
  std::optional<std::string> website_url = {};  ///< sent from 2025-11-25 on
  json::array icons = {};                       ///< sent from 2025-11-25 on
};

/// Serializes for the peer's revision, dropping fields it does not know.
MCP_API json::object to_json(const implementation& info, const dialect& d);
/// Reads an implementation object; throws protocol_error(-32602) naming `where`.
MCP_API implementation parse_implementation(const json::value& value, std::string_view where);

/// The parameters of `initialize` as a client sends them.
struct MCP_API initialize_request {
  std::string protocol_version;  ///< as requested, possibly unknown to us
  json::object capabilities;     ///< the ClientCapabilities object, as sent
  implementation client_info;    ///< the client's `clientInfo`
};

/// Serializes for the requested revision (the newest legacy one when it is
/// unknown), dropping `clientInfo` fields it does not know.
MCP_API json::object to_json(const initialize_request& req);
/// Throws protocol_error(-32602) whose message names the offending field.
MCP_API initialize_request parse_initialize_request(const json::object& params);

/// The result of `initialize` as a server sends it.
struct MCP_API initialize_result {
  protocol_version version;    ///< the revision the server chose (see negotiate_version)
  json::object capabilities;   ///< the ServerCapabilities object
  implementation server_info;  ///< the server's `serverInfo`
  /// How to use the server: a hint for the model (a client may put it in a
  /// system prompt).
  std::optional<std::string> instructions;
};

/// Serializes for `result.version`: capabilities that revision does not know
/// are left out (see shape_capabilities).
MCP_API json::object to_json(const initialize_result& result);

/// Whether `capabilities` sets `kind.feature` to true (e.g. `tools.listChanged`).
MCP_API bool declares_feature(const json::object& capabilities, std::string_view kind, std::string_view feature) noexcept;

/// Drops the capability keys `d` does not define (`completions` before
/// 2025-03-26, `tasks` outside 2025-11-25, `extensions` before 2026-07-28).
MCP_API json::object shape_capabilities(json::object capabilities, const dialect& d);
/// Reads a server's answer. Throws malformed_result for a malformed result
/// and for a version outside `supported` (the client must then disconnect).
MCP_API initialize_result parse_initialize_result(const json::object& result,
                                          std::span<const protocol_version> supported);

/// Where a legacy session is in its lifecycle, and which requests it admits.
class MCP_API legacy_lifecycle {
 public:
  /// `awaiting_initialize` until the `initialize` reply is produced, then
  /// `operating`.
  enum class phase { awaiting_initialize, operating };

  /// The error to answer `method` with in the current phase, if any:
  /// only `ping` is served before `initialize`, and `initialize` only once.
  std::optional<rpc_error> admit(std::string_view method) const;

  /// A session that starts without a handshake (stateless serving).
  void assume_initialized() noexcept { phase_ = phase::operating; client_ready_ = true; }

  /// Call once the `initialize` reply has been produced.
  void on_initialize_answered() noexcept { phase_ = phase::operating; }
  /// `notifications/initialized`: from now on the server may send requests.
  void on_initialized_notification() noexcept { client_ready_ = phase_ == phase::operating; }

  /// The phase the session is in.
  phase current() const noexcept { return phase_; }
  /// Whether `notifications/initialized` came after the reply (or the session
  /// assumed it): from then on the spec lets a server send requests other
  /// than pings.
  bool client_ready() const noexcept { return client_ready_; }

 private:
  phase phase_ = phase::awaiting_initialize;
  bool client_ready_ = false;
};

}  // namespace mcp
