#pragma once
/// \file
/// MCP_API: what a shared build of Caduceus exports.
///
/// Caduceus is compiled with hidden symbol visibility; a class or function of
/// the public API that the library defines out of line carries MCP_API, and
/// nothing else leaves a shared library (neither Asio's and Beast's template
/// instances nor the library's internals). A shared build defines
/// CADUCEUS_SHARED for its users (the CMake targets and caduceus.pc carry
/// it) and CADUCEUS_BUILDING while it compiles the library; a static build
/// defines neither, and MCP_API is then nothing: linked into a user's own
/// shared library, a static Caduceus exports nothing of its own.

#if !defined(CADUCEUS_SHARED)
#define MCP_API
#elif defined(_WIN32) || defined(__CYGWIN__)
#if defined(CADUCEUS_BUILDING)
#define MCP_API __declspec(dllexport)
#else
#define MCP_API __declspec(dllimport)
#endif
#else
#define MCP_API __attribute__((visibility("default")))
#endif
