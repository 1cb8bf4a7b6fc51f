# Builds and runs the consumer project (project/) against Caduceus, got the
# way MODE says (project/CMakeLists.txt), then, for an installed copy, builds
# project/core.cpp again with nothing but pkg-config and the compiler.
#   WORK_DIR     a scratch folder (emptied first)
#   SOURCE_DIR   the consumer project
#   MODE         find_package (default), add_subdirectory or FetchContent
#   BUILD_DIR    find_package: a Caduceus build, installed into WORK_DIR/prefix
#   PREFIX       find_package: an installed Caduceus instead (e.g. /usr)
#   CADUCEUS_SOURCE, CADUCEUS_GIT_TAG   for add_subdirectory and FetchContent
#   CXX          the compiler for the pkg-config build (none: no such build)
#   CONSUMER_CMAKE_ARGS  more arguments for the project's configure
foreach(var WORK_DIR SOURCE_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "${var} is required")
  endif()
endforeach()
if(NOT DEFINED MODE)
  set(MODE find_package)
endif()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()

set(args -DCADUCEUS_CONSUME=${MODE})
if(MODE STREQUAL "find_package")
  if(NOT DEFINED PREFIX)
    set(PREFIX ${WORK_DIR}/prefix)
    run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})
  endif()
  list(APPEND args -DCMAKE_PREFIX_PATH=${PREFIX})
else()
  list(APPEND args -DCADUCEUS_SOURCE=${CADUCEUS_SOURCE} -DCADUCEUS_GIT_TAG=${CADUCEUS_GIT_TAG})
endif()
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
  list(APPEND args -DCMAKE_CXX_COMPILER_LAUNCHER=${CCACHE_PROGRAM})
endif()
separate_arguments(extra UNIX_COMMAND "${CONSUMER_CMAKE_ARGS}")
# A shared Caduceus in a scratch prefix is found through LD_LIBRARY_PATH, as
# the programs (the installed tool among them, which the build runs) carry no
# run path into it.
set(library_path "")
if(DEFINED PREFIX)
  file(GLOB library_dirs LIST_DIRECTORIES true ${PREFIX}/lib ${PREFIX}/lib64 ${PREFIX}/lib/*-linux-gnu)
  list(JOIN library_dirs ":" library_path)
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja -DCMAKE_BUILD_TYPE=Release ${args} ${extra})
run(${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${library_path}" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)

function(run_program program)
  run(${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${library_path}" ${program})
endfunction()
run_program(${WORK_DIR}/build/core_consumer)
if(EXISTS ${WORK_DIR}/build/parts_consumer)
  run_program(${WORK_DIR}/build/parts_consumer)
endif()

# A program of the core alone loads none of the optional parts' libraries.
if(CMAKE_HOST_SYSTEM_NAME STREQUAL "Linux")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${library_path}" ldd ${WORK_DIR}/build/core_consumer
                  OUTPUT_VARIABLE linked RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ldd core_consumer failed (${rc})")
  endif()
  foreach(library IN ITEMS yaml-cpp hiredis cjose jansson civetweb httplib caduceus_skills caduceus_cluster)
    if(linked MATCHES "lib${library}")
      message(FATAL_ERROR "core_consumer links lib${library}:\n${linked}")
    endif()
  endforeach()
endif()

# pkg-config, as a Makefile would use it: caduceus.pc's Cflags and Libs are
# all the compiler is given.
if(DEFINED PREFIX AND DEFINED CXX)
  list(TRANSFORM library_dirs APPEND /pkgconfig OUTPUT_VARIABLE pc_dirs)
  list(JOIN pc_dirs ":" pc_path)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "PKG_CONFIG_PATH=${pc_path}" pkg-config --cflags --libs caduceus
                  OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config --cflags --libs caduceus failed (${rc})")
  endif()
  message(STATUS "pkg-config --cflags --libs caduceus: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(${CXX} -std=c++20 -O0 -o ${WORK_DIR}/pkg_config_consumer ${SOURCE_DIR}/core.cpp ${flags})
  run_program(${WORK_DIR}/pkg_config_consumer)
endif()
