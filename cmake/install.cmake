include(CMakePackageConfigHelpers)

# STATIC_LIBRARY or SHARED_LIBRARY: what the package config, the pkg-config
# files and the Debian packages describe.
get_target_property(CADUCEUS_LIBRARY_TYPE mcp TYPE)

# Every part this build made (cmake/components.cmake), each exported as
# caduceus::<part>; the package config finds exactly those.
get_property(CADUCEUS_BUILT_COMPONENTS GLOBAL PROPERTY CADUCEUS_BUILT_COMPONENTS)
set(caduceus_installed_targets mcp caduceus_beast)
if(TARGET asio_runtime)  # a shared build's libcaduceus_asio
  list(APPEND caduceus_installed_targets asio_runtime)
endif()
foreach(part IN ITEMS skills cluster)
  if(TARGET ${part})
    list(APPEND caduceus_installed_targets ${part})
  endif()
endforeach()
foreach(adapter IN ITEMS httplib civetweb)
  if(TARGET caduceus_${adapter})
    list(APPEND caduceus_installed_targets caduceus_${adapter})
  endif()
endforeach()
# Each file goes to one of three install components, the packages CPack
# makes (cmake/packaging.cmake): runtime (the shared libraries), development
# (headers, static libraries, the CMake and pkg-config files) and tools.
install(TARGETS ${caduceus_installed_targets} EXPORT caduceusTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT development)
# The command-line tool, when it is built, as caduceus::cli: a project can
# run it from its own build (a test against a server, a code generator).
if(TARGET caduceus)
  set_target_properties(caduceus PROPERTIES EXPORT_NAME cli)
  install(TARGETS caduceus EXPORT caduceusTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
endif()
# The headers, less those of the parts this build did not make.
set(caduceus_headers_left_out)
if(NOT TARGET cluster)
  list(APPEND caduceus_headers_left_out PATTERN cluster EXCLUDE)
endif()
foreach(adapter IN ITEMS httplib civetweb)
  if(NOT TARGET caduceus_${adapter})
    list(APPEND caduceus_headers_left_out PATTERN ${adapter}.hpp EXCLUDE)
  endif()
endforeach()
install(DIRECTORY include/mcp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
  ${caduceus_headers_left_out})
install(EXPORT caduceusTargets
  NAMESPACE caduceus::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/caduceus
  COMPONENT development)
export(EXPORT caduceusTargets NAMESPACE caduceus::
  FILE ${PROJECT_BINARY_DIR}/caduceusTargets.cmake)

configure_package_config_file(cmake/caduceusConfig.cmake.in
  ${PROJECT_BINARY_DIR}/caduceusConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/caduceus)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/caduceusConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/caduceusConfig.cmake
  ${PROJECT_BINARY_DIR}/caduceusConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/caduceus
  COMPONENT development)
include(cmake/pkgconfig.cmake)
if(PROJECT_IS_TOP_LEVEL)  # a parent project packages itself
  include(cmake/packaging.cmake)
endif()
