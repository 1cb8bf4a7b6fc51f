#pragma once
// JSON that a test writes as text, read into the value the code under test takes.

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <string_view>

namespace mcp::test {

/// The JSON object `text` spells (throws when it is not one).
inline boost::json::object object(std::string_view text) { return boost::json::parse(text).as_object(); }

}  // namespace mcp::test
