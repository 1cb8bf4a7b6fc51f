# How the libraries link (docs/packaging.md). Static by default, shared with
# BUILD_SHARED_LIBS=ON: then each library's SONAME carries the major version
# (libcaduceus.so.1), and it exports the public API alone. The sources are
# compiled with hidden visibility in both cases; what the public headers mark
# MCP_API (include/mcp/export.hpp) is exported. On ELF a version script backs
# that up: whatever is not in namespace mcp (Asio's and Beast's template
# instances, the standard library's instances for our types) stays local, so
# no other library's code becomes part of our ABI.

# Gives the library `target` (mcp, skills, cluster, asio_runtime) the linkage
# above; an optional second argument names another version script.
function(caduceus_library_linkage target)
  set(version_script ${PROJECT_SOURCE_DIR}/cmake/caduceus.map)
  if(ARGC GREATER 1)
    set(version_script ${ARGV1})
  endif()
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR})
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "SHARED_LIBRARY")
    return()
  endif()
  target_compile_definitions(${target} PUBLIC CADUCEUS_SHARED PRIVATE CADUCEUS_BUILDING)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND NOT APPLE AND NOT WIN32)
    target_link_options(${target} PRIVATE
      "LINKER:--version-script=${version_script}"
      "LINKER:--no-undefined" "LINKER:--exclude-libs,ALL")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${version_script})
  endif()
endfunction()
