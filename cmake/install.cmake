include(CMakePackageConfigHelpers)

install(TARGETS mcp cluster EXPORT caduceusTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/mcp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
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

# The command-line tool, when it is built.
if(TARGET caduceus)
  install(TARGETS caduceus RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
