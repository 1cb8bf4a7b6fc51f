#pragma once
// The path of a program the tests start: CADUCEUS_BIN_DIR is their folder
// (test/CMakeLists.txt; the release build's own for the TSan build).

#include <string>

namespace mcp::test {

inline std::string test_program(const std::string& name) { return std::string(CADUCEUS_BIN_DIR) + "/" + name; }

}  // namespace mcp::test
