#pragma once
// Standard base64 (RFC 4648, with padding), for binary content on the wire,
// and its URL-safe variant (RFC 4648 section 5, unpadded), for tokens.

#include <mcp/export.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp {

/// Standard base64 of `bytes`, padded with `=` to a multiple of 4 characters.
MCP_API std::string base64_encode(std::string_view bytes);
/// std::nullopt when `text` is not valid padded base64.
MCP_API std::optional<std::string> base64_decode(std::string_view text);

/// URL-safe base64 ('-' and '_' for '+' and '/') without padding, as in JWTs.
MCP_API std::string base64url_encode(std::string_view bytes);
/// std::nullopt when `text` is not unpadded base64url, or not the spelling
/// base64url_encode gives (its last character has unused bits set).
MCP_API std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace mcp
