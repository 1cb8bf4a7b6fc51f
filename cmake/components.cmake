# The library's parts (docs/platforms.md). The core, caduceus::mcp, needs only
# Boost and OpenSSL: it serves and calls MCP over stdio, Streamable HTTP,
# legacy SSE and WebSocket, with OAuth on both sides. Every other part is a
# CMake option, ON by default, and an exported target; find_package(caduceus
# COMPONENTS ...) finds the parts this build made. A part whose dependency is
# missing, or cannot be linked by this toolchain (a C++ library built for
# another standard library: Debian's yaml-cpp in a libc++ build), is turned
# off with a message and the configure goes on.

include(CheckCXXSourceCompiles)

option(CADUCEUS_WITH_SKILLS "The skills extension, caduceus::skills (yaml-cpp)" ON)
option(CADUCEUS_WITH_CLUSTER "Sessions shared by many servers through Redis, caduceus::cluster (hiredis)" ON)
option(CADUCEUS_WITH_HTTPLIB "The adapter for cpp-httplib, caduceus::httplib" ON)
option(CADUCEUS_WITH_CIVETWEB "The adapter for CivetWeb, caduceus::civetweb" ON)
option(CADUCEUS_BOOST_FROM_HEADERS
       "Compile Boost.JSON and Boost.URL into the library from their headers, for a standard library other than the one the system's Boost libraries were built with"
       OFF)

set_property(GLOBAL PROPERTY CADUCEUS_BUILT_COMPONENTS mcp beast)

# Records that the part `name` is built (the package config reads the list).
function(caduceus_built_component name)
  set_property(GLOBAL APPEND PROPERTY CADUCEUS_BUILT_COMPONENTS ${name})
endfunction()

# Sets `result` to whether a program of this toolchain links with `target`
# (an imported target of a C++ library); `code` is a whole program using it.
function(caduceus_links result target code)
  set(CMAKE_REQUIRED_LIBRARIES ${target})
  set(CMAKE_REQUIRED_QUIET ON)
  check_cxx_source_compiles("${code}" ${result})
  set(${result} ${${result}} PARENT_SCOPE)
endfunction()

# Turns the option `option` off for this configure with `why`.
macro(caduceus_part_off option why)
  message(STATUS "caduceus: ${why}: ${option} is off")
  set(${option} OFF)
endmacro()

# Finds the pkg-config `module` that the part of `option` needs, as the
# imported target PkgConfig::<prefix>; turns the part off when it is missing
# (`package` names the Debian package that has it) or, given a program
# `code` that uses it, when this toolchain cannot link it.
macro(caduceus_part_needs option prefix module package code)
  if(${option} AND PKG_CONFIG_FOUND)
    pkg_check_modules(${prefix} QUIET IMPORTED_TARGET GLOBAL ${module})
  endif()
  if(${option} AND NOT ${prefix}_FOUND)
    caduceus_part_off(${option} "${module} not found (${package})")
  elseif(${option} AND NOT "${code}" STREQUAL "")
    caduceus_links(CADUCEUS_${prefix}_LINKS PkgConfig::${prefix} "${code}")
    if(NOT CADUCEUS_${prefix}_LINKS)
      caduceus_part_off(${option} "${module} cannot be linked with this compiler and standard library")
    endif()
  endif()
endmacro()
