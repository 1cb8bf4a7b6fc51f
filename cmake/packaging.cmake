# Debian packages (`cpack -G DEB` in a build configured with
# -DCMAKE_INSTALL_PREFIX=/usr; scripts/test-packages.sh): one per install
# component (cmake/install.cmake).
#   libcaduceus<major>  the shared libraries (a BUILD_SHARED_LIBS build)
#   libcaduceus-dev     headers, CMake package, pkg-config files, and the
#                       static libraries of a static build
#   caduceus-tools      the caduceus command-line tool
# dpkg-shlibdeps computes what the libraries and the tool load; the
# development package depends on the Debian development packages that the
# headers and the CMake package use.
set(caduceus_runtime_package libcaduceus${PROJECT_VERSION_MAJOR})

set(CPACK_PACKAGE_NAME caduceus)
set(CPACK_PACKAGE_VENDOR "Caduceus developers")
set(CPACK_PACKAGE_CONTACT "Caduceus Developer <dev@caduceus.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# Our own libraries, which dpkg-shlibdeps finds in the build (their package
# is made in the same run, so the tool's dependency on it is stated below).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/src ${PROJECT_BINARY_DIR}/src/cluster)

set(CPACK_COMPONENTS_ALL development)
if(CADUCEUS_LIBRARY_TYPE STREQUAL "SHARED_LIBRARY")
  list(APPEND CPACK_COMPONENTS_ALL runtime)
endif()
if(TARGET caduceus)
  list(APPEND CPACK_COMPONENTS_ALL tools)
endif()

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME ${caduceus_runtime_package})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "Caduceus, the Model Context Protocol for C++: shared libraries")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libcaduceus-dev)
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION
    "Caduceus, the Model Context Protocol for C++: headers, CMake package and pkg-config files")
set(caduceus_dev_depends "libboost1.81-dev" "libssl-dev" "pkg-config")
if(NOT CADUCEUS_BOOST_FROM_HEADERS)
  list(APPEND caduceus_dev_depends "libboost-json1.81-dev" "libboost-url1.81-dev")
endif()
if(CADUCEUS_LIBRARY_TYPE STREQUAL "SHARED_LIBRARY")
  list(APPEND caduceus_dev_depends "${caduceus_runtime_package} (= ${PROJECT_VERSION})")
else()
  # A static part's private libraries are linked by the program.
  if(TARGET skills)
    list(APPEND caduceus_dev_depends libyaml-cpp-dev)
  endif()
  if(TARGET cluster)
    list(APPEND caduceus_dev_depends libhiredis-dev)
  endif()
endif()
list(JOIN caduceus_dev_depends ", " CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS)
# The adapters' frameworks are the user's choice: suggested, not required.
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SUGGESTS "libcpp-httplib-dev, libcivetweb-dev")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME caduceus-tools)
if(CADUCEUS_LIBRARY_TYPE STREQUAL "SHARED_LIBRARY")
  set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "${caduceus_runtime_package} (= ${PROJECT_VERSION})")
endif()
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION net)
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
    "Caduceus, the Model Context Protocol for C++: the caduceus command-line client and demo server")

include(CPack)
