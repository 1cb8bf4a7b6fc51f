#include <mcp/version.hpp>

namespace mcp {

// Compiled into the library, so it reports the library's version, not the
// headers' of whoever calls it.
const char* library_version() noexcept { return version_string; }

}  // namespace mcp
