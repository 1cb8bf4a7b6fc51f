cmake_minimum_required(VERSION 3.20)
# The layering rules, checked on the includes of the sources (cmake -P, with
# -DSOURCE_DIR=<the repository>):
#   - transport/ moves frames: it includes nothing of protocol/, server/ or
#     client/ (it knows neither JSON-RPC nor MCP);
#   - protocol/ is sans-io: no Asio, no Beast, nothing of server/ or client/.
# Known exceptions are listed below, each to go (issue 17: the MCP rules of
# HTTP move above the raw HTTP layer); one that no longer occurs fails too,
# so that the list only shrinks.
set(allowed
  "src/transport/http_client/messages.hpp: <mcp/protocol/jsonrpc.hpp>"
  "src/transport/http_client/messages.cpp: <mcp/protocol/envelope.hpp>"
  "src/transport/http_client/messages.cpp: \"../../protocol/x_mcp_header.hpp\""
  "src/transport/http_client/streamable.cpp: \"../../protocol/x_mcp_header.hpp\""
)

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
