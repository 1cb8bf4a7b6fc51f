// RFC 6570 templates (uri_template/): a template a server declares and the
// URIs a client reads through it. Input: the template, a NUL byte, a URI.
// A bad template is mcp::invalid_argument; a match binds only the template's
// variables, and what it bound expands again.

#include <mcp/error.hpp>
#include <mcp/uri_template.hpp>

#include "fuzz_input.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = mcp::fuzz::parts(mcp::fuzz::as_text(data, size));
  std::optional<mcp::uri_template> tmpl;
  try {
    tmpl.emplace(mcp::fuzz::part(input, 0));
  } catch (const mcp::invalid_argument&) {
    return 0;
  }
  const auto bound = tmpl->match(mcp::fuzz::part(input, 1));
  if (!bound) return 0;
  const auto& names = tmpl->variables();
  for (const auto& [name, value] : *bound)
    if (std::find(names.begin(), names.end(), name) == names.end()) std::abort();
  (void)tmpl->expand(*bound);
  return 0;
}
