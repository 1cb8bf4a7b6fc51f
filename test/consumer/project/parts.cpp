// The optional parts from the installed package: configures (without
// running) the Redis stores of caduceus::cluster and reads a SKILL.md's
// frontmatter with caduceus::skills, so that their headers, libraries and
// exported dependencies are proven installed.

#include <mcp/cluster/redis.hpp>
#include <mcp/mcp.hpp>

#include <iostream>

int main() {
  mcp::http_server_options options;
  options.make_stores = mcp::cluster::make_redis_stores({.url = "redis://127.0.0.1:6379"});
  const auto frontmatter = mcp::skills::parse_frontmatter("---\nname: consumer\ndescription: proof\n---\n");
  std::cout << frontmatter.at("name").as_string().c_str() << "\n";
  return options.make_stores && frontmatter.at("description") == "proof" ? 0 : 1;
}
