# Installs the SDK into a scratch prefix, then configures, builds and runs a
# separate project against it with find_package(caduceus).
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "${var} is required")
  endif()
endforeach()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
set(launcher "")
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${CCACHE_PROGRAM})
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release ${launcher})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/core_consumer)
if(EXISTS ${WORK_DIR}/build/parts_consumer)
  run(${WORK_DIR}/build/parts_consumer)
endif()

# A program of the core alone loads none of the optional parts' libraries.
if(CMAKE_HOST_SYSTEM_NAME STREQUAL "Linux")
  execute_process(COMMAND ldd ${WORK_DIR}/build/core_consumer OUTPUT_VARIABLE linked RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ldd core_consumer failed (${rc})")
  endif()
  foreach(library IN ITEMS yaml-cpp hiredis cjose jansson civetweb httplib)
    if(linked MATCHES "lib${library}")
      message(FATAL_ERROR "core_consumer links lib${library}:\n${linked}")
    endif()
  endforeach()
endif()
