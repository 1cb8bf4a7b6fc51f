// typed-tool: one struct is the tool's input schema, its validation and its
// parsed arguments; another is its output schema and structured result.
//
//   build/bin/typed-tool     (MCP over stdio; build/bin/weather-client calls it)

#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>

#include "weather.hpp"

int main() {
  mcp::server srv({"weather", "1.0.0"});
  // A plain function: it runs on the worker pool, so it may block.
  srv.add_tool("forecast", "Forecast for a city", [](const weather::forecast_args& a) {
    const bool f = a.unit == weather::units::fahrenheit;
    return weather::forecast{f ? 68.0 : 20.0, f ? 50.0 : 10.0,
                             std::to_string(a.days) + " mild days in " + a.city};
  });
  return mcp::run_stdio_server(srv);
}
