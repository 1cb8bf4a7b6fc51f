#pragma once
// The everything demo, written once: everything-server and `caduceus
// serve-demo` both serve it (see everything_demo.cpp for its contract).

#include <mcp/server/server.hpp>

#include <boost/describe/class.hpp>

#include <string>

namespace demo {

/// The arguments and result of the tools echo and add (also measured by bench/micro).
struct echo_args {
  std::string text;
};
BOOST_DESCRIBE_STRUCT(echo_args, (), (text))

struct add_args {
  double a = 0;
  double b = 0;
};
BOOST_DESCRIBE_STRUCT(add_args, (), (a, b))

struct sum_result {
  double sum = 0;
};
BOOST_DESCRIBE_STRUCT(sum_result, (), (sum))

/// The demo's name and version: everything-server 1.0.0.
mcp::implementation info();
/// Its settings: the instructions, the default page size.
mcp::server_options settings();

/// Tools echo, add, long_task, sample, confirm, list_roots, emit_logs, media,
/// toggle_bonus, touch and fail. The server must outlive the tools (toggle_bonus
/// and touch hold a reference to it).
void add_tools(mcp::server& srv);
/// Resources demo://readme, demo://logo.png, demo://items/1..25, the template
/// demo://users/{id} and the completion of its id.
void add_resources(mcp::server& srv);
/// Prompts greeting (with the completion of its style) and with_image.
void add_prompts(mcp::server& srv);

/// All of the above.
void add_everything(mcp::server& srv);

}  // namespace demo
