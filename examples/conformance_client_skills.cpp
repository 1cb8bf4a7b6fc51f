// conformance-client's Skills scenarios (conformance_client_skills.hpp).

#include "conformance_client_skills.hpp"

#include <mcp/client/skills.hpp>

#include <iostream>

// The Skills extension (SEP-2640), as a host uses it: the listing builds its
// registry and reads no file (sep-2640-client-no-prefetch); loading a skill
// reads its SKILL.md, verified against the entry, and only then the files it
// refers to, each verified too. The verify-* scenarios serve a SKILL.md that
// fails the check they name: the load throws, and nothing more is read.
boost::asio::awaitable<void> run_skills_scenario(mcp::client& client, const std::string& scenario) {
  const auto skills = co_await mcp::list_skills(client);
  for (const auto& entry : skills) std::cout << "skill " << entry.name() << ": " << entry.description() << "\n";
  if (scenario == "sep-2640-client-no-prefetch" || skills.empty()) co_return;
  auto entry = skills.front();
  try {
    const auto skill = co_await mcp::load_skill(client, std::move(entry));
    std::cout << "loaded " << skill.entry.uri << "\n";
    if (const auto* files = skill.entry.files())
      for (const auto& file : *files)
        if (file.uri != skill.entry.uri) {
          auto uri = file.uri;
          co_await mcp::read_skill_file(client, skill, std::move(uri));
        }
  } catch (const mcp::skill_verification_error& e) {
    std::cout << "not loaded: " << e.what() << "\n";
  }
}
