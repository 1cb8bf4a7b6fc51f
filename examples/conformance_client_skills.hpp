#pragma once
// conformance-client's Skills extension scenarios (sep-2640-*): in
// conformance_client_skills.cpp when this build has the skills part
// (caduceus::skills), in conformance_client_without_skills.cpp otherwise.

#include <mcp/client/client.hpp>

#include <boost/asio/awaitable.hpp>

#include <string>

/// Runs `scenario` against the server `client` is connected to.
boost::asio::awaitable<void> run_skills_scenario(mcp::client& client, const std::string& scenario);
