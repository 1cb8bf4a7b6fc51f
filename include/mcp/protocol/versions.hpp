#pragma once
// The protocol revisions Caduceus speaks, what each one allows (its dialect),
// and version negotiation. No I/O here.

#include <mcp/export.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace mcp {

/// A revision of the protocol, named by its date. Ordered oldest first, so
/// `<` says which is older.
enum class protocol_version : std::uint8_t {
  v2024_11_05,  ///< the first revision: HTTP+SSE and stdio
  v2025_03_26,  ///< Streamable HTTP, OAuth, batches, tool annotations, audio
  v2025_06_18,  ///< structured tool output, elicitation, titles; no batches
  v2025_11_25,  ///< icons, URL elicitation, tools in sampling, tasks
  v2026_07_28,  ///< the modern era: no initialize, an envelope on every request
};

/// Legacy revisions open a session with `initialize`; the modern era
/// (2026-07-28 on) is stateless: every request carries its own envelope.
enum class protocol_era : std::uint8_t { legacy, modern };

/// What one revision allows on the wire. A handler is written once; the
/// engine consults the dialect of the negotiated version to shape messages.
struct MCP_API dialect {
  protocol_version version;  ///< the revision it describes
  std::string_view name;     ///< its wire name, "2025-06-18"
  protocol_era era;          ///< legacy (initialize, sessions) or modern (stateless)
  bool batches;              ///< JSON-RPC batches (2025-03-26 only)
  bool progress_message;     ///< `message` in notifications/progress (2025-03-26+)
  bool audio_content;        ///< `audio` content blocks (2025-03-26+)
  bool tool_annotations;     ///< tool `annotations` (2025-03-26+)
  bool completions;          ///< the `completions` server capability (2025-03-26+)
  bool structured_content;   ///< `structuredContent`, `outputSchema`, `resource_link` (2025-06-18+)
  bool titles;               ///< `title` on tools, resources, prompts, implementations (2025-06-18+)
  bool elicitation;          ///< `elicitation/create` (2025-06-18+)
  bool protocol_version_header;  ///< HTTP `MCP-Protocol-Version` header (2025-06-18+)
  bool icons;                ///< `icons` on implementations and components (2025-11-25+)
  bool url_elicitation;      ///< URL-mode elicitation (2025-11-25+)
  bool tasks;                ///< the `tasks` utility and capability (2025-11-25 only)
  bool extensions;           ///< the `extensions` capability (2026-07-28+)
};

/// Every revision known to this build, oldest first.
MCP_API std::span<const dialect> all_dialects() noexcept;
/// What revision `v` allows on the wire.
MCP_API const dialect& dialect_of(protocol_version v) noexcept;
/// Whether `v` belongs to the modern era (2026-07-28 on).
MCP_API bool is_modern(protocol_version v) noexcept;

/// The revision's wire name, "2025-06-18".
MCP_API std::string_view to_string(protocol_version v) noexcept;
/// The revision named `text` ("2025-06-18"); nullopt for a name this build
/// does not know.
MCP_API std::optional<protocol_version> parse_protocol_version(std::string_view text) noexcept;

/// Every revision, oldest first: what a server offers by default.
MCP_API std::span<const protocol_version> all_versions() noexcept;
/// The legacy revisions, oldest first.
MCP_API std::span<const protocol_version> legacy_versions() noexcept;
/// The newest legacy revision.
inline constexpr protocol_version latest_legacy_version = protocol_version::v2025_11_25;

/// Server-side negotiation of a legacy `initialize` (lifecycle, "Version
/// Negotiation"): the requested version when it is supported, else the latest
/// supported legacy version. `supported` must hold at least one legacy version.
MCP_API protocol_version negotiate_version(std::string_view requested,
                                   std::span<const protocol_version> supported) noexcept;

/// The revision named in the HTTP `MCP-Protocol-Version` header when a
/// request carries none: 2025-03-26, as the 2025-06-18 transport page says.
inline constexpr protocol_version default_http_version = protocol_version::v2025_03_26;

}  // namespace mcp
