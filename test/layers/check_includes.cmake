cmake_minimum_required(VERSION 3.20)
# The layering rules, checked on the includes of the sources (cmake -P, with
# -DSOURCE_DIR=<the repository>):
#   - transport/ moves frames: it includes nothing of protocol/, server/ or
#     client/ (it knows neither JSON-RPC nor MCP);
#   - protocol/ is sans-io: no Asio, no Beast, nothing of server/ or client/.
# An exception would be listed below ("<file>: <include>"), to go; one that
# no longer occurs fails too, so that the list only shrinks. None is left:
# the HTTP client transport learns what its frames hold through a
# message_binding that client/connect_http.cpp fills with protocol/'s rules.
set(allowed)

set(rules
  "src/transport|include/mcp/transport" "[<\"](mcp/(protocol|server|client)/|(\\.\\./)+(protocol|server|client)/)"
  "src/protocol|include/mcp/protocol" "[<\"](boost/asio|boost/beast|mcp/(server|client)/|(\\.\\./)+(server|client)/)"
)

set(found)
list(LENGTH rules count)
math(EXPR last "${count} - 1")
foreach(i RANGE 0 ${last} 2)
  math(EXPR j "${i} + 1")
  list(GET rules ${i} dirs)
  list(GET rules ${j} forbidden)
  string(REPLACE "|" ";" dirs "${dirs}")
  foreach(dir IN LISTS dirs)
    file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${dir}/*.hpp ${SOURCE_DIR}/${dir}/*.cpp)
    foreach(file IN LISTS files)
      file(STRINGS ${SOURCE_DIR}/${file} includes REGEX "^[ \t]*#[ \t]*include")
      foreach(line IN LISTS includes)
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*" "" target "${line}")
        string(REGEX REPLACE "//.*$" "" target "${target}")
        string(STRIP "${target}" target)
        if(target MATCHES "${forbidden}")
          list(APPEND found "${file}: ${target}")
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()

set(failures)
foreach(entry IN LISTS found)
  if(NOT entry IN_LIST allowed)
    list(APPEND failures "  not allowed: ${entry}")
  endif()
endforeach()
foreach(entry IN LISTS allowed)
  if(NOT entry IN_LIST found)
    list(APPEND failures "  gone, remove it from the list: ${entry}")
  endif()
endforeach()
if(failures)
  list(JOIN failures "\n" text)
  message(FATAL_ERROR "layering rules broken:\n${text}")
endif()
list(LENGTH found exceptions)
message(STATUS "layering rules hold (${exceptions} listed exceptions)")
