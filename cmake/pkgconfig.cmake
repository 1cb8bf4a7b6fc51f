# pkg-config files for the libraries this build made: caduceus.pc (the core),
# caduceus-skills.pc and caduceus-cluster.pc. They are relocatable (paths
# from ${pcfiledir}) and carry the core's interface defines in Cflags, which
# every user of the headers must share (src/CMakeLists.txt says why).
# A static build lists the libraries that its parts link privately in
# Requires and Libs, so that a plain `pkg-config --libs` links a program; a
# shared build keeps them private.

file(RELATIVE_PATH caduceus_pc_to_prefix
  ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" caduceus_pc_to_prefix "${caduceus_pc_to_prefix}")

set(caduceus_pc_cflags "-DBOOST_ASIO_SEPARATE_COMPILATION -DBOOST_ASIO_NO_DEPRECATED")
set(caduceus_pc_libs "")
if(CADUCEUS_BOOST_FROM_HEADERS)
  string(APPEND caduceus_pc_cflags " -DBOOST_JSON_NO_LIB -DBOOST_URL_NO_LIB")
else()
  # Boost ships no pkg-config files; its headers are in the system's path.
  set(caduceus_pc_libs "-lboost_json -lboost_url")
endif()
if(CADUCEUS_LIBRARY_TYPE STREQUAL "STATIC_LIBRARY")
  set(caduceus_pc_private_keyword "Requires:")
else()
  string(APPEND caduceus_pc_cflags " -DCADUCEUS_SHARED -DBOOST_ASIO_DYN_LINK")
  set(caduceus_pc_libs "-lcaduceus_asio ${caduceus_pc_libs}")
  set(caduceus_pc_private_keyword "Requires.private:")
endif()

# Writes <name>.pc for the library `library` (its -l name), which `requires`
# publicly and links `private` privately (pkg-config module names).
function(caduceus_pkgconfig name description library requires private)
  set(lines
    "prefix=\${pcfiledir}/${caduceus_pc_to_prefix}"
    "libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}"
    "includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}"
    ""
    "Name: ${name}"
    "Description: ${description}"
    "Version: ${PROJECT_VERSION}")
  if(requires)
    list(APPEND lines "Requires: ${requires}")
  endif()
  if(private)
    list(APPEND lines "${caduceus_pc_private_keyword} ${private}")
  endif()
  if(name STREQUAL "caduceus")
    list(APPEND lines "Cflags: -I\${includedir} ${caduceus_pc_cflags}"
                      "Libs: -L\${libdir} -l${library} ${caduceus_pc_libs}"
                      "Libs.private: -pthread")
  else()
    list(APPEND lines "Libs: -L\${libdir} -l${library}")
  endif()
  list(JOIN lines "\n" text)
  file(WRITE ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc "${text}\n")
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
          COMPONENT development)
endfunction()

caduceus_pkgconfig(caduceus "${PROJECT_DESCRIPTION}" caduceus "openssl" "")
if(TARGET skills)
  caduceus_pkgconfig(caduceus-skills "The skills extension of Caduceus" caduceus_skills "caduceus" "yaml-cpp")
endif()
if(TARGET cluster)
  caduceus_pkgconfig(caduceus-cluster "Caduceus servers sharing sessions through Redis" caduceus_cluster
                     "caduceus" "hiredis")
endif()
