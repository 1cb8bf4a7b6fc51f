# Runs one program of the docs (test/docs/CMakeLists.txt): it must exit 0
# and, when EXPECT is not empty, print EXPECT on stdout.
#   cmake -DPROGRAM=path -DWHERE=page:line [-DEXPECT=text] -P run_program.cmake
execute_process(COMMAND ${PROGRAM} TIMEOUT 60 RESULT_VARIABLE status OUTPUT_VARIABLE out)
message("${out}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${WHERE}: the program ended with ${status}")
endif()
if(NOT EXPECT STREQUAL "")
  string(FIND "${out}" "${EXPECT}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${WHERE}: the program did not print \"${EXPECT}\"")
  endif()
endif()
