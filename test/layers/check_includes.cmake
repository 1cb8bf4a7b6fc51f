cmake_minimum_required(VERSION 3.20)
# The layering rules, checked on the includes of the sources (cmake -P, with
# -DSOURCE_DIR=<the repository>):
#   - transport/ moves frames: it includes nothing of protocol/, server/ or
#     client/ (it knows neither JSON-RPC nor MCP);
#   - transport/http/ is one HTTP layer, its server/ and client/ halves side
#     by side on what they share (stream.hpp): neither includes the MCP
#     server or client above it (src/server, src/client), nor the other half;
#   - protocol/ is sans-io: no Asio, no Beast, nothing of server/ or client/
#     (it may fill transport's plain data, such as the HTTP client's
#     frame_facts.hpp, which has no Asio either).
# An include is checked as the file it names: a quoted one resolved against
# the including file's folder ("../server/x.hpp" in transport/http/client is
# transport/http/server/x.hpp), <mcp/...> as include/mcp/..., any other as
# written (<boost/asio/...>).
# An exception would be listed below ("<file>: <include>"), to go; one that
# no longer occurs fails too, so that the list only shrinks. None is left:
# the HTTP client transport learns what its frames hold through a
# message_binding that client/connect_http.cpp fills with protocol/'s rules,
# and the HTTP server's raw layer is told which headers to index and knows no
# principal (server/http/served_request.hpp).
set(allowed)

set(rules
  "src/transport|include/mcp/transport" "^(src|include/mcp)/(protocol|server|client)/"
  "src/transport/http/server|src/transport/http/client" "^src/(server|client)/"
  "src/transport/http/server" "^src/transport/http/client/"
  "src/transport/http/client" "^src/transport/http/server/"
  "src/protocol|include/mcp/protocol" "^(boost/asio|boost/beast)|^(src|include/mcp)/(server|client)/"
)

# The file an include line names, as described above.
function(included_file file line out)
  string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*" "" target "${line}")
  string(REGEX REPLACE "//.*$" "" target "${target}")
  string(STRIP "${target}" target)
  if(target MATCHES "^\"(.*)\"$")
    get_filename_component(dir "${SOURCE_DIR}/${file}" DIRECTORY)
    get_filename_component(resolved "${dir}/${CMAKE_MATCH_1}" ABSOLUTE)
    file(RELATIVE_PATH resolved "${SOURCE_DIR}" "${resolved}")
  elseif(target MATCHES "^<mcp/(.*)>$")
    set(resolved "include/mcp/${CMAKE_MATCH_1}")
  elseif(target MATCHES "^<(.*)>$")
    set(resolved "${CMAKE_MATCH_1}")
  else()
    set(resolved "${target}")
  endif()
  set(${out} "${target};${resolved}" PARENT_SCOPE)
endfunction()

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
        included_file("${file}" "${line}" named)
        list(GET named 0 target)
        list(GET named 1 resolved)
        if(resolved MATCHES "${forbidden}")
          list(APPEND found "${file}: ${target}")
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES found)

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
