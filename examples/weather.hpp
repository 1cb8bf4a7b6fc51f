#pragma once
// The weather tool's arguments and result, shared by its server (typed-tool)
// and its client (weather-client): one struct each is the JSON Schema, the
// validation and the parsed value on both sides.

#include <mcp/json/fields.hpp>

#include <boost/describe.hpp>

#include <optional>
#include <string>
#include <tuple>

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
