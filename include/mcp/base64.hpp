#pragma once
// Standard base64 (RFC 4648, with padding), for binary content on the wire.

#include <optional>
#include <string>
#include <string_view>

namespace mcp {

std::string base64_encode(std::string_view bytes);
/// std::nullopt when `text` is not valid padded base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace mcp
