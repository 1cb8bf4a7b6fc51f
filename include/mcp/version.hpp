#pragma once
/// \file
/// The version of Caduceus: of these headers, and of the library linked.
///
/// CMakeLists.txt reads the three numbers below, so they are the one place
/// the version is written. VERSIONING.md says what a version promises.

#include <mcp/export.hpp>

/// The major version: it changes when the API or the ABI does.
#define CADUCEUS_VERSION_MAJOR 1
/// The minor version: it changes when something is added.
#define CADUCEUS_VERSION_MINOR 0
/// The patch version: it changes for fixes only.
#define CADUCEUS_VERSION_PATCH 0
/// The version as one number, MAJOR * 10000 + MINOR * 100 + PATCH, for `#if`.
#define CADUCEUS_VERSION \
  (CADUCEUS_VERSION_MAJOR * 10000 + CADUCEUS_VERSION_MINOR * 100 + CADUCEUS_VERSION_PATCH)

/// \cond
#define CADUCEUS_DETAIL_SPELL(number) #number
#define CADUCEUS_DETAIL_SPELL_VERSION(major, minor, patch) \
  CADUCEUS_DETAIL_SPELL(major) "." CADUCEUS_DETAIL_SPELL(minor) "." CADUCEUS_DETAIL_SPELL(patch)
/// \endcond

namespace mcp {

/// "MAJOR.MINOR.PATCH" of these headers; the version that
/// client_options::client_info and the `caduceus` tool report by default.
inline constexpr const char* version_string =
    CADUCEUS_DETAIL_SPELL_VERSION(CADUCEUS_VERSION_MAJOR, CADUCEUS_VERSION_MINOR, CADUCEUS_VERSION_PATCH);

/// "MAJOR.MINOR.PATCH" of the library this program runs with. With a shared
/// library it may be newer than version_string (the headers it was compiled
/// with): within one major version that is compatible (VERSIONING.md).
MCP_API const char* library_version() noexcept;

}  // namespace mcp
