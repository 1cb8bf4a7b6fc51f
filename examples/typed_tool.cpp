// typed-tool: one struct is the tool's input schema, its validation and its
// parsed arguments; another is its output schema and structured result.
//
//   build/bin/typed-tool     (MCP over stdio; try it with build/bin/counter-client build/bin/typed-tool)

#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>

#include <boost/describe.hpp>

namespace weather {

enum class units { celsius, fahrenheit };
BOOST_DESCRIBE_ENUM(units, celsius, fahrenheit)

struct forecast_args {
  std::string city;           // required: no default
  std::optional<units> unit;  // optional: may be absent
  int days = 1;               // optional: defaults to 1
};
BOOST_DESCRIBE_STRUCT(forecast_args, (), (city, unit, days))

// Descriptions and bounds for the schema, found by argument-dependent lookup.
inline auto mcp_fields(mcp::type_t<forecast_args>) {
  return std::tuple{mcp::field(&forecast_args::city, "City name, e.g. Paris").min_length(1),
                    mcp::field(&forecast_args::days, "Days ahead").range(1, 7)};
}

struct forecast {
  double high = 0;
  double low = 0;
  std::string summary;
};
BOOST_DESCRIBE_STRUCT(forecast, (), (high, low, summary))

}  // namespace weather

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
