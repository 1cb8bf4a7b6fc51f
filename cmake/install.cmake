include(CMakePackageConfigHelpers)

# Every part this build made (cmake/components.cmake), each exported as
# caduceus::<part>; the package config finds exactly those.
get_property(CADUCEUS_BUILT_COMPONENTS GLOBAL PROPERTY CADUCEUS_BUILT_COMPONENTS)
set(caduceus_installed_targets mcp caduceus_beast)
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
# The command-line tool, when it is built, as caduceus::cli: a project can
# run it from its own build (a test against a server, a code generator).
if(TARGET caduceus)
  set_target_properties(caduceus PROPERTIES EXPORT_NAME cli)
  list(APPEND caduceus_installed_targets caduceus)
endif()
install(TARGETS ${caduceus_installed_targets} EXPORT caduceusTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
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
install(DIRECTORY include/mcp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} ${caduceus_headers_left_out})
install(EXPORT caduceusTargets
  NAMESPACE caduceus::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/caduceus)
export(EXPORT caduceusTargets NAMESPACE caduceus::
  FILE ${PROJECT_BINARY_DIR}/caduceusTargets.cmake)

configure_package_config_file(cmake/caduceusConfig.cmake.in
  ${PROJECT_BINARY_DIR}/caduceusConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/caduceus)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/caduceusConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/caduceusConfig.cmake
  ${PROJECT_BINARY_DIR}/caduceusConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/caduceus)
